"""Reconciliation: holds whose client vanished ([volume]
attach_hold_timeout), rolled back as the client would have."""
from volapi.volume.transitions.blocks import ATTACHMENT_HOLD_EXPIRED
from volapi.volume.transitions.blocks import NO_ATTACHMENT_BEING_MADE
from volapi.volume.transitions.blocks import STATUS_AFTER_UNRESERVE
from volapi.volume.transitions.blocks import VOLUME_HOLD_EXPIRED
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged
from volapi.volume.transitions.table.shared import ATTACHMENT_REMOVED_VALUES


TABLE = [
    Transition(
        'reserve_hold_expired', 'volume',
        'an os-reserve nobody attached is dropped, as os-unreserve',
        source=('attaching',),
        requires=(VOLUME_HOLD_EXPIRED, NO_ATTACHMENT_BEING_MADE),
        values={'status': STATUS_AFTER_UNRESERVE},
        side='reconciliation'),
    Transition(
        'detaching_hold_expired', 'volume',
        'an os-begin_detaching nobody detached is rolled back, as '
        'os-roll_detaching',
        source=('detaching',),
        requires=(VOLUME_HOLD_EXPIRED,),
        values={'status': 'in-use'},
        side='reconciliation'),
    Transition(
        'attachment_hold_expired', 'attachment',
        'an attachment nobody completed is removed, as DELETE '
        '/attachments/{id} (with attachment_delete; its connection is '
        'terminated once that has committed)',
        source=('reserved', 'attaching'),
        requires=(ATTACHMENT_HOLD_EXPIRED, Unchanged('connector')),
        values=ATTACHMENT_REMOVED_VALUES,
        side='reconciliation'),
]
