"""The WSGI layers both APIs share (volapi.middleware.stack), through each
API: request ids, /healthcheck, the body size limit, proxy headers, CORS."""
import json

import fixtures
import webtest

from tests import base
from tests.functional import api_fixtures
from tests.functional import test_placement_base
from volapi.api import app as volume_app
from volapi.middleware import stack
from volapi.placement import wsgi as placement_wsgi
from volapi import wsgi

GLOBAL_ID = 'req-0123abcd-0123-4567-89ab-0123456789ab'


class VolumeAPIMiddlewareTest(api_fixtures.APITestCase):

    def test_request_id_and_inbound_global_request_id(self):
        response = self.app.get('/v3/volumes', headers=dict(
            self.owner, **{'X-OpenStack-Request-Id': GLOBAL_ID}))
        own = response.headers['X-OpenStack-Request-Id']
        self.assertRegex(own, r'^req-[0-9a-f-]{36}$')
        self.assertNotEqual(GLOBAL_ID, own)

    def test_healthcheck_without_authentication(self):
        self.app.get('/healthcheck', status=200)

    def test_healthcheck_disabled_by_file(self):
        marker = self.useFixture(fixtures.TempDir()).join('disabled')
        self.config.set('healthcheck', backends=['disable_by_file'],
                        disable_by_file_path=marker)
        app = webtest.TestApp(volume_app.setup_app(self.config.conf))
        app.get('/healthcheck', status=200)
        open(marker, 'w').close()
        response = app.get('/healthcheck', status=503)
        self.assertIn(b'DISABLED BY FILE', response.body)

    def test_body_over_the_limit_is_413(self):
        self.config.set('oslo_middleware', max_request_body_size=1024)
        app = webtest.TestApp(volume_app.setup_app(self.config.conf))
        body = {'volume': {'size': 1, 'description': 'x' * 2000}}
        response = app.post_json('/v3/volumes', body, headers=self.owner,
                                 status=413)
        self.assertIn('larger than 1024 bytes', self.fault(response, 413))
        self.create_volume(description="x" * 200)

    def test_a_length_of_thousands_of_digits_is_413(self):
        # More digits than int() converts: beyond any limit, not a 500.
        # (webtest's own check of the environment would int() it.)
        app = webtest.TestApp(volume_app.setup_app(self.config.conf),
                              lint=False)
        for length in ('9' * 5000, '1' + '0' * 30):
            request = webtest.TestRequest.blank(
                '/v3/volumes', method='POST', body=b'{}',
                headers=dict(self.owner,
                             **{'Content-Type': 'application/json'}))
            request.environ['CONTENT_LENGTH'] = length
            self.fault(app.do_request(request, status=413), 413)

    def test_chunked_body_over_the_limit_is_413(self):
        self.config.set('oslo_middleware', max_request_body_size=1024)
        app = webtest.TestApp(volume_app.setup_app(self.config.conf))
        body = json.dumps({'volume': {'size': 1, 'name': 'x' * 2000}})
        request = webtest.TestRequest.blank(
            '/v3/volumes', method='POST', body=body.encode(),
            headers=dict(self.owner, **{'Content-Type': 'application/json',
                                        'Transfer-Encoding': 'chunked'}),
            # What a WSGI server says of a chunked body it has decoded.
            environ={'wsgi.input_terminated': True})
        del request.environ['CONTENT_LENGTH']
        self.fault(app.do_request(request, status=413), 413)

    def test_links_say_https_behind_a_tls_proxy(self):
        self.config.set('oslo_middleware', enable_proxy_headers_parsing=True)
        app = webtest.TestApp(volume_app.setup_app(self.config.conf))
        self.create_volume()
        self.create_volume()
        proxied = dict(self.owner, **{'X-Forwarded-Proto': 'https',
                                      'X-Forwarded-Host': 'volumes.example'})
        versions = app.get('/', headers=proxied, status=300).json
        hrefs = [link['href'] for v in versions['versions']
                 for link in v['links'] if link['rel'] == 'self']
        self.assertTrue(hrefs)
        for href in hrefs:
            self.assertTrue(href.startswith('https://volumes.example/'), href)
        listing = app.get('/v3/volumes?limit=1', headers=proxied).json
        [next_link] = listing['volumes_links']
        self.assertTrue(next_link['href'].startswith(
            'https://volumes.example/v3/'), next_link)
        # Without the option the headers are not believed.
        plain = self.app.get('/v3/volumes?limit=1', headers=proxied).json
        self.assertTrue(plain['volumes_links'][0]['href'].startswith(
            'http://localhost/'))

    def test_cors_when_configured(self):
        self.config.set('cors', allowed_origin=['https://dashboard.example'])
        app = webtest.TestApp(volume_app.setup_app(self.config.conf))
        response = app.get('/v3/volumes', headers=dict(
            self.owner, Origin='https://dashboard.example'))
        self.assertEqual('https://dashboard.example',
                         response.headers['Access-Control-Allow-Origin'])
        response = self.app.get('/v3/volumes', headers=dict(
            self.owner, Origin='https://dashboard.example'))
        self.assertNotIn('Access-Control-Allow-Origin', response.headers)


class PlacementMiddlewareTest(test_placement_base.PlacementTestCase):

    def test_request_id_headers(self):
        # Only oslo.middleware's header: Placement 16.0.0 sends no other.
        response = self.get('/resource_providers')
        own = response.headers['x-openstack-request-id']
        self.assertRegex(own, r'^req-[0-9a-f-]{36}$')
        self.assertNotIn('openstack-request-id', response.headers)

    def test_healthcheck_without_authentication(self):
        self.app.get('/healthcheck', status=200)

    def test_body_over_the_limit_is_413(self):
        self.config.set('placement', max_request_body_size=1024)
        self.app = webtest.TestApp(placement_wsgi.setup_app(self.config.conf))
        response = self.post('/resource_providers', {'name': 'x' * 2000})
        self.assertError(response, 413, detail='larger than 1024 bytes')

    def test_a_large_allocations_post_fits_the_default_limit(self):
        provider = self.create_provider()['uuid']
        self.set_inventory(provider, {'DISK_GB': {'total': 100000}})
        consumers = {
            '%08d-0000-4000-8000-%012d' % (n, n): {
                'allocations': {provider: {'resources': {'DISK_GB': 1}}},
                'project_id': 'project-with-a-long-name-%d' % n,
                'user_id': 'user-with-a-long-name-%d' % n,
                'consumer_generation': None, 'consumer_type': 'INSTANCE'}
            for n in range(800)}
        body = json.dumps(consumers)
        self.assertGreater(len(body), 114688)  # oslo.middleware's default
        self.post('/allocations', body, status=204)
        usages = self.get('/resource_providers/%s/usages' % provider).json
        self.assertEqual({'DISK_GB': 800}, usages['usages'])


class ComposedApplicationTest(base.DatabaseTestCase):
    """volapi.wsgi's application: placement's healthcheck under /placement."""

    def test_healthcheck_of_both(self):
        app = webtest.TestApp(wsgi.init_application(self.config.conf))
        app.get('/healthcheck', status=200)
        app.get('/placement/healthcheck', status=200)
        # Not a resource of either API without the layer.
        app.get('/healthcheckx', status=204)  # noauth's token handshake
        app.get('/placement/healthcheckx', status=401)


class GlobalRequestIdTest(base.TestCase):
    """What the stack leaves in the environ for RequestContext.from_environ:
    an inbound global request id, if well formed."""

    def environ_after(self, inbound):
        seen = {}

        def application(environ, start_response):
            seen.update(environ)
            start_response('204 No Content', [])
            return [b'']

        app = webtest.TestApp(stack.wrap(
            application, self.config.conf, 1024,
            lambda environ, start_response, status, message: None))
        headers = {'X-OpenStack-Request-Id': inbound} if inbound else {}
        app.get('/anything', headers=headers, status=204)
        return seen

    def test_kept_when_well_formed(self):
        environ = self.environ_after(GLOBAL_ID)
        self.assertEqual(GLOBAL_ID, environ['openstack.global_request_id'])
        self.assertNotEqual(GLOBAL_ID, environ['openstack.request_id'])

    def test_dropped_when_not(self):
        environ = self.environ_after('req-<script>')
        self.assertNotIn('openstack.global_request_id', environ)
