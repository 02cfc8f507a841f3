"""Transfers: a volume offered to another project, and taken."""
from volapi.policies import volume_transfer as transfer_policies
from volapi.volume.transitions.blocks import SNAPSHOTS_AVAILABLE
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged


TABLE = [
    Transition(
        'transfer_create', 'volume',
        'POST /volume-transfers: offer the volume (the transfer row is '
        'inserted in the same transaction)',
        source=('available',),
        requires=(SNAPSHOTS_AVAILABLE,),
        values={'status': 'awaiting-transfer'},
        policy=transfer_policies.CREATE),
    Transition(
        'transfer_new', 'transfer',
        'POST /volume-transfers: insert the transfer (in the transaction '
        'of transfer_create)',
        values={'deleted': False, 'accepted': False},
        creates=True),
    Transition(
        'transfer_delete', 'transfer',
        'DELETE /volume-transfers/{id}: withdraw the offer (with '
        'transfer_cancel)',
        values={'deleted': True, 'deleted_at': NOW},
        policy=transfer_policies.DELETE),
    Transition(
        'transfer_cancel', 'volume',
        'DELETE /volume-transfers/{id}: the volume is its owner\'s again '
        '(as in Cinder, a volume no longer awaiting the transfer is left as '
        'it is and the transfer goes all the same)',
        source=('awaiting-transfer',),
        values={'status': 'available'},
        lenient=True),
    Transition(
        'transfer_accepted', 'transfer',
        'POST /volume-transfers/{id}/accept: the transfer is taken (with '
        'transfer_accept, snapshot_transfer, the quota of both projects '
        'and the placement consumers moved, in one transaction)',
        values={'deleted': True, 'deleted_at': NOW, 'accepted': True,
                'destination_project_id': Param('project_id')},
        policy=transfer_policies.ACCEPT),
    Transition(
        'transfer_accept', 'volume',
        'POST /volume-transfers/{id}/accept: the volume goes to the '
        'accepting project and user (its size and type as the quota '
        'charges read them)',
        source=('awaiting-transfer',),
        requires=(Unchanged('size'), Unchanged('volume_type_id')),
        values={'status': 'available', 'project_id': Param('project_id'),
                'user_id': Param('user_id')}),
    Transition(
        'snapshot_transfer', 'snapshot',
        'POST /volume-transfers/{id}/accept: each snapshot goes with its '
        'volume (unless the transfer says no_snapshots)',
        source=('available',),
        values={'project_id': Param('project_id'),
                'user_id': Param('user_id')}),
]
