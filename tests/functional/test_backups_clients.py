"""Backups as the real clients drive them, over HTTP on 127.0.0.1 with a
volume worker: python-cinderclient's library and its ``cinder backup-*``
commands, and openstacksdk's block_storage backup calls."""
import openstack

from cinderclient import exceptions as cinder_exc
from tests.functional import backup_fixtures
from tests.functional import cinder_cli
from tests.functional import test_actions_cli
from tests.functional import test_openstacksdk


class BackupClientTestCase(test_actions_cli.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(backup_fixtures.BackupTestCase.assert_usage_agrees,
                        self)

    def available_volume(self, cinder, size=1):
        volume = cinder.volumes.create(size)
        return self.wait_for_status(cinder.volumes, volume.id, 'available')


class CinderClientBackupTest(BackupClientTestCase):

    def test_library(self):
        cinder = self.client(version='3.51')
        volume = self.available_volume(cinder)
        backup = cinder.backups.create(volume.id, name='lib',
                                       description='d',
                                       metadata={'k': 'v'})
        self.assertEqual('backing-up', cinder.volumes.get(volume.id).status)
        backup = self.wait_for_status(cinder.backups, backup.id,
                                      'available')
        # An empty volume: no chunk written (object_count 0).
        self.assertEqual(('lib', 'd', {'k': 'v'}, 1, 0),
                         (backup.name, backup.description, backup.metadata,
                          backup.size, backup.object_count))
        self.assertEqual([backup.id], [b.id for b in cinder.backups.list()])
        self.assertEqual([backup.id], [b.id for b in cinder.backups.list(
            search_opts={'name': 'lib'})])
        error = self.assertRaises(cinder_exc.NotFound,
                                  cinder.backups.create, volume.id,
                                  snapshot_id=volume.id)
        self.assertEqual('Snapshot %s could not be found.' % volume.id,
                         error.message)
        restored = cinder.restores.restore(backup.id, name='from-lib')
        self.assertEqual((backup.id, 'from-lib'),
                         (restored.backup_id, restored.volume_name))
        self.wait_for_status(cinder.volumes, restored.volume_id,
                             'available')
        self.wait_for_status(cinder.backups, backup.id, 'available')
        cinder.backups.update(backup.id, name='renamed')
        self.assertEqual('renamed', cinder.backups.get(backup.id).name)
        admin = self.client('admin', 'admin', version='3.51')
        admin.backups.reset_state(backup.id, 'error')
        self.assertEqual('error', cinder.backups.get(backup.id).status)
        cinder.backups.delete(backup.id)
        self.assertTrue(vwf_gone(cinder.backups, backup.id))

    def test_quota_refusal(self):
        cinder = self.client()
        volume = self.available_volume(cinder)
        admin = self.client('admin', 'admin')
        admin.quotas.update('project-a', backups=0)
        error = self.assertRaises(cinder_exc.OverLimit,
                                  cinder.backups.create, volume.id)
        self.assertEqual('Maximum number of backups allowed (0) exceeded',
                         error.message)
        self.assertEqual('available', cinder.volumes.get(volume.id).status)

    def test_cli(self):
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only (wire compatibility is backend-independent)')
        volume = self.available_volume(self.client())

        def cinder(*args, **kwargs):
            return cinder_cli.run(self, self.endpoint, *args,
                                  version='3.51', **kwargs).stdout

        created = cinder('backup-create', '--name', 'cli', volume.id)
        backup_id = cinder_cli.field(created, 'id')
        self.wait_for_status(self.client().backups, backup_id, 'available')
        self.assertIn('cli', cinder('backup-list'))
        shown = cinder('backup-show', backup_id)
        self.assertEqual(('available', volume.id), (
            cinder_cli.field(shown, 'status'),
            cinder_cli.field(shown, 'volume_id')))
        restored = cinder('backup-restore', '--volume', volume.id,
                          backup_id)
        self.assertEqual(volume.id, cinder_cli.field(restored, 'volume_id'))
        self.wait_for_status(self.client().backups, backup_id, 'available')
        self.wait_for_status(self.client().volumes, volume.id, 'available')
        cinder_cli.run(self, self.endpoint, 'backup-reset-state', '--state',
                       'error', backup_id, user='admin', project='admin')
        self.assertEqual('error', cinder_cli.field(
            cinder('backup-show', backup_id), 'status'))
        cinder('backup-delete', backup_id)
        self.assertTrue(vwf_gone(self.client().backups, backup_id))
        refused = cinder_cli.run(self, self.endpoint, 'backup-show',
                                 backup_id, check=False)
        self.assertNotEqual(0, refused.returncode)


class OpenStackSDKBackupTest(BackupClientTestCase):

    def connect(self, token):
        return test_openstacksdk.connect(self.endpoint, token).block_storage

    def test_backup_calls(self):
        tenant = self.connect('user-a:project-a')
        admin = self.connect('admin:admin')
        volume = tenant.create_volume(size=1)
        tenant.wait_for_status(volume, status='available', wait=30)
        backup = tenant.create_backup(volume_id=volume.id, name='sdk')
        backup = tenant.wait_for_status(backup, status='available', wait=30)
        self.assertEqual((1, 'sdk', volume.id), (backup.size, backup.name,
                                                 backup.volume_id))
        self.assertEqual([backup.id], [b.id for b in tenant.backups()])
        self.assertEqual('sdk', tenant.find_backup('sdk').name)
        tenant.restore_backup(backup, volume_id=volume.id)
        tenant.wait_for_status(backup, status='available', wait=30)
        tenant.wait_for_status(volume, status='available', wait=30)
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  tenant.reset_backup_status, backup,
                                  'error')
        self.assertEqual(403, error.status_code)
        admin.reset_backup_status(backup, 'error')
        admin.delete_backup(backup, force=True)
        tenant.wait_for_delete(backup, wait=30)
        self.assertRaises(openstack.exceptions.NotFoundException,
                          tenant.get_backup, backup.id)


def vwf_gone(manager, ident):
    """True once ``manager.get(ident)`` is a 404 (within the wait)."""
    from tests.functional import volume_worker_fixture as vwf

    def gone():
        try:
            manager.get(ident)
        except cinder_exc.NotFound:
            return True
        return False
    return vwf.wait_for(gone, bool)
