"""Bad input anywhere gets a 4xx in Placement's error format, never a 500,
and changes nothing."""
import uuid

import webob

from tests.functional import test_placement_base as base

HUGE = 2 ** 63
JSON_BODIES = ['', '{', '[', '"x"', '1', 'null', '[]', '{"a": NaN}',
               '[' * 50000, '{"a": "\\u0000"}', '{"a": "\\udc00"}',
               b'\xff\xfe'.decode('latin-1'),
               # Valid, but nested far deeper than any request.
               '{"uuid": ' + '[' * 600 + '1' + ']' * 600 + '}']


class TestBadInput(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider('rp')
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 10}})
        self.put('/traits/CUSTOM_T', status=201)
        self.before = self.snapshot()

    def snapshot(self):
        rp = self.rp['uuid']
        return (self.get('/resource_providers').json,
                self.get('/resource_providers/%s/inventories' % rp).json,
                self.get('/resource_providers/%s/traits' % rp).json,
                self.get('/resource_providers/%s/aggregates' % rp).json,
                self.get('/resource_classes').json,
                self.get('/traits?name=startswith:CUSTOM_').json)

    def assertClientError(self, response):
        self.assertGreaterEqual(response.status_int, 400, response.text)
        self.assertLess(response.status_int, 500, response.text)
        if response.content_type == 'application/json':
            self.assertIn('errors', response.json)

    def tearDown(self):
        self.assertEqual(self.before, self.snapshot())
        super().tearDown()

    def writes(self):
        rp = '/resource_providers/%s' % self.rp['uuid']
        return [
            ('POST', '/resource_providers'),
            ('PUT', rp),
            ('PUT', rp + '/inventories'),
            ('POST', rp + '/inventories'),
            ('PUT', rp + '/inventories/DISK_GB'),
            ('PUT', rp + '/traits'),
            ('PUT', rp + '/aggregates'),
            ('POST', '/resource_classes'),
            ('PUT', '/resource_classes/CUSTOM_X'),
        ]

    def test_malformed_bodies(self):
        for method, path in self.writes():
            for body in JSON_BODIES:
                response = self.request(method, path, body,
                                        version='1.6' if 'resource_classes/'
                                        in path else None)
                self.assertClientError(response)

    def test_wrong_types_and_huge_numbers(self):
        rp = '/resource_providers/%s' % self.rp['uuid']
        cases = [
            ('POST', '/resource_providers', {'name': ['x']}),
            ('POST', '/resource_providers', {'name': 'x', 'uuid': HUGE}),
            ('PUT', rp, {'name': None}),
            ('PUT', rp + '/inventories', {
                'resource_provider_generation': HUGE, 'inventories': {}}),
            ('PUT', rp + '/inventories', {
                'resource_provider_generation': -HUGE, 'inventories': {}}),
            ('PUT', rp + '/inventories', {
                'resource_provider_generation': 1,
                'inventories': {'DISK_GB': {'total': HUGE}}}),
            ('PUT', rp + '/inventories', {
                'resource_provider_generation': 1,
                'inventories': {'DISK_GB': {'total': 10,
                                            'allocation_ratio': 1e308}}}),
            ('POST', rp + '/inventories', {'resource_class': 'VCPU',
                                           'total': HUGE}),
            ('POST', rp + '/inventories', {'resource_class': 'VCPU',
                                           'total': -1}),
            ('POST', rp + '/inventories', {'resource_class': 7,
                                           'total': 1}),
            ('PUT', rp + '/inventories/DISK_GB', {
                'resource_provider_generation': HUGE, 'total': 1}),
            ('PUT', rp + '/inventories/DISK_GB', {
                'resource_provider_generation': 1, 'total': 1,
                'step_size': HUGE}),
            ('PUT', rp + '/traits', {'traits': ['CUSTOM_T'],
                                     'resource_provider_generation': HUGE}),
            ('PUT', rp + '/traits', {'traits': {'CUSTOM_T': 1},
                                     'resource_provider_generation': 1}),
            ('PUT', rp + '/aggregates', {'aggregates': [HUGE],
                                         'resource_provider_generation': 1}),
            ('PUT', rp + '/aggregates', {'aggregates': [],
                                         'resource_provider_generation':
                                         HUGE}),
            ('POST', '/resource_classes', {'name': HUGE}),
        ]
        for method, path, body in cases:
            self.assertClientError(self.request(method, path, body))

    def test_malformed_path_items(self):
        for item in ('x', 'not-a-uuid', '%00', '%ff', '%C3%A9', '1' * 5000,
                     '{%s}' % uuid.uuid4(), str(uuid.uuid4()).upper()):
            for suffix in ('', '/inventories', '/inventories/DISK_GB',
                           '/usages', '/traits', '/aggregates'):
                response = self.get('/resource_providers/%s%s'
                                    % (item, suffix), status=None)
                self.assertError(response, 404)
            self.assertClientError(self.request(
                'DELETE', '/resource_providers/%s' % item))
        for path in ('/resource_classes/%00', '/resource_classes/lower',
                     '/traits/%00', '/traits/%ff',
                     '/resource_providers/%s/inventories/%%00'
                     % self.rp['uuid']):
            self.assertClientError(self.get(path, status=None))
            self.assertClientError(self.request('DELETE', path))

    def test_malformed_query_strings(self):
        for query in ('name=%00', 'name=%ff', 'uuid=%00', 'in_tree=x',
                      'member_of=%00', 'member_of=in:', 'resources=%00:1',
                      'resources=DISK_GB:%d' % HUGE, 'resources=DISK_GB:1e3',
                      'required=%00', 'required=!', 'required=in:,',
                      'limit=1'):
            response = self.get('/resource_providers?' + query, status=None)
            if response.status_int == 200:
                self.assertEqual([], response.json['resource_providers'],
                                 query)
            else:
                self.assertClientError(response)
        for query in ('name=%00', 'name=%ff', 'associated=%00',
                      'name=in:%00'):
            response = self.get('/traits?' + query, status=None)
            if response.status_int != 200:
                self.assertClientError(response)
        for query in ('project_id=%00', 'project_id=%ff',
                      'project_id=p&user_id=%00',
                      'project_id=p&consumer_type=%00'):
            self.assertClientError(self.get('/usages?' + query, status=None))

    def test_bad_headers(self):
        # Below WebTest, which would refuse to send this.
        request = webob.Request.blank('/resource_providers', method='POST',
                                      headers={'X-Auth-Token': 'admin',
                                               'Accept': 'application/json',
                                               'Content-Type': 'text/plain'})
        request.environ['CONTENT_LENGTH'] = 'x'
        response = request.get_response(self.app.app)
        self.assertEqual(400, response.status_int)
        self.assertIn('content-length header must be an integer',
                      response.json['errors'][0]['detail'])
        self.assertClientError(self.get('/resource_providers', status=None,
                                        headers={'Accept': 'text/plain'}))
        self.assertClientError(self.get('/resource_providers', status=None,
                                        version='1.99999999999999999999'))
