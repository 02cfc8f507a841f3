"""os-initialize_connection and os-terminate_connection, the connection
calls of the attach flow from before the attachments API, with a volume
worker answering them."""
from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import test_actions_cli
from tests.functional import test_attachments

ADMIN = api_fixtures.ADMIN
CONNECTOR = test_attachments.CONNECTOR


class LegacyConnectionTest(test_attachments.ConnectedTestCase):

    version = '3.0'

    def action(self, body, status=202, headers=None, volume_id=None):
        return self.app.post_json(
            '/v3/volumes/%s/action' % (volume_id or self.volume.id), body,
            headers=headers or self.headers, status=status)

    def test_the_flow_nova_made_before_attachments(self):
        self.action({'os-reserve': None})
        info = self.action({'os-initialize_connection': {
            'connector': CONNECTOR}}, status=200).json['connection_info']
        self.assertEqual(('local', False),
                         (info['driver_volume_type'],
                          info['enforce_multipath']))
        self.assertIn(self.volume.id, info['data']['device_path'])
        self.action({'os-attach': {'instance_uuid': self.instance,
                                   'mountpoint': '/dev/vdb'}})
        self.assertEqual(('in-use', 'attached'), self.volume_status())
        self.action({'os-begin_detaching': None})
        self.action({'os-terminate_connection': {'connector': CONNECTOR}})
        self.assertEqual(1, self.terminations())
        attachment = rows.row(self.context, models.VolumeAttachment,
                              self.volume_attachment_id())
        self.action({'os-detach': {'attachment_id': attachment['id']}})
        self.assertEqual(('available', 'detached'), self.volume_status())

    def volume_attachment_id(self):
        return self.app.get('/v3/volumes/%s' % self.volume.id,
                            headers=self.headers).json['volume'][
            'attachments'][0]['attachment_id']

    def test_refusals(self):
        for body in ({'os-initialize_connection': {}},
                     {'os-initialize_connection': {'connector': 'x'}},
                     {'os-initialize_connection': None},
                     {'os-terminate_connection': {'connector': 5}},
                     {'os-terminate_connection': {}}):
            self.fault(self.action(body, status=400), 400)
        stranger = api_fixtures.caller('project-b', version=self.version)
        self.action({'os-initialize_connection': {'connector': CONNECTOR}},
                    status=404, headers=stranger)
        self.app.post_json('/v3/volumes/%s/action' % self.volume.id,
                           {'os-reset_status': {'status': 'maintenance'}},
                           headers=ADMIN)
        self.assertEqual(
            'Invalid volume: The volume connection cannot be initialized '
            'in maintenance mode.',
            self.fault(self.action({'os-initialize_connection': {
                'connector': CONNECTOR}}, status=400), 400))
        self.app.post_json('/v3/volumes/%s/action' % self.volume.id,
                           {'os-reset_status': {'status': 'available'}},
                           headers=ADMIN)
        self.worker.mark_down()
        for body in ({'os-initialize_connection': {'connector': CONNECTOR}},
                     {'os-terminate_connection': {'connector': None}}):
            self.assertIn('no volume worker serving it is up', self.fault(
                self.action(body, status=503), 503))
        self.assertEqual(0, self.terminations())

    def test_a_disabled_service_still_serves_its_volumes(self):
        # cinder service-disable keeps new volumes off the backend (its
        # scheduler skips it); the volumes it has are still connected.
        self.app.put_json('/v3/os-services/disable', {
            'host': 'worker-1@file', 'binary': 'cinder-volume'},
            headers=ADMIN)
        info = self.action({'os-initialize_connection': {
            'connector': CONNECTOR}}, status=200).json['connection_info']
        self.assertEqual('local', info['driver_volume_type'])
        self.action({'os-terminate_connection': {'connector': CONNECTOR}})
        self.assertEqual(1, self.terminations())


class CinderClientTest(test_actions_cli.CinderClientTestCase):

    def test_python_api(self):
        cinder = self.client(version='3.0')
        volume = self.wait_for_status(
            cinder.volumes, cinder.volumes.create(1).id, 'available')
        info = cinder.volumes.initialize_connection(volume, CONNECTOR)
        self.assertEqual('local', info['driver_volume_type'])
        cinder.volumes.terminate_connection(volume, CONNECTOR)
