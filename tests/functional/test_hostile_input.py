"""Input a hostile client sends, each case found once answering a 500 or
saying too much: numbers int() refuses, lone surrogates, huge values
echoed back (issue 14). Each answer is a 4xx in the API's own format."""
import json
import urllib.parse
import uuid

import webob

from tests import base
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import test_placement_base
from tests.functional import worker_fixtures
from volapi import wsgi

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
        # Within the body size limit ([oslo_middleware]
        # max_request_body_size, 112 KiB); beyond it the answer is a 413.
        name = 'x' * 100000
        response = self.post_raw('/v3/volumes',
                                 {'volume': {'size': 1, 'name': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)
        response = self.post_raw('/v3/volumes', {'volume': {'size': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)

    def test_unknown_action_and_sort_key_are_excerpted(self):
        name = 'y' * 50000
        volume = self.post_raw('/v3/volumes', {'volume': {'size': 1}})
        volume_id = volume.json['volume']['id']
        response = self.post_raw('/v3/volumes/%s/action' % volume_id,
                                 {name: None})
        self.assertIn('There is no such action', self.fault(response, 400))
        self.assertLess(len(response.body), 2000)
        for path in ('/v3/volumes', '/v3/snapshots', '/v3/attachments',
                     '/v3/types'):
            response = self.app.get(
                '%s?sort=%s' % (path, name[:5000]), expect_errors=True,
                headers=api_fixtures.caller('project-a', 'user-a', '3.59'))
            self.assertIn('Invalid sort key', self.fault(response, 400),
                          path)
            self.assertIn('(5000 characters)', self.fault(response, 400))
            self.assertLess(len(response.body), 2000, path)

    def test_like_filter_longer_than_its_column(self):
        # SQLite refuses a LIKE pattern of more than 50,000 bytes (a 500,
        # found by the fuzzer on SQLite, seed 293760303).
        name = 'n' * 255
        volume_id = self.create_volume(name=name).json['volume']['id']
        headers = api_fixtures.caller('project-a', 'user-a', '3.59')
        for value, found in ((name, [volume_id]), (name + 'n', []),
                             ('-' * 100000, [])):
            response = self.app.get('/v3/volumes?name~=' + value,
                                    headers=headers)
            self.assertEqual(found, [v['id'] for v in
                                     response.json['volumes']])

    def test_url_that_is_not_utf8(self):
        volume_id = self.create_volume().json['volume']['id']
        for path, what in (('/v3/volumes?name=%FF', 'The query string'),
                           ('/v3/volumes?%ED%A0%80=1', 'The query string'),
                           ('/v3/volumes/%FF', 'The URL path'),
                           ('/v3/volumes/%s/metadata/%%C0%%80' % volume_id,
                            'The URL path')):
            response = self.app.get(path, headers=self.owner,
                                    expect_errors=True)
            self.assertEqual('%s is not valid UTF-8.' % what,
                             self.fault(response, 400), path)

    def test_charset_of_the_body_is_not_used(self):
        # The body is JSON bytes whatever charset the Content-Type names
        # (as in Cinder): one Python has no text codec for was a 500.
        for charset in ('nonexistent', 'zlib', 'rot13', 'utf-16'):
            response = self.app.post(
                '/v3/volumes', b'{"volume": {"size": 1}}',
                headers=dict(self.owner, **{
                    'Content-Type': 'application/json; charset=' + charset}),
                expect_errors=True)
            self.assertEqual(202, response.status_int, charset)
        response = self.app.post(
            '/v3/volumes', b'{"volume": {"size": 1, "name": "\xff"}}',
            headers=dict(self.owner, **{'Content-Type': 'application/json'}),
            expect_errors=True)
        self.assertIn('Malformed message body', self.fault(response, 400))

    def test_literal_filters(self):
        # Cinder's metadata and extra_specs filters are Python literals:
        # ast.literal_eval raises TypeError or MemoryError on some, and
        # escapes bring strings no database compares.
        admin = api_fixtures.caller('admin', 'admin', '3.59')
        cases = [
            ('{[]: 1}', 'must be a dict'), ('-' * 100000 + '1', 'must be'),
            ('{"a": "\\x00"}', 'NUL'), ('{"\\ud800": "a"}', 'surrogate'),
            ('{"a": 0x%s}' % ('f' * 5000), 'Invalid input received')]
        for text, problem in cases:
            query = urllib.parse.quote(text)
            for path in ('/v3/volumes?metadata=' + query,
                         '/v3/types?extra_specs=' + query):
                response = self.app.get(path, headers=admin,
                                        expect_errors=True)
                message = self.fault(response, 400)
                self.assertIn(problem, message, path[:60])
                self.assertLess(len(message), 200, path[:60])


class ContentLengthTest(base.DatabaseTestCase):
    """A Content-Length int() reads but that is no number of bytes: webob
    read a body that was not there (a 500 in both APIs)."""

    def test_both_apis(self):
        self.useFixture(worker_fixtures.PrivateFakeTransport(self))
        application = wsgi.init_application(self.config.conf)
        for path, token, read in (
                ('/v3/volumes', 'user-a:project-a',
                 lambda body: body['badRequest']['message']),
                ('/placement/resource_providers', 'admin',
                 lambda body: body['errors'][0]['detail'])):
            for length in (' 1', '+1', '1 ', '\u0661', '0x1'):
                request = webob.Request.blank(path, method='POST', headers={
                    'X-Auth-Token': token, 'Accept': 'application/json',
                    'Content-Type': 'application/json'})
                request.environ['CONTENT_LENGTH'] = length
                response = request.get_response(application)
                self.assertEqual(400, response.status_int, (path, length))
                self.assertIn('content-length header must be an integer',
                              read(response.json))


class PlacementHostileInputTest(test_placement_base.PlacementTestCase):

    def test_huge_value_is_not_echoed(self):
        response = self.post('/resource_providers',
                             {'name': 'x' * 1000000})
        self.assertError(response, 400)
        self.assertLess(len(response.body), 3000)

    def test_allocation_ratio_bounded(self):
        rp = self.create_provider('ratio')['uuid']
        cases = [(2 ** 63 - 1, 200), (2 ** 64, 200), (10 ** 40, 400),
                 (-1e308, 400), (1e308, 400), (-2 ** 63, 400), (0, 400),
                 (-1, 400)]
        for ratio, status in cases:
            generation = self.get('/resource_providers/%s' % rp
                                  ).json['generation']
            response = self.put(
                '/resource_providers/%s/inventories' % rp,
                {'resource_provider_generation': generation,
                 'inventories': {'DISK_GB': {
                     'total': 10, 'allocation_ratio': ratio}}})
            self.assertEqual(status, response.status_int, (ratio, response))
            if status == 200:
                stored = self.get(
                    '/resource_providers/%s/inventories/DISK_GB' % rp
                ).json['allocation_ratio']
                # MySQL returns its FLOAT to 6 digits.
                self.assertLess(abs(stored - ratio) / ratio, 1e-5)
                self.delete('/resource_providers/%s/inventories' % rp)
                continue
            self.assertError(response, 400)
            response = self.post(
                '/resource_providers/%s/inventories' % rp,
                {'resource_class': 'DISK_GB', 'total': 10,
                 'allocation_ratio': ratio}, version='1.0')
            self.assertError(response, 400)
        self.assertEqual({}, self.get('/resource_providers/%s/inventories'
                                      % rp).json['inventories'])

    def test_resource_amounts_in_queries(self):
        rp = self.create_provider('amounts')['uuid']
        self.set_inventory(rp, {'DISK_GB': {'total': 10}})
        # Amounts no inventory has match nothing (they were a 500 in
        # allocation candidates, beyond 64 bits).
        for amount in ('9223372036854775808', '9' * 30, '2147483648', '11'):
            self.assertEqual([], self.get(
                '/allocation_candidates?resources=DISK_GB:%s' % amount
            ).json['allocation_requests'])
            self.assertEqual([], self.get(
                '/resource_providers?resources=DISK_GB:%s' % amount
            ).json['resource_providers'])
        self.assertEqual(1, len(self.get(
            '/allocation_candidates?resources=DISK_GB:1'
        ).json['allocation_requests']))
        for amount in ('\u0661', '1e3', ' 1', '-' + '9' * 30):
            for path in ('/allocation_candidates', '/resource_providers'):
                self.assertError(self.get(
                    '%s?resources=DISK_GB:%s' % (
                        path, urllib.parse.quote(amount)), status=None), 400)

    def test_repeated_candidate_limit(self):
        # The first limit counts (Placement's rule) but the schema checks
        # the last: int() of a first that was no limit was a 500, and a
        # negative one a 500 once it sampled the candidates.
        rp = self.create_provider('limits')['uuid']
        self.set_inventory(rp, {'DISK_GB': {'total': 10}})
        path = '/allocation_candidates?resources=DISK_GB:1&'
        for first in ('abc', '-1', '0', '1.5'):
            self.assertError(self.get(path + 'limit=%s&limit=1' % first,
                                      status=None), 400)
        for first, found in (('9' * 5000, 1), ('9' * 25, 1), ('1', 1)):
            self.assertEqual(found, len(self.get(
                path + 'limit=%s&limit=5' % first
            ).json['allocation_requests']))


class MarkerScopeTest(api_fixtures.APITestCase):
    """A marker is looked up within the caller's project: another
    project's id answers exactly as an unknown id does."""

    def test_another_projects_id_is_an_unknown_marker(self):
        mine = rows.volume(self.context, project_id=self.project)
        theirs = rows.volume(self.context, project_id='project-b')
        rows.snapshot(self.context, mine)
        their_snapshot = rows.snapshot(self.context, theirs)
        rows.attachment(self.context, mine)
        their_attachment = rows.attachment(self.context, theirs)
        unknown = str(uuid.uuid4())
        headers = api_fixtures.caller(self.project, version='3.27')
        for path, their_id in (('/v3/volumes', theirs.id),
                               ('/v3/volumes/detail', theirs.id),
                               ('/v3/snapshots', their_snapshot.id),
                               ('/v3/snapshots/detail', their_snapshot.id),
                               ('/v3/attachments', their_attachment.id),
                               ('/v3/attachments/detail',
                                their_attachment.id)):
            answers = []
            for marker in (their_id, unknown):
                response = self.app.get('%s?marker=%s' % (path, marker),
                                        headers=headers, expect_errors=True)
                answers.append((response.status_int,
                                response.text.replace(marker, '<id>')))
            self.assertEqual(answers[1], answers[0], path)
            self.assertEqual(404, answers[0][0], path)
            # The owner pages past it; so does an administrator listing
            # every project.
            self.app.get('%s?marker=%s' % (path, their_id),
                         headers=api_fixtures.caller('project-b',
                                                     version='3.27'))
            self.app.get('%s?marker=%s&all_tenants=1' % (path, their_id),
                         headers=api_fixtures.caller('admin', 'admin',
                                                     '3.27'))


class VolumeAPIRequestShapeTest(api_fixtures.APITestCase):

    def test_repeated_query_parameter_is_400(self):
        admin = api_fixtures.caller('admin', 'admin', '3.39')
        for path in ('/v3/limits?project_id=a&project_id=b',
                     '/v3/volumes?limit=1&limit=2',
                     '/v3/volumes/detail?status=a&status=b'):
            response = self.app.get(path, headers=admin, expect_errors=True)
            self.assertIn('given more than once', self.fault(response, 400))

    def test_unserved_resources_are_404(self):
        for path in ('/v3/os-hosts', '/v3/consistencygroups',
                     '/v3/volumez', '/v3/cgsnapshots/x',
                     '/v3/project-a/os-hosts/h',
                     '/v3/project-a/cgsnapshots'):
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
            # In placement's error format, as every other 4xx.
            self.assertError(self.get('/resource_providers', status=None,
                                      token=token), 401)
        # No token: webob's own body, as Placement's noauth2 answers.
        response = self.get('/resource_providers', status=401, token=None)
        self.assertEqual('401 Unauthorized', response.json['code'])
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
