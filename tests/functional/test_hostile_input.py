"""Input a hostile client sends, each case found once answering a 500 or
saying too much: numbers int() refuses, lone surrogates, huge values
echoed back (issue 14). Each answer is a 4xx in the API's own format."""
import json

from tests.functional import api_fixtures
from tests.functional import test_placement_base

SURROGATE = '\ud800'
# Strings str.isdigit() accepts that int() refuses or cannot convert.
NOT_INTEGERS = ['\u00b2', '5' * 5000, '1_0', ' 1', '\u0661']


def raw_json(value):
    """JSON text of ``value``, lone surrogates included (as \\u escapes)."""
    return json.dumps(value).encode('ascii')


class VolumeAPIHostileInputTest(api_fixtures.APITestCase):

    def post_raw(self, path, value, headers=None):
        return self.app.post(path, raw_json(value),
                             headers=dict(headers or self.owner, **{
                                 'Content-Type': 'application/json'}),
                             expect_errors=True)

    def put_raw(self, path, value, headers=None):
        return self.app.put(path, raw_json(value),
                            headers=dict(headers or self.owner, **{
                                'Content-Type': 'application/json'}),
                            expect_errors=True)

    def test_sizes_int_refuses(self):
        volume_id = self.create_volume().json['volume']['id']
        self.make_available(volume_id)
        for size in NOT_INTEGERS:
            self.fault(self.post_raw('/v3/volumes',
                                     {'volume': {'size': size}}), 400)
            self.fault(self.post_raw(
                '/v3/volumes/%s/action' % volume_id,
                {'os-extend': {'new_size': size}}), 400)
            self.fault(self.post_raw(
                '/v3/workers/cleanup', {'service_id': size},
                headers=api_fixtures.caller('admin', 'admin', '3.24')), 400)
        self.fault(self.post_raw(
            '/v3/workers/cleanup', {'service_id': int('9' * 4000)},
            headers=api_fixtures.caller('admin', 'admin', '3.24')), 400)

    def test_lone_surrogates(self):
        volume_id = self.create_volume().json['volume']['id']
        self.make_available(volume_id)
        admin = api_fixtures.ADMIN
        cases = [
            ('POST', '/v3/volumes', {'volume': {'size': 1,
                                                'name': SURROGATE}}, None),
            ('POST', '/v3/volumes', {'volume': {
                'size': 1, 'metadata': {'k': SURROGATE}}}, None),
            ('POST', '/v3/volumes', {'volume': {
                'size': 1, 'metadata': {SURROGATE: 'v'}}}, None),
            ('PUT', '/v3/volumes/%s' % volume_id,
             {'volume': {'description': 'a' + SURROGATE}}, None),
            ('POST', '/v3/volumes/%s/action' % volume_id,
             {'os-retype': {'new_type': SURROGATE}}, None),
            ('POST', '/v3/snapshots', {'snapshot': {
                'volume_id': volume_id, 'name': SURROGATE}}, None),
            ('POST', '/v3/types', {'volume_type': {'name': SURROGATE}},
             admin),
            ('POST', '/v3/attachments', {'attachment': {
                'volume_uuid': volume_id,
                'instance_uuid': '7c2d1f5c-8f6a-4c39-8c39-1f5e1c0a3b11',
                'connector': {'host': SURROGATE}}},
             api_fixtures.caller('project-a', version='3.54')),
        ]
        for method, path, body, headers in cases:
            response = (self.post_raw if method == 'POST' else self.put_raw)(
                path, body, headers)
            message = self.fault(response, 400)
            self.assertIn('not valid Unicode', message, (path, body))

    def test_huge_value_is_not_echoed(self):
        name = 'x' * 1000000
        response = self.post_raw('/v3/volumes',
                                 {'volume': {'size': 1, 'name': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)
        response = self.post_raw('/v3/volumes', {'volume': {'size': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)


class PlacementHostileInputTest(test_placement_base.PlacementTestCase):

    def test_huge_value_is_not_echoed(self):
        response = self.post('/resource_providers',
                             {'name': 'x' * 1000000})
        self.assertError(response, 400)
        self.assertLess(len(response.body), 3000)


class VolumeAPIRequestShapeTest(api_fixtures.APITestCase):

    def test_repeated_query_parameter_is_400(self):
        admin = api_fixtures.caller('admin', 'admin', '3.39')
        for path in ('/v3/limits?project_id=a&project_id=b',
                     '/v3/volumes?limit=1&limit=2',
                     '/v3/volumes/detail?status=a&status=b'):
            response = self.app.get(path, headers=admin, expect_errors=True)
            self.assertIn('given more than once', self.fault(response, 400))

    def test_unserved_resources_are_404(self):
        for path in ('/v3/os-services', '/v3/resource_filters',
                     '/v3/volumez', '/v3/os-quota-setz/project-a',
                     '/v3/project-a/os-services'):
            response = self.app.get(path, headers=self.owner,
                                    expect_errors=True)
            self.assertEqual('The resource could not be found.',
                             self.fault(response, 404), path)
        # Another project's id before a resource volapi serves stays
        # Cinder's 400.
        response = self.app.get('/v3/project-b/volumes', headers=self.owner,
                                expect_errors=True)
        self.assertEqual('Malformed request url', self.fault(response, 400))


class NoAuthTokenTest(api_fixtures.APITestCase):

    BAD_TOKENS = [':', 'a:b:c', ':project', 'user:', '\xff\xfe:\x00',
                  'a b', 'u:p\t', 'x' * 256, 'user:' + 'p' * 256]

    def test_bad_tokens_are_401(self):
        for token in self.BAD_TOKENS:
            response = self.app.post_json(
                '/v3/volumes', {'volume': {'size': 1}},
                headers={'X-Auth-Token': token}, expect_errors=True)
            self.assertEqual(401, response.status_int, token)
            self.assertEqual(401, response.json['unauthorized']['code'])
        self.assertEqual(
            [], self.app.get('/v3/volumes/detail?all_tenants=1',
                             headers=api_fixtures.ADMIN).json['volumes'])

    def test_bad_handshake_identity_is_401(self):
        response = self.app.get('/v3/volumes', headers={
            'X-Auth-User': 'joe:x', 'X-Auth-Project-Id': 'p'},
            expect_errors=True)
        self.assertEqual(401, response.status_int)

    def test_good_tokens(self):
        for token, user, project in (('joe:proj', 'joe', 'proj'),
                                     ('solo', 'solo', 'solo'),
                                     ('a.b@c-d_e:0f9e', 'a.b@c-d_e', '0f9e')):
            volume = self.create_volume(
                headers={'X-Auth-Token': token}).json['volume']
            self.assertEqual(user, volume['user_id'])
            self.assertEqual(project, volume['os-vol-tenant-attr:tenant_id'])


class PlacementNoAuthTokenTest(test_placement_base.PlacementTestCase):

    def test_bad_tokens_are_401(self):
        for token in NoAuthTokenTest.BAD_TOKENS:
            self.get('/resource_providers', status=401, token=token)
        self.get('/resource_providers', status=200, token='admin')


class ConnectorValuesTest(api_fixtures.APITestCase):

    BAD_CONNECTORS = [{'host': {'a': 1}}, {'mountpoint': [1]},
                      {'host': 'h', 'multipath': 2 ** 70},
                      {'host': 'h' * 256}, {'mode': 'rx'},
                      {'initiator': {'nested': {'deeper': 'x'}}},
                      {'wwpns': ['a'] * 65}, {'': 'empty key'},
                      {'k%d' % i: 'v' * 250 for i in range(100)},
                      {'ip': 1.5}]

    def setUp(self):
        super().setUp()
        self.headers = api_fixtures.caller(self.project, version='3.54')
        self.volume_id = self.create_volume().json['volume']['id']
        self.make_available(self.volume_id)

    def test_create_and_update_refuse_what_columns_cannot_take(self):
        reserved = self.app.post_json('/v3/attachments', {'attachment': {
            'volume_uuid': self.volume_id,
            'instance_uuid': '7c2d1f5c-8f6a-4c39-8c39-1f5e1c0a3b11'}},
            headers=self.headers).json['attachment']
        for connector in self.BAD_CONNECTORS:
            response = self.app.post_json('/v3/attachments', {'attachment': {
                'volume_uuid': self.volume_id,
                'instance_uuid': '0b8b7f5c-8f6a-4c39-8c39-1f5e1c0a3b11',
                'connector': connector}}, headers=self.headers,
                expect_errors=True)
            self.fault(response, 400)
            response = self.app.put_json(
                '/v3/attachments/%s' % reserved['id'],
                {'attachment': {'connector': connector}},
                headers=self.headers, expect_errors=True)
            self.fault(response, 400)
        attachments = self.app.get('/v3/attachments/detail',
                                   headers=self.headers).json['attachments']
        self.assertEqual([(reserved['id'], 'reserved', None)],
                         [(a['id'], a['status'], a['connection_info'])
                          for a in attachments])
