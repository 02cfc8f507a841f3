"""Existing storage taken into volapi as a volume (``cinder manage``) or
a snapshot (``cinder snapshot-manage``) and let go again (``cinder
unmanage``, ``snapshot-unmanage``): the API's transitions, then the
worker's. A managed snapshot is 'creating' while the worker takes the
storage, as in Cinder, and ends as a created one does
(``snapshot_create_done`` / ``snapshot_create_failed``); its workers row
says 'managing', so that a peer re-drives the manage, not a create."""
from volapi.policies import manageable_snapshots as snapshot_policies
from volapi.policies import manageable_volumes as manage_policies
from volapi.volume.transitions.blocks import NO_ATTACHMENTS
from volapi.volume.transitions.blocks import NO_SNAPSHOTS
from volapi.volume.transitions.table.shared import DELETE_EXPECT
from volapi.volume.transitions.table.snapshots import ALONE
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition


TABLE = [
    Transition(
        'manage', 'volume',
        'POST /manageable_volumes: insert the volume of an existing '
        'storage object, sized as the worker measured it, in the pool that '
        'holds it (with its claim, in the same transaction)',
        values={'status': 'managing', 'attach_status': 'detached'},
        creates=True, workers_row='track',
        policy=manage_policies.MANAGE),
    Transition(
        'unmanage', 'volume',
        'os-unmanage: let go of the volume, its storage left on the '
        'backend',
        source=('available', 'error', 'error_extending', 'error_managing',
                'error_unmanaging'),
        expect=DELETE_EXPECT,
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values={'status': 'unmanaging'},
        policy=manage_policies.UNMANAGE, workers_row='track'),
    Transition(
        'manage_done', 'volume', 'the backend took the storage object as '
        "the volume's",
        source=('managing',),
        values={'status': 'available',
                'cluster_name': Param('cluster_name', optional=True),
                'provider_location': Param('provider_location',
                                           optional=True),
                'launched_at': Param('launched_at', default=NOW)},
        side='worker', workers_row='finish'),
    Transition(
        'manage_failed', 'volume',
        'the backend could not take the storage object',
        source=('managing',),
        values={'status': 'error_managing'},
        side='worker', workers_row='finish'),
    Transition(
        'unmanage_done', 'volume', 'the backend let go of the storage: the '
        'volume is gone, its allocation and quota with it',
        source=('unmanaging',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'unmanage_failed', 'volume',
        'the backend could not let go of the storage',
        source=('unmanaging',),
        values={'status': 'error_unmanaging'},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_manage', 'snapshot',
        'POST /manageable_snapshots: insert the snapshot of an existing '
        'storage object, sized as the worker measured it (in the '
        'transaction of snapshot_create, with force: its volume held, '
        'available or in-use, and the claim)',
        values={'status': 'creating', 'progress': '0%'},
        creates=True, workers_row='track', workers_status='managing',
        policy=snapshot_policies.MANAGE),
    Transition(
        'snapshot_unmanage', 'snapshot',
        'os-unmanage: let go of the snapshot, its storage left on the '
        'backend (not one of a group snapshot: Cinder\'s rule)',
        source=('available', 'error'),
        expect=ALONE,
        values={'status': 'unmanaging'},
        policy=snapshot_policies.UNMANAGE, workers_row='track'),
    Transition(
        'snapshot_unmanage_done', 'snapshot', 'the backend let go of the '
        'storage: the snapshot is gone, its allocation and quota with it',
        source=('unmanaging',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_unmanage_failed', 'snapshot',
        'the backend could not let go of the storage (Cinder\'s status for '
        'a failed delete or unmanage)',
        source=('unmanaging',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
]
