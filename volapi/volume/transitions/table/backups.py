"""Backups: created, restored and deleted through /backups, and finished by
the volume manager. A backup in flight holds its volume (or snapshot)
'backing-up', a restore its target volume 'restoring-backup': the
backup's own transitions that end the operation end those too, in their
transaction (``linked``), and the backup's ``workers`` row alone records
the operation."""
from db import conditions as cond
from volapi.policies import backup_actions as backup_action_policies
from volapi.policies import backups as backup_policies
from volapi.volume.transitions.blocks import AFTER_OWN_RESTORE
from volapi.volume.transitions.blocks import AFTER_RESTORE
from volapi.volume.transitions.blocks import NAME_VALUES
from volapi.volume.transitions.blocks import NO_DEPENDENTS
from volapi.volume.transitions.blocks import ONE_DEPENDENT_LESS
from volapi.volume.transitions.blocks import ONE_MORE_DEPENDENT
from volapi.volume.transitions.blocks import OLD_STATUS
from volapi.volume.transitions.blocks import PREVIOUS_ATTACHED_STATUS
from volapi.volume.transitions.blocks import forced
from volapi.volume.transitions.table.shared import NOT_MIGRATING
from volapi.volume.transitions.vocabulary import Also
from volapi.volume.transitions.vocabulary import Linked
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged


# What a backup's creation holds, given back when it ends either way.
CREATE_HOLDS = (Linked('volume', 'volume_id', 'backup_volume_released'),
                Linked('snapshot', 'snapshot_id',
                       'backup_snapshot_released'))
# Statuses an in-flight operation's data is being written in: a force
# delete waits for it to end (or for os-reset_status).
IN_FLIGHT = ('creating', 'restoring', 'deleting')


TABLE = [
    # -- requested through the API ------------------------------------------
    Transition(
        'backup_create', 'volume',
        "POST /backups: the volume goes 'backing-up' while the backup row "
        'is inserted and the quota claimed in the same transaction',
        source=('available',),
        also=(Also(('in-use',), 'with force', forced),),
        expect={'migration_status': NOT_MIGRATING, 'host': cond.Not(None)},
        # The backup's size (and its quota claim) is the size loaded; its
        # host, where the work is cast, the pool loaded (a migration that
        # ended meanwhile moved the data elsewhere).
        requires=(Unchanged('size'), Unchanged('host')),
        values={'status': 'backing-up', 'previous_status': OLD_STATUS}),
    Transition(
        'backup_create_from_snapshot', 'snapshot',
        "POST /backups with a snapshot_id: the snapshot goes 'backing-up' "
        'instead of the volume',
        source=('available',),
        values={'status': 'backing-up'}),
    Transition(
        'backup_parent_hold', 'backup',
        'POST /backups with incremental: the parent (the latest available '
        'backup of the volume) counts its child, in the transaction that '
        'inserts it, so a concurrent delete of the parent cannot pass',
        source=('available',),
        values={'num_dependent_backups': ONE_MORE_DEPENDENT}),
    Transition(
        'backup_new', 'backup',
        'POST /backups: insert the backup and its metadata (in the '
        'transaction of backup_create)',
        values={'status': 'creating'},
        creates=True, workers_row='track'),
    Transition(
        'backup_import', 'backup',
        'POST /backups/import_record (admin): insert the backup a record '
        'describes, available, with its metadata, its quota claim and '
        '(for an incremental one) backup_parent_hold, in one transaction',
        values={'status': 'available'},
        policy=backup_policies.IMPORT, creates=True),
    Transition(
        'backup_update', 'backup',
        'PUT /backups/{id}: rename (and, from 3.43, the metadata rows in '
        'the same transaction)',
        values=NAME_VALUES),
    Transition(
        'backup_delete', 'backup', 'DELETE /backups/{id}: start deleting',
        source=('available', 'error'),
        requires=(NO_DEPENDENTS,),
        values={'status': 'deleting'},
        workers_row='track'),
    Transition(
        'backup_force_delete', 'backup',
        'os-force_delete: start deleting from any status but those of an '
        'operation in flight',
        expect={'status': cond.Not(IN_FLIGHT)},
        requires=(NO_DEPENDENTS,),
        values={'status': 'deleting'},
        policy=backup_action_policies.FORCE_DELETE,
        workers_row='track'),
    Transition(
        'backup_reset_status', 'backup',
        'os-reset_status: set the status given, whatever it is (the volume '
        'is left as it is, as in Cinder)',
        values={'status': Param('status')},
        policy=backup_action_policies.RESET_STATUS,
        workers_row='finish'),
    Transition(
        'backup_restore', 'backup',
        "POST /backups/{id}/restore: the backup goes 'restoring' in the "
        "transaction that takes its target volume",
        source=('available',),
        values={'status': 'restoring',
                'restore_volume_id': Param('restore_volume_id')},
        workers_row='track'),
    Transition(
        'create_from_backup', 'backup',
        "POST /volumes with a backup_id: the backup goes (or stays) "
        "'restoring' in the transaction that inserts the volume 'creating' "
        "(a concurrent delete of the backup conflicts); the volume's "
        "creation restores it, and its end ends the backup's too",
        source=('available', 'restoring'),
        values={'status': 'restoring'}),
    Transition(
        'backup_restore_volume', 'volume',
        "POST /backups/{id}/restore to an existing volume: it goes "
        "'restoring-backup'",
        source=('available',),
        expect={'migration_status': NOT_MIGRATING, 'host': cond.Not(None)},
        # The API found it big enough for the backup as it loaded it; the
        # restore is cast to the pool loaded.
        requires=(Unchanged('size'), Unchanged('host')),
        values={'status': 'restoring-backup'}),
    Transition(
        'backup_restore_create', 'volume',
        'POST /backups/{id}/restore without a volume: insert the new '
        "volume 'restoring-backup', claiming as create does (the backup's "
        'workers row records the operation)',
        values={'status': 'restoring-backup', 'attach_status': 'detached'},
        creates=True),
    # -- finished by the volume manager -------------------------------------
    Transition(
        'backup_create_done', 'backup',
        'the backend copied the data; the volume (or snapshot) goes back',
        source=('creating',),
        values={'status': 'available', 'size': Param('size'),
                'object_count': Param('object_count'),
                'service': Param('service', optional=True)},
        side='worker', workers_row='finish', linked=CREATE_HOLDS),
    Transition(
        'backup_create_failed', 'backup',
        'the backend could not copy the data; the volume (or snapshot) '
        'goes back',
        source=('creating',),
        values={'status': 'error',
                'fail_reason': Param('fail_reason', optional=True)},
        side='worker', workers_row='finish', linked=CREATE_HOLDS),
    Transition(
        'backup_delete_done', 'backup',
        "the backend removed the data; the project's backup quota is "
        'given back in the same transaction',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish',
        linked=(Linked('backup', 'parent_id', 'backup_child_deleted'),)),
    Transition(
        'backup_delete_failed', 'backup',
        'the backend could not remove the data',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
    Transition(
        'backup_restore_done', 'backup',
        'the data is on the volume; both are available (the backup '
        'stays restoring while volumes made from it are being created)',
        source=('restoring',),
        values={'status': AFTER_OWN_RESTORE},
        side='worker', workers_row='finish',
        linked=(Linked('volume', 'restore_volume_id',
                       'backup_restore_volume_done'),)),
    Transition(
        'backup_restore_failed', 'backup',
        "the restore failed: the backup is available, the volume "
        "'error_restoring'",
        source=('restoring',),
        values={'status': AFTER_OWN_RESTORE},
        side='worker', workers_row='finish',
        linked=(Linked('volume', 'restore_volume_id',
                       'backup_restore_volume_failed'),)),
    Transition(
        'backup_restore_ended', 'backup',
        'the creation of a volume made from the backup ended, either way',
        source=('restoring',),
        values={'status': AFTER_RESTORE},
        side='worker', lenient=True),
    Transition(
        'backup_child_deleted', 'backup',
        'an incremental backup of it was deleted: one dependent less',
        values={'num_dependent_backups': ONE_DEPENDENT_LESS},
        side='worker', lenient=True),
    Transition(
        'backup_volume_released', 'volume',
        "a backup's creation ended: the volume goes back to its status",
        source=('backing-up',),
        values={'status': PREVIOUS_ATTACHED_STATUS},
        side='worker', lenient=True),
    Transition(
        'backup_snapshot_released', 'snapshot',
        "a backup's creation ended: the snapshot is available again",
        source=('backing-up',),
        values={'status': 'available'},
        side='worker', lenient=True),
    Transition(
        'backup_restore_volume_done', 'volume',
        'a restore wrote the volume',
        source=('restoring-backup',),
        values={'status': 'available',
                'provider_location': Param('provider_location',
                                           optional=True),
                'cluster_name': Param('cluster_name', optional=True),
                'launched_at': Param('launched_at', optional=True)},
        side='worker', lenient=True),
    Transition(
        'backup_restore_volume_failed', 'volume',
        'a restore could not write the volume',
        source=('restoring-backup',),
        values={'status': 'error_restoring'},
        side='worker', lenient=True),
]
