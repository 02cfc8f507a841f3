"""The volume API's framework: versions documents, microversions, request
ids, noauth, URL project ids, faults for bad requests and unknown paths."""
import re

from tests.functional import api_fixtures
from volapi.api import microversion


class VersionsTest(api_fixtures.APITestCase):

    def _check_document(self, body):
        (version,) = body['versions']
        self.assertEqual('v3.0', version['id'])
        self.assertEqual('CURRENT', version['status'])
        self.assertEqual(microversion.MAX_VERSION_STRING, version['version'])
        self.assertEqual('3.0', version['min_version'])
        self.assertIn('updated', version)
        self.assertEqual({'rel': 'self', 'href': 'http://localhost:80/v3/'},
                         version['links'][0])
        self.assertEqual(
            'application/vnd.openstack.volume+json;version=3',
            version['media-types'][0]['type'])

    def test_root_is_multiple_choices_without_auth(self):
        response = self.app.get('/', status=300)
        self._check_document(response.json)

    def test_v3_root(self):
        for path in ('/v3', '/v3/'):
            self._check_document(self.app.get(path, status=200).json)

    def test_max_version_is_at_least_344(self):
        self.assertGreaterEqual(microversion.MAX_VERSION, (3, 44))


class MicroversionTest(api_fixtures.APITestCase):

    def _version_of(self, response):
        self.assertEqual('OpenStack-API-Version', response.headers['Vary'])
        return response.headers['OpenStack-API-Version']

    def test_no_header_is_3_0(self):
        response = self.app.get('/v3/volumes', headers=self.owner)
        self.assertEqual('volume 3.0', self._version_of(response))

    def test_latest_is_max(self):
        response = self.app.get('/v3/volumes', headers=api_fixtures.caller(
            version='latest'))
        self.assertEqual('volume %s' % microversion.MAX_VERSION_STRING,
                         self._version_of(response))

    def test_exact_version_echoed(self):
        response = self.app.get('/v3/volumes', headers=api_fixtures.caller(
            version='3.45'))
        self.assertEqual('volume 3.45', self._version_of(response))

    def test_out_of_range_is_406(self):
        for version in ('3.1000', '4.0', '2.0'):
            response = self.app.get(
                '/v3/volumes', headers=api_fixtures.caller(version=version),
                status=406)
            message = self.fault(response, 406)
            self.assertIn('is not supported by the API. Minimum is 3.0 and '
                          'maximum is %s.' % microversion.MAX_VERSION_STRING,
                          message)

    def test_malformed_is_400(self):
        for version in ('3', 'three.one', '3.x', '3.1.2'):
            response = self.app.get(
                '/v3/volumes', headers=api_fixtures.caller(version=version),
                status=400)
            self.assertIn('is of invalid format',
                          self.fault(response, 400))

    def test_other_service_header_means_default(self):
        response = self.app.get('/v3/volumes', headers=dict(
            self.owner, **{'OpenStack-API-Version': 'compute 2.90'}))
        self.assertEqual('volume 3.0', self._version_of(response))

    def test_version_echoed_on_faults(self):
        response = self.app.get('/v3/volumes/nope', headers=api_fixtures.
                                caller(version='3.50'), status=404)
        self.assertEqual('volume 3.50', self._version_of(response))


class RequestIdTest(api_fixtures.APITestCase):

    def test_every_response_has_one(self):
        ids = set()
        for path, status in (('/', 300), ('/v3/volumes', 200),
                             ('/v3/volumes/missing', 404)):
            response = self.app.get(path, headers=self.owner, status=status)
            request_id = response.headers['X-OpenStack-Request-Id']
            self.assertRegex(request_id, r'^req-[0-9a-f-]{36}$')
            ids.add(request_id)
        self.assertEqual(3, len(ids))


class NoAuthTest(api_fixtures.APITestCase):

    def test_no_token_gets_cinders_handshake(self):
        response = self.app.get('/v3/volumes', headers={
            'X-Auth-User': 'joe', 'X-Auth-Project-Id': 'proj'}, status=204)
        self.assertEqual('joe:proj', response.headers['X-Auth-Token'])
        self.assertTrue(response.headers['X-Server-Management-Url']
                        .endswith('/v3/volumes/proj'))

    def test_token_user_and_project(self):
        volume = self.create_volume(
            headers={'X-Auth-Token': 'joe:proj'}).json['volume']
        self.assertEqual('joe', volume['user_id'])
        self.assertEqual('proj', volume['os-vol-tenant-attr:tenant_id'])

    def test_plain_token_is_user_and_project(self):
        volume = self.app.post_json(
            '/v3/volumes', {'volume': {'size': 1}},
            headers={'X-Auth-Token': 'solo'}, status=202).json['volume']
        self.assertEqual('solo', volume['user_id'])
        self.assertEqual('solo', volume['os-vol-tenant-attr:tenant_id'])

    def test_admin_by_role_or_by_user(self):
        for headers in (api_fixtures.ADMIN,
                        api_fixtures.caller('p', 'someone', roles='admin')):
            volume = self.create_volume(headers=headers).json['volume']
            # Only admins see the host attribute.
            self.assertIn('os-vol-host-attr:host', volume)
        volume = self.create_volume().json['volume']
        self.assertNotIn('os-vol-host-attr:host', volume)


class RoutingTest(api_fixtures.APITestCase):

    def test_with_and_without_project_id(self):
        volume_id = self.create_volume().json['volume']['id']
        for path in ('/v3/volumes/%s', '/v3/project-a/volumes/%s'):
            self.assertEqual(volume_id, self.app.get(
                path % volume_id, headers=self.owner).json['volume']['id'])

    def test_project_id_mismatch_is_400_like_cinder(self):
        response = self.app.get('/v3/project-b/volumes', headers=self.owner,
                                status=400)
        self.assertEqual('Malformed request url', self.fault(response, 400))

    def test_unknown_path_is_item_not_found(self):
        for path in ('/v3/project-a/nothing', '/v3/nothing/volumes/x/y',
                     '/v4/volumes'):
            response = self.app.get(path, headers=self.owner,
                                    expect_errors=True)
            self.assertIn(response.status_int, (400, 404))
            self.assertIn(list(response.json)[0],
                          ('itemNotFound', 'badRequest'))

    def test_wrong_method_is_405(self):
        response = self.app.put_json('/v3/volumes', {}, headers=self.owner,
                                     status=405)
        self.fault(response, 405)

    def test_links_use_the_request_host(self):
        volume = self.create_volume().json['volume']
        self.assertTrue(re.match(r'^http://localhost(:80)?/v3/project-a/'
                                 r'volumes/%s$' % volume['id'],
                                 volume['links'][0]['href']))
