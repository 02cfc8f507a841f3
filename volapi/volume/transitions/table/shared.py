"""Statuses and sets of values that more than one part of the table
speaks of."""
from db import conditions as cond
from objects import worker
from volapi.volume.transitions.vocabulary import Linked
from volapi.volume.transitions.vocabulary import NOW


# Cinder's AVAILABLE_MIGRATION_STATUS: the volume is not being migrated.
NOT_MIGRATING = (None, 'deleting', 'error', 'success')
# A volume that may go (deleted, or let go by os-unmanage): not attached,
# not being migrated, in no group.
DELETE_EXPECT = {'attach_status': cond.Not('attached'),
                 'migration_status': NOT_MIGRATING,
                 'consistencygroup_id': None,
                 'group_id': None}
# Statuses a volume may be reset to (Cinder's VolumeAdminController).
RESET_STATUSES = ('creating', 'available', 'deleting', 'error',
                  'error_deleting', 'error_managing', 'managing', 'attaching',
                  'in-use', 'detaching', 'maintenance', 'reserved',
                  'extending', 'error_extending', 'retyping')
RESET_ATTACH_STATUSES = ('attached', 'detached')
RESET_MIGRATION_STATUSES = ('migrating', 'error', 'success', 'completing',
                            'none', 'starting')
# Statuses a snapshot may be reset to (Cinder's SnapshotStatus.ALL but
# 'deleted', which only a finished delete sets).
SNAPSHOT_RESET_STATUSES = ('error', 'available', 'creating', 'deleting',
                           'updating', 'error_deleting', 'unmanaging',
                           'backing-up', 'restoring')
# Statuses a backup may be reset to (Cinder's backup_status format).
BACKUP_RESET_STATUSES = ('available', 'error')

# The ``workers`` row's resource_type for each resource (Cinder's names).
WORKER_TYPES = worker.RESOURCE_TYPES


# An attachment removed (soft-deleted), however it goes.
ATTACHMENT_REMOVED_VALUES = {'attach_status': 'detached', 'detach_time': NOW,
                             'deleted': True, 'deleted_at': NOW}

# A volume made from a backup is restored from it while it is 'creating':
# what ends that (its creation's end, or an admin's force delete or reset
# of its status) ends the backup's restore too.
FROM_BACKUP = (Linked('backup', 'backup_id', 'backup_restore_ended'),)
