"""/v3/os-services and /v3/os-availability-zone: the volume services as
their services rows and heartbeats say, in Cinder's format, and disabling
them."""
import datetime

from oslo_utils import timeutils

from objects import service as service_obj
from tests.functional import api_fixtures
from tests.functional import worker_fixtures

VOLUME = service_obj.VOLUME_BINARY


def _admin(version):
    return api_fixtures.caller('admin', 'admin', version)


class ServicesTest(api_fixtures.APITestCase):

    def register(self, host, cluster_name=None, binary=VOLUME, seen=None,
                 disabled=False):
        service = service_obj.Service.register(
            self.context, host, binary, cluster_name=cluster_name)
        self.assertTrue(service.heartbeat(now=seen))
        if disabled:
            self.assertTrue(service.conditional_update(
                {'disabled': True}, expected_values={'disabled': False}))
        return service

    def services(self, query='', version='3.59', status=200):
        return self.app.get('/v3/os-services' + query,
                            headers=_admin(version), status=status)

    def test_up_down_enabled_disabled(self):
        self.register('h1@file', cluster_name='c@file')
        long_ago = timeutils.utcnow() - datetime.timedelta(hours=1)
        self.register('h2@file', seen=long_ago, disabled=True)
        listed = {s['host']: s for s in self.services().json['services']}
        up = listed['h1@file']
        self.assertIsNotNone(up.pop('updated_at'))
        self.assertEqual({'binary': VOLUME, 'host': 'h1@file',
                          'zone': 'nova', 'status': 'enabled', 'state': 'up',
                          'disabled_reason': None,
                          'replication_status': 'not-capable',
                          'active_backend_id': None, 'frozen': False,
                          'backend_state': 'up', 'cluster': 'c@file'}, up)
        down = listed['h2@file']
        self.assertEqual(('disabled', 'down', 'down', None),
                         (down['status'], down['state'],
                          down['backend_state'], down['cluster']))
        self.assertTrue(down['updated_at'].startswith(
            long_ago.strftime('%Y-%m-%dT%H:%M')), down['updated_at'])

    def test_fields_by_microversion(self):
        self.register('h1@file', cluster_name='c@file')
        self.register('h1', binary='volapi-other')
        [before] = [s for s in self.services(version='3.6').json['services']
                    if s['binary'] == VOLUME]
        self.assertNotIn('cluster', before)
        self.assertNotIn('backend_state', before)
        on_3_48 = self.services(version='3.48').json['services']
        self.assertEqual(['c@file', None], [s['cluster'] for s in on_3_48])
        self.assertFalse([s for s in on_3_48 if 'backend_state' in s])
        other = [s for s in self.services().json['services']
                 if s['binary'] == 'volapi-other'][0]
        # Replication and backend state are a volume service's only.
        self.assertNotIn('backend_state', other)
        self.assertNotIn('replication_status', other)

    def test_host_and_binary_filters(self):
        self.register('h1@file')
        self.register('h2@file')
        self.register('h1@file', binary='volapi-other')
        self.assertEqual(
            [('h1@file', VOLUME), ('h1@file', 'volapi-other')],
            [(s['host'], s['binary']) for s in self.services(
                '?host=h1@file').json['services']])
        self.assertEqual(['h1@file', 'h2@file'], [
            s['host'] for s in self.services(
                '?binary=%s' % VOLUME).json['services']])
        self.assertEqual([], self.services('?host=nowhere').json['services'])

    def test_administrators_only(self):
        response = self.app.get('/v3/os-services', headers=self.owner,
                                status=403)
        self.assertIn('volume_extension:services:index',
                      self.fault(response, 403))


class AvailabilityZonesTest(api_fixtures.APITestCase):

    def zones(self):
        return self.app.get('/v3/os-availability-zone',
                            headers=self.owner).json

    def test_no_volume_service_no_zone(self):
        self.assertEqual({'availabilityZoneInfo': []}, self.zones())

    def test_available_unless_every_service_is_disabled(self):
        first = service_obj.Service.register(self.context, 'h1@file', VOLUME)
        second = service_obj.Service.register(self.context, 'h2@file',
                                              VOLUME)
        available = {'availabilityZoneInfo': [
            {'zoneName': 'nova', 'zoneState': {'available': True}}]}
        self.assertEqual(available, self.zones())
        self.assertTrue(first.conditional_update({'disabled': True}))
        self.assertEqual(available, self.zones())
        self.assertTrue(second.conditional_update({'disabled': True}))
        self.assertEqual({'availabilityZoneInfo': [
            {'zoneName': 'nova', 'zoneState': {'available': False}}]},
            self.zones())


class DisableServicesTest(api_fixtures.APITestCase):
    """PUT os-services/disable, disable-log-reason and enable; new volumes
    avoid the pools of a server whose services are all disabled."""

    def setUp(self):
        super().setUp()
        # Each create reads the pools: a disable counts at once.
        self.config.set('volume', scheduler_cache_seconds=0)
        self.second = self.useFixture(worker_fixtures.Pools(
            self, host='worker-2'))
        for host in ('worker-1@file', 'worker-2@file'):
            service_obj.Service.register(self.context, host, VOLUME)

    def put(self, action, body, headers=None, status=200):
        return self.app.put_json('/v3/os-services/' + action, body,
                                 headers=headers or _admin('3.59'),
                                 status=status)

    def listed(self):
        return {s['host']: (s['status'], s['disabled_reason'])
                for s in self.app.get('/v3/os-services',
                                      headers=_admin('3.59'))
                .json['services']}

    def host_of_new_volume(self):
        volume = self.create_volume().json['volume']
        return self.app.get('/v3/volumes/%s' % volume['id'],
                            headers=_admin('3.59')).json['volume']

    def test_disable_with_a_reason_then_enable(self):
        self.assertEqual(
            {'host': 'worker-1@file', 'service': '', 'binary': VOLUME,
             'status': 'disabled', 'disabled': True,
             'disabled_reason': 'new disks'},
            self.put('disable-log-reason', {
                'host': 'worker-1@file', 'binary': VOLUME,
                'disabled_reason': 'new disks'}).json)
        self.assertEqual({'worker-1@file': ('disabled', 'new disks'),
                          'worker-2@file': ('enabled', None)},
                         self.listed())
        self.assertEqual(
            {'host': 'worker-1@file', 'service': VOLUME, 'binary': '',
             'status': 'enabled', 'disabled': False},
            self.put('enable', {'host': 'worker-1@file',
                                'service': VOLUME}).json)
        self.assertEqual(('enabled', None), self.listed()['worker-1@file'])
        self.put('disable', {'host': 'worker-1@file', 'binary': VOLUME})
        self.assertEqual(('disabled', None), self.listed()['worker-1@file'])

    def test_new_volumes_avoid_disabled_servers(self):
        self.put('disable', {'host': 'worker-1@file', 'binary': VOLUME})
        for _ in range(3):
            volume = self.host_of_new_volume()
            self.assertEqual('worker-2@file#file',
                             volume['os-vol-host-attr:host'])
        self.put('disable', {'host': 'worker-2@file', 'binary': VOLUME})
        self.assertEqual('error', self.host_of_new_volume()['status'])
        self.put('enable', {'host': 'worker-1@file', 'binary': VOLUME})
        self.assertEqual('worker-1@file#file',
                         self.host_of_new_volume()['os-vol-host-attr:host'])

    def test_new_volumes_avoid_servers_that_are_down(self):
        long_ago = timeutils.utcnow() - datetime.timedelta(hours=1)
        [first] = service_obj.Service.get_all(self.context,
                                              host='worker-1@file')
        self.assertTrue(first.heartbeat(now=long_ago))
        self.assertEqual('worker-2@file#file',
                         self.host_of_new_volume()['os-vol-host-attr:host'])
        # A second member that is up serves the first one's server.
        helper = service_obj.Service.register(
            self.context, 'worker-1b@file', VOLUME,
            cluster_name='worker-1@file')
        self.assertTrue(helper.heartbeat())
        hosts = {self.host_of_new_volume()['os-vol-host-attr:host']
                 for _ in range(4)}
        self.assertIn('worker-1@file#file', hosts)

    def test_bad_requests(self):
        for action, body, message in (
                ('disable', {'binary': VOLUME},
                 'Invalid input received: Host field is missing.'),
                ('disable', {'host': 'worker-1@file'}, None),
                ('enable', {'host': 'worker-1@file', 'binary': VOLUME,
                            'zone': 'x'}, None),
                ('disable-log-reason', {'host': 'worker-1@file',
                                        'binary': VOLUME,
                                        'disabled_reason': '   '}, None),
                ('disable-log-reason', {'host': 'worker-1@file',
                                        'binary': VOLUME,
                                        'disabled_reason': 'x' * 256}, None),
                ('disable', ['worker-1@file'], None)):
            response = self.put(action, body, status=400)
            text = self.fault(response, 400)
            if message is not None:
                self.assertEqual(message, text)
        self.assertEqual({'worker-1@file': ('enabled', None),
                          'worker-2@file': ('enabled', None)},
                         self.listed())
        response = self.put('disable', {'host': 'nowhere',
                                        'binary': VOLUME}, status=404)
        self.assertEqual('Service %s could not be found on host nowhere.'
                         % VOLUME, self.fault(response, 404))

    def test_administrators_only(self):
        response = self.put('disable', {'host': 'worker-1@file',
                                        'binary': VOLUME},
                            headers=self.owner, status=403)
        self.assertIn('volume_extension:services:update',
                      self.fault(response, 403))
        self.assertEqual(('enabled', None), self.listed()['worker-1@file'])


class ExtensionsTest(api_fixtures.APITestCase):

    def test_list_and_show(self):
        listed = self.app.get('/v3/extensions',
                              headers=self.owner).json['extensions']
        aliases = [extension['alias'] for extension in listed]
        for served in ('os-services', 'os-availability-zone',
                       'scheduler-stats', 'os-volume-type-access',
                       'os-quota-sets', 'os-volume-transfer'):
            self.assertIn(served, aliases)
        self.assertEqual(
            {'extension': {'name': 'Services', 'alias': 'os-services',
                           'description': 'Services support.',
                           'updated': '2012-10-28T00:00:00-00:00',
                           'links': []}},
            self.app.get('/v3/extensions/os-services',
                         headers=self.owner).json)
        response = self.app.get('/v3/extensions/os-backups',
                                headers=self.owner, status=404)
        self.fault(response, 404)
