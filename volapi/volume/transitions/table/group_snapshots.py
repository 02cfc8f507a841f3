"""Group snapshots (/group_snapshots, 3.14+): one snapshot of each volume
of a group, taken in ONE transaction that holds the group (so a group
delete, or a volume added or removed, conflicts with it) and each volume
(as a snapshot create holds its volume). A group snapshot ends when its
last snapshot does: the worker's transition of each snapshot ends it in
the same transaction (``linked``), by one compare-and-swap that always
writes the row while it is in flight, so two snapshots ending at once
conflict on it instead of each seeing the other still in flight."""
import sqlalchemy as sa

from db import conditions as cond
from db import models
from volapi.api import microversion as mv
from volapi.policies import group_snapshots as group_snapshot_policies
from volapi.volume.transitions.table.groups import Group
from volapi.volume.transitions.table.groups import Volume
from volapi.volume.transitions.table.shared import NOT_MIGRATING
from volapi.volume.transitions.vocabulary import Computed
from volapi.volume.transitions.vocabulary import Criterion
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged

GroupSnapshot = models.GroupSnapshot
Snapshot = models.Snapshot

# Cinder's GroupSnapshotStatus.ALL: what reset_status may set.
RESET_STATUSES = ('error', 'available', 'creating', 'deleting', 'deleted',
                  'updating', 'error_deleting')
# A group snapshot may be deleted from these (Cinder's); its snapshots
# from these too, and from a failed delete.
DELETE_STATUSES = ('available', 'error')
SNAPSHOT_DELETE_STATUSES = DELETE_STATUSES + ('error_deleting',)


def _its_snapshots(*criteria):
    return sa.exists().where(
        Snapshot.group_snapshot_id == GroupSnapshot.id,
        Snapshot.deleted == sa.false(), *criteria)


# As many live volumes as the transaction snapshots (each of those swaps
# requires the volume in the group): so none but them.
ONLY_SNAPSHOTTED_VOLUMES = Criterion(
    'must have no volumes but the %(volume_count)s being snapshotted',
    lambda p: sa.select(sa.func.count()).where(
        Volume.group_id == Group.id,
        Volume.deleted == sa.false()).scalar_subquery() ==
    p['volume_count'],
    bound=('volume_count',))

# A volume being made from one of its snapshots still reads it.
NO_VOLUME_BEING_MADE_FROM_IT = Criterion(
    'must have no snapshot a volume is being created from',
    lambda p: ~_its_snapshots(sa.exists().where(
        Volume.snapshot_id == Snapshot.id, Volume.deleted == sa.false(),
        Volume.status == 'creating')))

# The snapshot's side, checked in the statement that takes its row (on
# MySQL the group snapshot's test may have run before a create holding
# the snapshot committed).
NO_VOLUME_BEING_MADE_FROM_SNAPSHOT = Criterion(
    'must have no volume being created from it',
    lambda p: ~sa.exists().where(
        Volume.snapshot_id == Snapshot.id, Volume.deleted == sa.false(),
        Volume.status == 'creating'))

NO_SNAPSHOTS_LEFT = Criterion(
    'must have no snapshots', lambda p: ~_its_snapshots())

# Once none of its snapshots is creating: 'error' if one failed, else
# 'available'; until then it stays 'creating'.
STATUS_WHEN_MADE = Computed(
    "'creating' while a snapshot of it is, then 'error' if one failed, "
    "else 'available'",
    lambda p: sa.case(
        (_its_snapshots(Snapshot.status == 'creating'), 'creating'),
        (_its_snapshots(Snapshot.status == 'error'), 'error'),
        else_='available'))

# Once none of its snapshots is left: deleted; while one is deleting,
# 'deleting'; once only snapshots whose delete failed are, 'error_deleting'.
STATUS_WHEN_REMOVED = Computed(
    "'deleting' while a snapshot of it is, 'error_deleting' while one whose "
    "delete failed is left, else 'deleted'",
    lambda p: sa.case(
        (_its_snapshots(Snapshot.status == 'deleting'), 'deleting'),
        (_its_snapshots(), 'error_deleting'),
        else_='deleted'))
GONE_WHEN_REMOVED = Computed(
    'true once none of its snapshots is left',
    lambda p: ~_its_snapshots())
DELETED_AT_WHEN_REMOVED = Computed(
    'now once none of its snapshots is left',
    lambda p: sa.case((_its_snapshots(), None), else_=p['now']),
    bound=('now',))

TABLE = [
    Transition(
        'group_snapshot_group', 'group',
        'POST /group_snapshots: the group is held in the transaction that '
        'snapshots each of its volumes',
        source=('available',),
        requires=(ONLY_SNAPSHOTTED_VOLUMES,),
        values={'updated_at': NOW},
        min_version=mv.GROUP_SNAPSHOTS),
    Transition(
        'group_snapshot_create', 'group_snapshot',
        'POST /group_snapshots: insert the group snapshot, in the '
        'transaction of its snapshots (snapshot_new) and their claims',
        values={'status': 'creating'},
        min_version=mv.GROUP_SNAPSHOTS, creates=True),
    Transition(
        'group_snapshot_create_empty', 'group_snapshot',
        'POST /group_snapshots of a group with no volumes: nothing to make',
        values={'status': 'available'},
        min_version=mv.GROUP_SNAPSHOTS, creates=True),
    Transition(
        'group_snapshot_volume', 'volume',
        'POST /group_snapshots: each volume of the group is held as a '
        'snapshot create holds it, and must still be in the group',
        source=('available', 'in-use'),
        expect={'migration_status': NOT_MIGRATING,
                'host': cond.Not(None), 'group_id': Param('group_id')},
        # The snapshot row copies them from the volume the request loaded.
        requires=(Unchanged('size'), Unchanged('volume_type_id')),
        values={},
        min_version=mv.GROUP_SNAPSHOTS),
    Transition(
        'group_snapshot_made', 'group_snapshot',
        'a snapshot of it was made or failed (linked to '
        'snapshot_create_done and snapshot_create_failed)',
        source=('creating',),
        values={'status': STATUS_WHEN_MADE, 'updated_at': NOW},
        side='worker', lenient=True),
    Transition(
        'group_snapshot_delete', 'group_snapshot',
        'DELETE /group_snapshots/{id}: in the transaction that starts '
        'deleting each of its snapshots',
        source=DELETE_STATUSES,
        requires=(NO_VOLUME_BEING_MADE_FROM_IT,),
        values={'status': 'deleting', 'updated_at': NOW},
        min_version=mv.GROUP_SNAPSHOTS),
    Transition(
        'group_snapshot_delete_empty', 'group_snapshot',
        'DELETE /group_snapshots/{id} of one with no snapshots: it goes',
        source=DELETE_STATUSES,
        requires=(NO_SNAPSHOTS_LEFT,),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        min_version=mv.GROUP_SNAPSHOTS),
    Transition(
        'group_snapshot_delete_snapshot', 'snapshot',
        'DELETE /group_snapshots/{id}: each of its snapshots starts '
        'deleting (a worker removes it, and its claim goes then)',
        source=SNAPSHOT_DELETE_STATUSES,
        expect={'group_snapshot_id': Param('group_snapshot_id')},
        requires=(NO_VOLUME_BEING_MADE_FROM_SNAPSHOT,),
        values={'status': 'deleting'},
        min_version=mv.GROUP_SNAPSHOTS,
        workers_row='track'),
    Transition(
        'group_snapshot_removed', 'group_snapshot',
        'a snapshot of it was removed or failed to be (linked to '
        'snapshot_delete_done and snapshot_delete_failed)',
        source=('deleting',),
        values={'status': STATUS_WHEN_REMOVED, 'deleted': GONE_WHEN_REMOVED,
                'deleted_at': DELETED_AT_WHEN_REMOVED, 'updated_at': NOW},
        side='worker', lenient=True),
    Transition(
        'group_snapshot_reset_status', 'group_snapshot',
        'POST /group_snapshots/{id}/action reset_status: set the status '
        'given, whatever it is',
        values={'status': Param('status'), 'updated_at': NOW},
        min_version=mv.GROUP_SNAPSHOT_RESET_STATUS,
        policy=group_snapshot_policies.RESET_STATUS),
]
