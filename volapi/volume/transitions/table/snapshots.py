"""Snapshots: created, described and acted on through /snapshots."""
from db import conditions as cond
from volapi.policies import snapshots as snapshot_policies
from volapi.volume.transitions.blocks import CASCADE_SNAPSHOT_STATUSES
from volapi.volume.transitions.blocks import NAME_VALUES
from volapi.volume.transitions.blocks import SNAPSHOT_NOT_FROZEN
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.table.manager import GROUP_SNAPSHOT_MADE
from volapi.volume.transitions.table.manager import GROUP_SNAPSHOT_REMOVED

# Not taken in a group snapshot.
ALONE = {'group_snapshot_id': None}

# os-update_snapshot_status: {a status: the requested statuses it may
# go to}, Cinder's status_map.
UPDATE_STATUS_MAP = {'creating': ('creating', 'available', 'error'),
                     'deleting': ('deleting', 'error_deleting')}

TABLE = [
    Transition(
        'snapshot_update', 'snapshot', 'PUT /snapshots/{id}: rename',
        values=NAME_VALUES),
    Transition(
        'snapshot_update_metadata', 'snapshot',
        'the snapshot metadata API: the rows are set, replaced or deleted '
        'in the same transaction (in any status, as Cinder)',
        values=NAME_VALUES),
    Transition(
        'snapshot_delete', 'snapshot', 'DELETE /snapshots/{id}',
        source=('available', 'error'),
        # A group snapshot's snapshots go with it (Cinder's rule).
        expect=ALONE,
        requires=(SNAPSHOT_NOT_FROZEN,),
        values={'status': 'deleting'},
        workers_row='track'),
    Transition(
        'snapshot_force_delete', 'snapshot',
        'os-force_delete: start deleting from any status',
        expect=dict(ALONE, status=cond.Not('deleting')),
        requires=(SNAPSHOT_NOT_FROZEN,),
        values={'status': 'deleting'},
        policy=snapshot_policies.FORCE_DELETE,
        workers_row='track'),
    Transition(
        'snapshot_reset_status', 'snapshot',
        'os-reset_status: set the status given, whatever it is',
        values={'status': Param('status')},
        policy=snapshot_policies.RESET_STATUS,
        workers_row='finish',
        # Its group snapshot ends if it was the last one in flight.
        linked=(GROUP_SNAPSHOT_MADE, GROUP_SNAPSHOT_REMOVED)),
    Transition(
        'snapshot_progress', 'snapshot',
        'os-update_snapshot_status to the status it has: its progress',
        source=tuple(UPDATE_STATUS_MAP),
        expect={'status': Param('status')},
        values={'progress': Param('progress', optional=True)},
        policy=snapshot_policies.UPDATE_STATUS),
    Transition(
        'snapshot_created_elsewhere', 'snapshot',
        'os-update_snapshot_status: the service that made the snapshot '
        '(a compute\'s assisted snapshot) says it is available or failed',
        source=('creating',),
        values={'status': Param('status'),
                'progress': Param('progress', optional=True)},
        policy=snapshot_policies.UPDATE_STATUS, workers_row='finish'),
    Transition(
        'snapshot_delete_failed_elsewhere', 'snapshot',
        'os-update_snapshot_status: the service deleting the snapshot '
        'says it failed',
        source=('deleting',),
        values={'status': 'error_deleting',
                'progress': Param('progress', optional=True)},
        policy=snapshot_policies.UPDATE_STATUS, workers_row='finish'),
    Transition(
        'snapshot_cascade_delete', 'snapshot',
        'DELETE /volumes/{id}?cascade=true takes each snapshot along',
        source=CASCADE_SNAPSHOT_STATUSES,
        expect=ALONE,
        requires=(SNAPSHOT_NOT_FROZEN,),
        values={'status': 'deleting'},
        workers_row='track'),
]
