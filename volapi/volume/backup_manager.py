"""The volume worker's backup operations: the plans the volume manager
runs for a backup's ``workers`` row (see volapi.volume.manager for the
pattern: claim, driver, one ending transition). The backup's ending
transitions also end what it holds, the volume 'backing-up' or
'restoring-backup', in their transaction."""
from oslo_utils import timeutils

import objects
from volapi.volume.transitions import table

BACKUP = table.WORKER_TYPES['backup']

# (resource_type, status of the workers row) -> (plan, argument names), as
# manager.REDRIVE.
REDRIVE = {
    (BACKUP, 'creating'): ('_create_backup', ()),
    (BACKUP, 'deleting'): ('_delete_backup', ()),
    (BACKUP, 'restoring'): ('_restore_backup', ()),
}


class BackupOperations:
    """Mixed into VolumeManager: ``self.driver``, ``self._operate`` and
    ``self._cluster_of`` are the manager's."""

    def create_backup(self, context, backup):
        self._operate(context, BACKUP, backup,
                      self._create_backup(context, backup))

    def _create_backup(self, context, backup):
        def work():
            volume = objects.Volume.get_by_id(context, backup.volume_id)
            snapshot = objects.Snapshot.get_by_id(
                context, backup.snapshot_id) if backup.snapshot_id else None
            values = self.driver.create_backup(backup, volume, snapshot)
            return dict(values or {}, size=backup.size)

        return ('creating', work, 'backup_create_done',
                'backup_create_failed')

    def delete_backup(self, context, backup):
        self._operate(context, BACKUP, backup,
                      self._delete_backup(context, backup))

    def _delete_backup(self, context, backup):
        def work():
            self.driver.delete_backup(backup)

        return ('deleting', work, 'backup_delete_done',
                'backup_delete_failed')

    def restore_backup(self, context, backup):
        self._operate(context, BACKUP, backup,
                      self._restore_backup(context, backup))

    def _restore_backup(self, context, backup):
        def work():
            volume = objects.Volume.get_by_id(context,
                                              backup.restore_volume_id)
            values = dict(self.driver.restore_backup(backup, volume) or {})
            if volume.launched_at is None:
                # Made for the restore: it is launched now, in its pool's
                # cluster.
                values.update(launched_at=timeutils.utcnow(),
                              cluster_name=self._cluster_of(volume))
            return values

        return ('restoring', work, 'backup_restore_done',
                'backup_restore_failed')
