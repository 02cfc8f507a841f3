"""Worker side: the volume manager finishes what the API started."""
from volapi.volume.transitions.blocks import PREVIOUS_ATTACHED_STATUS
from volapi.volume.transitions.blocks import TYPE_MULTIATTACH
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Linked
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged
from volapi.volume.transitions.table.shared import FROM_BACKUP


# The migration a worker ends is the one it copied for.
MIGRATION_IN_FLIGHT = {'migration_status': 'migrating'}

# A snapshot of a group snapshot that ends (made, removed or failed) ends
# its group snapshot too once it was the last (table.group_snapshots).
GROUP_SNAPSHOT_MADE = Linked('group_snapshot', 'group_snapshot_id',
                             'group_snapshot_made')
GROUP_SNAPSHOT_REMOVED = Linked('group_snapshot', 'group_snapshot_id',
                                'group_snapshot_removed')


TABLE = [
    Transition(
        'create_done', 'volume', 'the backend made the volume',
        source=('creating',),
        values={'status': 'available',
                'host': Param('host', optional=True),
                'cluster_name': Param('cluster_name', optional=True),
                'provider_location': Param('provider_location',
                                           optional=True),
                'launched_at': Param('launched_at', default=NOW)},
        side='worker', workers_row='finish', linked=FROM_BACKUP),
    Transition(
        'create_failed', 'volume', 'the backend could not make the volume',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish', linked=FROM_BACKUP),
    Transition(
        'extend_done', 'volume', 'the backend grew the volume',
        source=('extending',),
        values={'status': PREVIOUS_ATTACHED_STATUS, 'size': Param('size')},
        side='worker', workers_row='finish'),
    Transition(
        'extend_failed', 'volume', 'the backend could not grow the volume',
        source=('extending',),
        values={'status': 'error_extending'},
        side='worker', workers_row='finish'),
    Transition(
        'delete_done', 'volume', 'the backend removed the volume',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'delete_failed', 'volume', 'the backend could not remove the volume',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
    Transition(
        'retype_done', 'volume', 'the backend applied the new type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'volume_type_id': Param('volume_type_id'),
                'multiattach': TYPE_MULTIATTACH},
        side='worker', workers_row='finish'),
    Transition(
        'retype_failed', 'volume', 'the backend could not apply the type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS},
        side='worker', workers_row='finish'),
    Transition(
        'migrate_done', 'volume',
        'the data is copied to the destination pool: the volume points '
        "there and the migration consumer's allocation on the source goes "
        '(in the same transaction)',
        expect=MIGRATION_IN_FLIGHT,
        requires=(Unchanged('migration_id'),),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'migration_status': 'success',
                'host': Param('host'),
                'cluster_name': Param('cluster_name'),
                'provider_location': Param('provider_location',
                                           optional=True),
                'name_id': Param('name_id'),
                'volume_type_id': Param('volume_type_id'),
                'multiattach': TYPE_MULTIATTACH},
        side='worker', workers_row='finish'),
    Transition(
        'migrate_failed', 'volume',
        'the copy failed: the volume stays where it was and its allocation '
        "goes back to the source (the migration consumer's is deleted), in "
        'the same transaction',
        expect=MIGRATION_IN_FLIGHT,
        requires=(Unchanged('migration_id'),),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'migration_status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_create_done', 'snapshot', 'the backend made the snapshot',
        source=('creating',),
        values={'status': 'available', 'progress': '100%',
                'provider_location': Param('provider_location',
                                           optional=True)},
        side='worker', workers_row='finish',
        linked=(GROUP_SNAPSHOT_MADE,)),
    Transition(
        'snapshot_create_failed', 'snapshot',
        'the backend could not make the snapshot',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish',
        linked=(GROUP_SNAPSHOT_MADE,)),
    Transition(
        'snapshot_delete_done', 'snapshot', 'the backend removed the snapshot',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish',
        linked=(GROUP_SNAPSHOT_REMOVED,)),
    Transition(
        'snapshot_delete_failed', 'snapshot',
        'the backend could not remove the snapshot',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish',
        linked=(GROUP_SNAPSHOT_REMOVED,)),
]
