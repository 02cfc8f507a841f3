"""/v3/clusters (3.7+): clusters of volume services as their members'
services rows make them, shown and disabled the way Cinder's clients call
them."""
import datetime

from oslo_utils import timeutils

from objects import service as service_obj
from tests.functional import api_fixtures
from tests.functional import worker_fixtures

VOLUME = service_obj.VOLUME_BINARY


def _admin(version='3.59'):
    return api_fixtures.caller('admin', 'admin', version)


class ClustersTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        long_ago = timeutils.utcnow() - datetime.timedelta(hours=1)
        for host, cluster, seen in (('h1@file', 'c1@file', None),
                                    ('h2@file', 'c1@file', long_ago),
                                    ('h3@file', 'c2@file', long_ago),
                                    ('h4@file', None, None)):
            service = service_obj.Service.register(
                self.context, host, VOLUME, cluster_name=cluster)
            self.assertTrue(service.heartbeat(now=seen))

    def get(self, path, version='3.59', status=200):
        return self.app.get('/v3/clusters' + path, headers=_admin(version),
                            status=status)

    def put(self, action, body, headers=None, status=200):
        return self.app.put_json('/v3/clusters/' + action, body,
                                 headers=headers or _admin(), status=status)

    def test_list_and_detail(self):
        self.assertEqual({'clusters': [
            {'name': 'c1@file', 'binary': VOLUME, 'state': 'up',
             'status': 'enabled', 'replication_status': 'not-capable'},
            {'name': 'c2@file', 'binary': VOLUME, 'state': 'down',
             'status': 'enabled', 'replication_status': 'not-capable'}]},
            self.get('').json)
        self.assertNotIn('replication_status',
                         self.get('', version='3.25').json['clusters'][0])
        [first, second] = self.get('/detail').json['clusters']
        self.assertEqual((2, 1, 1, 1),
                         (first['num_hosts'], first['num_down_hosts'],
                          second['num_hosts'], second['num_down_hosts']))
        self.assertEqual(
            {'name', 'binary', 'state', 'status', 'num_hosts',
             'num_down_hosts', 'last_heartbeat', 'created_at', 'updated_at',
             'disabled_reason', 'replication_status', 'frozen',
             'active_backend_id'}, set(first))
        self.assertGreater(first['last_heartbeat'],
                           second['last_heartbeat'])

    def test_filters(self):
        def names(query, version='3.59'):
            return [c['name'] for c in self.get(
                '/detail' + query, version).json['clusters']]
        self.assertEqual(['c1@file'], names('?is_up=true'))
        self.assertEqual(['c2@file'], names('?num_hosts=1'))
        self.assertEqual(['c1@file', 'c2@file'],
                         names('?binary=cinder-volume&disabled=false'))
        self.assertEqual([], names('?name=c3@file'))
        self.assertEqual([], names('?frozen=true'))
        response = self.get('?frozen=true', version='3.25', status=400)
        self.assertEqual('Invalid input received: Invalid filter keys: '
                         'frozen', self.fault(response, 400))
        response = self.get('?is_up=maybe', status=400)
        self.assertEqual("Value 'maybe' for 'is_up' is not a boolean.",
                         self.fault(response, 400))
        response = self.get('?num_hosts=two', status=400)
        self.assertEqual('Invalid input received: num_hosts=two',
                         self.fault(response, 400))

    def test_show(self):
        shown = self.get('/c1@file?binary=cinder-volume').json['cluster']
        self.assertEqual(('c1@file', 2), (shown['name'], shown['num_hosts']))
        self.assertEqual(shown, self.get('/c1@file').json['cluster'])
        response = self.get('/c3@file', status=404)
        self.assertEqual('Cluster c3@file could not be found.',
                         self.fault(response, 404))
        self.get('/c1@file?binary=volapi-other', status=404)

    def test_disable_and_enable_every_member(self):
        self.assertEqual({'cluster': {
            'name': 'c1@file', 'binary': VOLUME, 'state': 'up',
            'status': 'disabled', 'replication_status': 'not-capable',
            'disabled_reason': 'upgrade'}},
            self.put('disable', {'name': 'c1@file',
                                 'binary': 'cinder-volume',
                                 'disabled_reason': ' upgrade '}).json)
        members = {s['host']: (s['status'], s['disabled_reason'])
                   for s in self.app.get('/v3/os-services',
                                         headers=_admin()).json['services']}
        self.assertEqual({'h1@file': ('disabled', 'upgrade'),
                          'h2@file': ('disabled', 'upgrade'),
                          'h3@file': ('enabled', None),
                          'h4@file': ('enabled', None)}, members)
        self.assertEqual('upgrade', self.get('/c1@file').json['cluster'][
            'disabled_reason'])
        self.assertEqual('enabled', self.put(
            'enable', {'name': 'c1@file'}).json['cluster']['status'])
        self.assertEqual(['enabled', 'enabled'],
                         [c['status'] for c in self.get('').json['clusters']])

    def test_bad_requests(self):
        response = self.put('disable', {'name': 'c9@file'}, status=404)
        self.assertEqual('Cluster c9@file could not be found.',
                         self.fault(response, 404))
        self.fault(self.put('disable', {}, status=400), 400)
        self.fault(self.put('enable', {'name': 'c1@file', 'reason': 'x'},
                            status=400), 400)
        self.assertEqual('enabled', self.get('/c1@file').json['cluster'][
            'status'])

    def test_from_3_7_and_administrators_only(self):
        response = self.get('', version='3.6', status=404)
        self.assertIn('3.6', self.fault(response, 404))
        response = self.app.get('/v3/clusters',
                                headers=api_fixtures.caller(version='3.59'),
                                status=403)
        self.assertIn('clusters:get_all', self.fault(response, 403))
        response = self.put('disable', {'name': 'c1@file'},
                            headers=api_fixtures.caller(version='3.59'),
                            status=403)
        self.assertIn('clusters:update', self.fault(response, 403))

    def test_a_disabled_cluster_gets_no_new_volume(self):
        # c1's members report their pools under the cluster's name.
        self.config.set('volume', scheduler_cache_seconds=0)
        self.useFixture(worker_fixtures.Pools(self, host='c1'))
        hosts = set()
        self.put('disable', {'name': 'c1@file'})
        for _ in range(3):
            volume = self.create_volume(size=1).json['volume']
            hosts.add(self.app.get('/v3/volumes/%s' % volume['id'],
                                   headers=_admin()).json['volume'][
                'os-vol-host-attr:host'])
        self.assertEqual({'worker-1@file#file'}, hosts)
        # Only c1@file's pool is left once worker-1 has a disabled service.
        service_obj.Service.register(self.context, 'worker-1@file', VOLUME)
        self.app.put_json('/v3/os-services/disable', {
            'host': 'worker-1@file', 'binary': VOLUME}, headers=_admin())
        self.put('enable', {'name': 'c1@file'})
        volume = self.create_volume(size=1).json['volume']
        self.assertEqual('c1@file#file', self.app.get(
            '/v3/volumes/%s' % volume['id'], headers=_admin()).json['volume'][
            'os-vol-host-attr:host'])
