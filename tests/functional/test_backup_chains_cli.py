"""The real ``cinder`` command on what backup chains added: a volume
created from a backup (``create --backup-id``, 3.47), an incremental
backup (``backup-create --incremental``) and a backup's record exported
and imported again (``backup-export``, ``backup-import``)."""
from db import models
from tests import volume_rows as rows
from tests.functional import cinder_cli
from tests.functional import test_backup_records
from tests.functional import test_backups_clients


class CinderCLIChainTest(test_backups_clients.BackupClientTestCase):

    def cinder(self, *args, admin=False, check=True, version='3.47'):
        credentials = {'user': 'admin', 'project': 'admin'} if admin else {}
        return cinder_cli.run(self, self.endpoint, *args, version=version,
                              check=check, **credentials)

    def write(self, volume_id, data):
        path = rows.row(self.context, models.Volume, volume_id)[
            'provider_location']
        with open(path, 'r+b') as f:
            f.write(data)

    def read(self, volume_id, length):
        path = rows.row(self.context, models.Volume, volume_id)[
            'provider_location']
        with open(path, 'rb') as f:
            return f.read(length)

    def backup(self, *args):
        backup_id = cinder_cli.field(self.cinder('backup-create', *args)
                                     .stdout, 'id')
        self.wait_for_status(self.client().backups, backup_id, 'available')
        return backup_id

    def test_chain_restore_export_import(self):
        library = self.client()
        volume = self.available_volume(library)
        self.write(volume.id, b'full')
        full = self.backup('--name', 'full', volume.id)
        self.wait_for_status(library.volumes, volume.id, 'available')
        self.write(volume.id, b'incr')
        incremental = self.backup('--incremental', '--name', 'incr',
                                  volume.id)
        shown = self.cinder('backup-show', incremental).stdout
        self.assertEqual('True', cinder_cli.field(shown, 'is_incremental'))
        self.assertEqual('True', cinder_cli.field(
            self.cinder('backup-show', full).stdout,
            'has_dependent_backups'))
        refused = self.cinder('backup-delete', full, check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('must have no incremental backups depending on it',
                      refused.stdout + refused.stderr)

        # A volume made from the incremental backup, of its size.
        created = self.cinder('create', '--backup-id', incremental,
                              '--name', 'from-backup').stdout
        made = cinder_cli.field(created, 'id')
        self.assertEqual('1', cinder_cli.field(created, 'size'))
        self.wait_for_status(library.volumes, made, 'available')
        self.wait_for_status(library.backups, incremental, 'available')
        self.assertEqual(b'incr', self.read(made, 4))

        # Its record, exported, survives the loss of its row.
        exported = self.cinder('backup-export', incremental,
                               admin=True).stdout
        service = cinder_cli.field(exported, 'backup_service')
        url = cinder_cli.field(exported, 'backup_url')
        test_backup_records.lose(self.context, incremental)
        self.assertEqual('False', cinder_cli.field(
            self.cinder('backup-show', full).stdout,
            'has_dependent_backups'))
        imported = self.cinder('backup-import', service, url,
                               admin=True).stdout
        self.assertEqual(incremental, cinder_cli.field(imported, 'id'))
        shown = self.cinder('backup-show', incremental, admin=True).stdout
        self.assertEqual(('available', 'True'), (
            cinder_cli.field(shown, 'status'),
            cinder_cli.field(shown, 'is_incremental')))
        # Restored again from the imported record: the data is there.
        again = self.cinder('create', '--backup-id', incremental,
                            admin=True).stdout
        again_id = cinder_cli.field(again, 'id')
        admin = self.client('admin', 'admin')
        self.wait_for_status(admin.volumes, again_id, 'available')
        self.assertEqual(b'incr', self.read(again_id, 4))
        refused = self.cinder('backup-import', service, url, admin=True,
                              check=False)
        self.assertIn('Backup already exists in database.',
                      refused.stdout + refused.stderr)
