"""The transition table (see the package's docstring), one module per
concern, joined here in the order the documentation lists it; the statuses
it speaks of are in :mod:`.shared`, its building blocks (SQL criteria,
computed values) in :mod:`..blocks`. Only data: :mod:`..engine` applies it,
:mod:`..doc` describes it."""
from volapi.volume.transitions.table import attachments
from volapi.volume.transitions.table import backups
from volapi.volume.transitions.table import group_snapshots
from volapi.volume.transitions.table import groups
from volapi.volume.transitions.table import manage
from volapi.volume.transitions.table import manager
from volapi.volume.transitions.table import reconciliation
from volapi.volume.transitions.table import reverts
from volapi.volume.transitions.table import snapshots
from volapi.volume.transitions.table import transfers
from volapi.volume.transitions.table import volumes
from volapi.volume.transitions.table.shared import BACKUP_RESET_STATUSES  # noqa: F401,E501
from volapi.volume.transitions.table.shared import RESET_ATTACH_STATUSES  # noqa: F401,E501
from volapi.volume.transitions.table.shared import RESET_MIGRATION_STATUSES  # noqa: F401,E501
from volapi.volume.transitions.table.shared import RESET_STATUSES  # noqa: F401
from volapi.volume.transitions.table.shared import SNAPSHOT_RESET_STATUSES  # noqa: F401,E501
from volapi.volume.transitions.table.shared import WORKER_TYPES  # noqa: F401


TABLE = (volumes.TABLE + attachments.TABLE + snapshots.TABLE
         + transfers.TABLE + manage.TABLE + manager.TABLE
         + groups.TABLE + group_snapshots.TABLE + reconciliation.TABLE
         + backups.TABLE + reverts.TABLE)

TRANSITIONS = {t.name: t for t in TABLE}

# What the ``workers`` row of an operation keeps of its parameters (they are
# not in the resource's row until it ends), so that a peer can re-drive it.
WORKER_ARGUMENTS = {
    'extend': ('new_size',),
    'retype': ('new_type_id',),
    'migrate': ('dest_host',),
    'retype_migrate': ('dest_host', 'new_type_id'),
    'manage': ('reference',),
    'snapshot_manage': ('reference',),
}

# A ``workers`` row (resource_type, status) left by a dead worker -> the
# transition that repairs its resource. For 'deleting' the cleanup may
# instead cast the delete again (the status already says "deleting").
CLEANUP = {
    ('Volume', 'creating'): 'create_failed',
    ('Volume', 'extending'): 'extend_failed',
    ('Volume', 'deleting'): 'delete_failed',
    ('Volume', 'retyping'): 'retype_failed',
    ('Volume', 'migrating'): 'migrate_failed',
    ('Volume', 'managing'): 'manage_failed',
    ('Volume', 'unmanaging'): 'unmanage_failed',
    ('Snapshot', 'creating'): 'snapshot_create_failed',
    ('Snapshot', 'deleting'): 'snapshot_delete_failed',
    ('Snapshot', 'restoring'): 'snapshot_revert_failed',
    ('Snapshot', 'managing'): 'snapshot_create_failed',
    ('Snapshot', 'unmanaging'): 'snapshot_unmanage_failed',
    ('Backup', 'creating'): 'backup_create_failed',
    ('Backup', 'deleting'): 'backup_delete_failed',
    ('Backup', 'restoring'): 'backup_restore_failed',
}
# Rows whose resource needs no repair (what they record was already
# carried out in the database): the cleanup drops them, with why it
# matters.
NOTHING_TO_REPAIR = {
    ('VolumeAttachment', 'terminating'):
        'the backend may still export the volume to its host',
}
