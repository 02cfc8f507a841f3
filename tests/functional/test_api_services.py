"""GET /v3/os-services and /v3/os-availability-zone: the volume services
as their services rows and heartbeats say, in Cinder's format."""
import datetime

from oslo_utils import timeutils

from objects import service as service_obj
from tests.functional import api_fixtures

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
