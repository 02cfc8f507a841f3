"""The life of a backup with a real worker (file driver, in-process
transport): created from the volume's file, restored to a new or an
existing volume, deleted with its data; the driver failing; a backup left
by a dead worker repaired by the cleanup."""
import os
import uuid

import fixtures

import objects

from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import backup_fixtures
from tests.functional import volume_worker_fixture as vwf
from volapi.volume import cleanup
from volapi.volume.drivers import file as file_driver

ADMIN = api_fixtures.ADMIN
GiB = 1024 ** 3


class BackupLifeTest(backup_fixtures.WorkerBackupTestCase):

    def test_life(self):
        volume_id = self.available_volume()
        self.write(volume_id, b'backed up')
        backup_id = self.backup_id(volume_id)
        shown = self.wait_backup(backup_id, 'available')
        self.assertEqual((1, 1), (shown['size'], shown['object_count']))
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'available')
        self.assertIsNone(rows.worker_status(self.context, 'backup',
                                             backup_id))
        self.assertEqual((1, 1), self.usage())
        # Restored to a new volume, made for it, of the backup's size.
        restored = self.restore(backup_id).json['restore']
        self.assertEqual(('restore_backup_%s' % backup_id, backup_id),
                         (restored['volume_name'], restored['backup_id']))
        vwf.wait_for(lambda: self.volume_status(restored['volume_id']),
                     lambda s: s == 'available')
        self.wait_backup(backup_id, 'available')
        self.assertEqual(b'backed up', self.read(restored['volume_id'], 9))
        new = self.volume_row(restored['volume_id'])
        self.assertIsNotNone(new['launched_at'])
        # Restored over an existing volume.
        self.write(volume_id, b'XXXXXXXXX')
        self.restore(backup_id, volume_id=volume_id, name='ignored')
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'available')
        self.wait_backup(backup_id, 'available')
        self.assertEqual(b'backed up', self.read(volume_id, 9))
        # Deleted: its data and its quota go.
        path = self.driver.backup_path(objects.Backup.get_by_id(
            self.context, backup_id))
        self.assertTrue(os.path.exists(path))
        self.app.delete('/v3/backups/%s' % backup_id, headers=self.owner,
                        status=202)
        vwf.wait_for(lambda: self.get('/v3/backups/%s' % backup_id)
                     .status_int,
                     lambda status: status == 404)
        self.assertFalse(os.path.exists(path))
        self.assertEqual((0, 0), self.usage())

    def test_in_use_volume_goes_back_in_use(self):
        volume_id = self.available_volume()
        self.app.post_json('/v3/volumes/%s/action' % volume_id,
                           {'os-attach': {'instance_uuid': str(uuid.uuid4()),
                                          'host_name': 'h',
                                          'mountpoint': '/dev/vdb'}},
                           headers=self.owner, status=202)
        backup_id = self.backup_id(volume_id, force=True)
        self.wait_backup(backup_id, 'available')
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'in-use')

    def test_restore_to_small_or_busy_volume(self):
        volume_id = self.available_volume(size=2)
        backup_id = self.backup_id(volume_id)
        self.wait_backup(backup_id, 'available')
        small = self.available_volume(size=1)
        self.assertEqual(
            'Invalid volume: volume size 1 is too small to restore backup '
            'of size 2.', self.fault(self.restore(
                backup_id, volume_id=small, status=400), 400))
        self.assertEqual('available', self.show(backup_id)['status'])
        self.app.post_json('/v3/volumes/%s/action' % volume_id,
                           {'os-reserve': None}, headers=self.owner,
                           status=202)
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'attaching'", self.fault(self.restore(
                backup_id, volume_id=volume_id, status=400), 400))

    def test_driver_failure(self):
        volume_id = self.available_volume()
        self.useFixture(fixtures.MockPatchObject(
            file_driver.FileDriver, 'create_backup',
            side_effect=OSError('disk gone')))
        backup_id = self.backup_id(volume_id)
        # Why, as Cinder shows it.
        self.assertEqual('disk gone',
                         self.wait_backup(backup_id, 'error')['fail_reason'])
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'available')
        # An errored backup still counts until deleted, as in Cinder.
        self.assertEqual((1, 1), self.usage())

    def test_restore_failure(self):
        volume_id = self.available_volume()
        backup_id = self.backup_id(volume_id)
        self.wait_backup(backup_id, 'available')
        self.useFixture(fixtures.MockPatchObject(
            file_driver.FileDriver, 'restore_backup',
            side_effect=OSError('disk gone')))
        self.restore(backup_id, volume_id=volume_id)
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'error_restoring')
        self.wait_backup(backup_id, 'available')


class DeadWorkerTest(backup_fixtures.BackupTestCase):
    """A backup whose worker died: the cleanup ends it as a failure and
    gives the volume back."""

    def test_cleanup_repairs_backup_and_volume(self):
        volume = rows.volume(self.context, project_id=self.project)
        backup_id = self.backup_id(volume.id)
        # Nobody serves the casts here: the row stays unclaimed.
        repaired = cleanup.clean_stale(self.context, unclaimed_timeout=0)
        self.assertEqual([backup_id], [w.resource_id for w in repaired])
        self.assertEqual('error', self.backup_row(backup_id)['status'])
        self.assertEqual('available', self.volume_row(volume.id)['status'])
        self.assertIsNone(rows.worker_status(self.context, 'backup',
                                             backup_id))

    def test_cleanup_ends_a_restore(self):
        volume = rows.volume(self.context, project_id=self.project)
        target = rows.volume(self.context, project_id=self.project)
        backup_id = self.backup_id(volume.id)
        self.reset(backup_id, 'available')
        self.restore(backup_id, volume_id=target.id)
        repaired = cleanup.clean_stale(self.context, unclaimed_timeout=0)
        self.assertEqual([backup_id], [w.resource_id for w in repaired])
        self.assertEqual('available', self.backup_row(backup_id)['status'])
        self.assertEqual('error_restoring',
                         self.volume_row(target.id)['status'])


class RedriveTest(backup_fixtures.BackupTestCase):
    """A backup whose message nobody took: a worker starting up re-drives
    it from its workers row."""

    def test_worker_redrives_unclaimed_backup(self):
        volume_id = self.create_volume(size=1).json['volume']['id']
        worker = self.useFixture(vwf.RunningWorker(self))
        vwf.wait_for(lambda: self.volume_row(volume_id)['status'],
                     lambda s: s == 'available')
        worker.worker.stop()
        # Casts now reach no worker: the row stays unclaimed.
        backup_id = self.backup_id(volume_id)
        self.assertEqual('creating', rows.worker_status(
            self.context, 'backup', backup_id))
        self.useFixture(vwf.RunningWorker(self))
        vwf.wait_for(lambda: self.backup_row(backup_id)['status'],
                     lambda s: s == 'available')
        self.assertEqual('available', self.volume_row(volume_id)['status'])
