"""The placement application around the handlers: the version document,
authentication and policy, microversion negotiation, routing, content
negotiation, error bodies, request ids and cache headers."""
import datetime

from oslo_utils import timeutils

from tests.functional import test_placement_base as base


class TestRoot(base.PlacementTestCase):

    def test_version_document_needs_no_token(self):
        for path in ('/', ''):
            response = self.get(path or '/', token=None, version='')
            self.assertEqual({'versions': [{
                'id': 'v1.0', 'max_version': '1.39', 'min_version': '1.0',
                'status': 'CURRENT', 'links': [{'rel': 'self', 'href': ''}],
            }]}, response.json)
            self.assertEqual('placement 1.0',
                             response.headers['OpenStack-API-Version'])

    def test_version_document_cache_headers_from_1_15(self):
        response = self.get('/', version='1.14')
        self.assertNotIn('last-modified', response.headers)
        self.assertNotIn('cache-control', response.headers)
        response = self.get('/', version='1.15')
        self.assertEqual('no-cache', response.headers['cache-control'])
        self.assertIn('last-modified', response.headers)


class TestAuth(base.PlacementTestCase):

    def test_no_token_is_401(self):
        response = self.get('/resource_providers', status=401, token=None)
        self.assertNotIn('OpenStack-API-Version', response.headers)

    def test_non_admin_token_is_403_everywhere(self):
        rp = self.create_provider()
        paths = [
            ('GET', '/resource_providers'),
            ('GET', '/resource_providers/%s' % rp['uuid']),
            ('DELETE', '/resource_providers/%s' % rp['uuid']),
            ('GET', '/resource_providers/%s/inventories' % rp['uuid']),
            ('GET', '/resource_providers/%s/usages' % rp['uuid']),
            ('GET', '/resource_providers/%s/aggregates' % rp['uuid']),
            ('GET', '/resource_providers/%s/traits' % rp['uuid']),
            ('GET', '/resource_classes'),
            ('GET', '/traits'),
            ('PUT', '/traits/CUSTOM_X'),
            ('GET', '/usages?project_id=p'),
        ]
        for method, path in paths:
            response = self.request(method, path, token='alice:project')
            error = self.assertError(response, 403, 'placement.undefined_code')
            self.assertIn('Policy does not allow placement:', error['detail'])
        # Nothing was deleted.
        self.get('/resource_providers/%s' % rp['uuid'])

    def test_strategy_follows_api_section(self):
        from volapi.placement import auth
        self.assertEqual('noauth2', auth.strategy(self.config.conf))
        self.config.set(group='api', auth_strategy='keystone')
        self.assertEqual('keystone', auth.strategy(self.config.conf))
        self.config.set(group='placement', auth_strategy='noauth2')
        self.assertEqual('noauth2', auth.strategy(self.config.conf))

    def test_keystone_rejects_missing_token_but_serves_root(self):
        from keystonemiddleware import auth_token
        import webtest
        from volapi.placement import wsgi
        for group, opts in auth_token.list_opts():
            self.config.conf.register_opts(opts, group=group)
        self.config.set(group='keystone_authtoken',
                        www_authenticate_uri='http://127.0.0.1:5000/v3')
        self.config.set(group='placement', auth_strategy='keystone')
        app = webtest.TestApp(wsgi.setup_app(self.config.conf))
        self.assertEqual(200, app.get('/').status_int)
        response = app.get('/resource_providers', expect_errors=True)
        self.assertEqual(401, response.status_int)


class TestMicroversions(base.PlacementTestCase):

    def test_no_header_is_1_0_and_latest_is_1_39(self):
        response = self.get('/', version='')
        self.assertEqual('placement 1.0',
                         response.headers['OpenStack-API-Version'])
        self.assertEqual('openstack-api-version', response.headers['Vary'])
        response = self.get('/', version='latest')
        self.assertEqual('placement 1.39',
                         response.headers['OpenStack-API-Version'])

    def test_unknown_version_is_406_naming_the_range(self):
        for version in ('1.40', '2.0', '0.9'):
            response = self.get('/resource_providers', status=406,
                                version=version)
            error = response.json['errors'][0]
            self.assertEqual('1.39', error['max_version'])
            self.assertEqual('1.0', error['min_version'])
            self.assertIn('Unacceptable version header', error['detail'])

    def test_malformed_version_is_400(self):
        for version in ('one', '1.x', '1'):
            response = self.get('/resource_providers', status=400,
                                version=version)
            self.assertIn('invalid version string',
                          response.json['errors'][0]['detail'])

    def test_other_services_versions_are_ignored(self):
        response = self.get('/', version='', headers={
            'OpenStack-API-Version': 'compute 2.90, placement 1.20'})
        self.assertEqual('placement 1.20',
                         response.headers['OpenStack-API-Version'])

    def test_handler_outside_its_versions_is_404(self):
        self.assertError(self.get('/traits', status=None, version='1.5'),
                         404)
        self.get('/traits', version='1.6')
        self.assertError(
            self.get('/resource_classes', status=None, version='1.1'), 404)


class TestErrors(base.PlacementTestCase):

    def test_code_only_from_1_23(self):
        response = self.get('/resource_providers/nope', status=404,
                            version='1.22')
        self.assertNotIn('code', response.json['errors'][0])
        response = self.get('/resource_providers/nope', status=404,
                            version='1.23')
        self.assertEqual('placement.undefined_code',
                         response.json['errors'][0]['code'])

    def test_error_body_shape(self):
        response = self.get('/resource_providers/nope', status=404)
        error = response.json['errors'][0]
        self.assertEqual({'status', 'title', 'detail', 'code', 'request_id'},
                         set(error))
        self.assertEqual('Not Found', error['title'])
        self.assertEqual(response.headers['x-openstack-request-id'],
                         error['request_id'])

    def test_unknown_path_is_404(self):
        for path in ('/nothing', '/resource_providers/x/y/z',
                     '/resource_providers/', '/resource_providers/%00'):
            self.assertError(self.get(path, status=None), 404)

    def test_wrong_method_is_405_with_allow(self):
        response = self.request('POST', '/resource_providers/x', {})
        self.assertError(response, 405)
        self.assertEqual('GET, DELETE, PUT', response.headers['allow'])
        response = self.request('PATCH', '/traits')
        self.assertError(response, 405)
        self.assertEqual('GET', response.headers['allow'])

    def test_delete_all_inventories_before_1_5_is_405(self):
        rp = self.create_provider()
        self.assertError(self.delete(
            '/resource_providers/%s/inventories' % rp['uuid'], status=None,
            version='1.4'), 405)

    def test_body_without_content_type_is_400(self):
        response = self.request('POST', '/resource_providers', '{"name": 1}',
                                content_type=None)
        self.assertError(response, 400, detail='content-type header required')

    def test_wrong_content_type_is_415(self):
        response = self.request('POST', '/resource_providers',
                                '{"name": "x"}', content_type='text/plain')
        self.assertError(response, 415, detail='The media type text/plain')

    def test_unacceptable_accept_is_406(self):
        response = self.get('/resource_providers', status=None,
                            headers={'Accept': 'text/html'})
        self.assertEqual(406, response.status_int)
        self.assertIn('Only application/json is provided', response.text)

    def test_errors_are_json_without_accept_or_with_any(self):
        for accept in (None, '', '*/*'):
            for method, path, body in (
                    ('GET', '/nothing', None),
                    ('POST', '/resource_classes', '{bad'),
                    ('PUT', '/traits/lowercase', None)):
                response = self.request(method, path, body,
                                        headers={'Accept': accept})
                self.assertEqual('application/json', response.content_type,
                                 '%s %s %r' % (method, path, accept))
                self.assertIn(response.status_int, (400, 404))
                self.assertEqual(response.status_int,
                                 response.json['errors'][0]['status'])

    def test_vary_as_placement_spells_it(self):
        self.assertEqual('openstack-api-version',
                         self.get('/').headers['vary'])
        self.assertEqual('openstack-api-version', self.get(
            '/traits/CUSTOM_NONE', status=404).headers['vary'])
        # Not on what Placement answers past its handlers: an unknown
        # path, or an object's NotFound escaping the handler.
        for path in ('/nothing', '/resource_classes/CUSTOM_NONE'):
            response = self.get(path, status=404)
            self.assertNotIn('vary', response.headers)
            self.assertIn('openstack-api-version', response.headers)

    def test_malformed_json_is_400(self):
        response = self.post('/resource_providers', '{"name": ')
        self.assertError(response, 400, detail='Malformed JSON')
        response = self.post('/resource_providers', '{"name": NaN}')
        self.assertError(response, 400, detail='Malformed JSON')


class TestRequestIds(base.PlacementTestCase):

    def test_each_response_has_an_id(self):
        first = self.get('/resource_providers')
        second = self.get('/resource_providers')
        for response in (first, second):
            self.assertRegex(response.headers['x-openstack-request-id'],
                             '^req-[0-9a-f-]{36}$')
            # Only the header Placement sends.
            self.assertNotIn('openstack-request-id', response.headers)
        self.assertNotEqual(first.headers['x-openstack-request-id'],
                            second.headers['x-openstack-request-id'])

    def test_unauthenticated_responses_have_an_id(self):
        response = self.get('/resource_providers', status=401, token=None)
        self.assertIn('x-openstack-request-id', response.headers)


class TestLastModified(base.PlacementTestCase):

    def test_headers_from_1_15(self):
        rp = self.create_provider()
        path = '/resource_providers/%s' % rp['uuid']
        response = self.get(path, version='1.14')
        self.assertNotIn('last-modified', response.headers)
        response = self.get(path, version='1.15')
        self.assertEqual('no-cache', response.headers['cache-control'])
        modified = datetime.datetime.strptime(
            response.headers['last-modified'], '%a, %d %b %Y %H:%M:%S GMT')
        self.assertLess(abs(timeutils.utcnow() - modified),
                        datetime.timedelta(minutes=5))
