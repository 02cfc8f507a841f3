"""A backend failing an operation leaves the user a message (Cinder's
messages API, 3.3), written with the status that shows the failure."""
import fixtures

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf

DRIVER = 'volapi.volume.drivers.file.FileDriver.'


class FailureMessagesTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))
        self.headers = api_fixtures.caller(self.project, version='3.3')

    def fail(self, method):
        def failing(*args, **kwargs):
            raise OSError('disk on fire')
        self.useFixture(fixtures.MonkeyPatch(DRIVER + method, failing))

    def wait_status(self, model, ident, status):
        vwf.wait_for(lambda: rows.row(self.context, model, ident)['status'],
                     lambda found: found == status)

    def messages(self):
        return [(m['resource_type'], m['resource_uuid'], m['event_id'],
                 m['user_message'])
                for m in self.app.get('/v3/messages', headers=self.headers)
                .json['messages']]

    def available_volume(self):
        volume_id = self.create_volume(headers=self.headers).json[
            'volume']['id']
        self.wait_status(models.Volume, volume_id, 'available')
        return volume_id

    def test_create(self):
        self.fail('create_volume')
        volume_id = self.create_volume(headers=self.headers).json[
            'volume']['id']
        self.wait_status(models.Volume, volume_id, 'error')
        self.assertEqual([(
            'VOLUME', volume_id, 'VOLUME_VOLUME_008_012',
            'create volume from backend storage:Driver failed to create the '
            'volume.')], self.messages())

    def test_extend(self):
        volume_id = self.available_volume()
        self.fail('extend_volume')
        self.app.post_json('/v3/volumes/%s/action' % volume_id,
                           {'os-extend': {'new_size': 2}},
                           headers=self.headers, status=202)
        self.wait_status(models.Volume, volume_id, 'error_extending')
        self.assertEqual([(
            'VOLUME', volume_id, 'VOLUME_VOLUME_007_010',
            'extend volume:Volume Driver failed to extend volume.')],
            self.messages())

    def test_snapshot_create(self):
        volume_id = self.available_volume()
        self.fail('create_snapshot')
        snapshot_id = self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume_id}}, headers=self.headers).json[
            'snapshot']['id']
        self.wait_status(models.Snapshot, snapshot_id, 'error')
        self.assertEqual([(
            'VOLUME_SNAPSHOT', snapshot_id, 'VOLUME_VOLUME_SNAPSHOT_009_013',
            'create snapshot:Snapshot failed to create.')], self.messages())

    def test_backup_create(self):
        volume_id = self.available_volume()
        self.fail('create_backup')
        backup_id = self.app.post_json('/v3/backups', {'backup': {
            'volume_id': volume_id}}, headers=self.headers).json[
            'backup']['id']
        self.wait_status(models.Backup, backup_id, 'error')
        self.assertEqual([(
            'VOLUME_BACKUP', backup_id, 'VOLUME_VOLUME_BACKUP_013_020',
            'create backup:Backup driver failed to create backup.')],
            self.messages())

    def test_a_success_leaves_none(self):
        self.available_volume()
        self.assertEqual([], self.messages())
