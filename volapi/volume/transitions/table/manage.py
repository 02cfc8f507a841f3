"""Existing storage taken into volapi as a volume (``cinder manage``) and
let go again (``cinder unmanage``): the API's transitions, then the
worker's."""
from volapi.policies import manageable_volumes as manage_policies
from volapi.volume.transitions.blocks import NO_ATTACHMENTS
from volapi.volume.transitions.blocks import NO_SNAPSHOTS
from volapi.volume.transitions.table.shared import DELETE_EXPECT
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
]
