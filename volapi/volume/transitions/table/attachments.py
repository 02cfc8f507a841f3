"""Attachments through the attachments API (3.27+): the volume's side, then
the attachment's own rows."""
from volapi.api import microversion as mv
from volapi.volume.transitions.blocks import ATTACH_STATUS_AFTER_DETACH
from volapi.volume.transitions.blocks import HAS_ATTACHMENT
from volapi.volume.transitions.blocks import NOT_CONNECTED
from volapi.volume.transitions.blocks import STATUS_AFTER_ATTACHMENT_DELETE
from volapi.volume.transitions.blocks import WHEN_MULTIATTACH
from volapi.volume.transitions.vocabulary import Also
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged
from volapi.volume.transitions.table.shared import NOT_MIGRATING
from volapi.volume.transitions.table.shared import ATTACHMENT_REMOVED_VALUES


TABLE = [
    Transition(
        'attachment_reserve', 'volume',
        'POST /attachments without connector: the attachment row '
        '(reserved) is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'reserved'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_attach', 'volume',
        'POST /attachments with a connector: the attachment row (attaching) '
        'is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'attaching'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_update', 'volume',
        'PUT /attachments/{id} with a connector (with attachment_connect)',
        source=('reserved', 'attaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'attaching'},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_complete', 'volume',
        'os-complete: the volume is attached (with attachment_attached)',
        source=('attaching', 'reserved', 'in-use'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'in-use', 'attach_status': 'attached'},
        min_version=mv.NEW_ATTACH_COMPLETION),
    Transition(
        'attachment_delete', 'volume',
        'DELETE /attachments/{id} (with attachment_remove)',
        source=('available', 'reserved', 'attaching', 'in-use', 'detaching',
                'error_attaching', 'error_detaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_ATTACHMENT_DELETE,
                'attach_status': ATTACH_STATUS_AFTER_DETACH},
        min_version=mv.NEW_ATTACH),
    # Attachments ------------------------------------------------------------
    Transition(
        'attachment_new', 'attachment',
        'os-attach, POST /attachments: insert the attachment (in the '
        'transaction of attach, attachment_reserve or attachment_attach)',
        values={'attach_status': Param('attach_status'),
                'attach_time': Param('attach_time', optional=True)},
        creates=True),
    Transition(
        'attachment_connect', 'attachment',
        'PUT /attachments/{id}: store the connector before the worker '
        'initializes the connection',
        source=('reserved', 'attaching'),
        values={'attach_status': 'attaching',
                'connector': Param('connector'),
                'attached_host': Param('attached_host', optional=True),
                'mountpoint': Param('mountpoint', optional=True),
                'attach_mode': Param('attach_mode', optional=True)},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_connected', 'attachment',
        "store the worker's connection_info",
        source=('attaching',),
        requires=(Unchanged('connector'),),
        values={'connection_info': Param('connection_info')},
        min_version=mv.NEW_ATTACH),
    Transition(
        'attachment_attached', 'attachment',
        'os-complete: the consumer has connected',
        source=('attaching',),
        values={'attach_status': 'attached', 'attach_time': NOW},
        min_version=mv.NEW_ATTACH_COMPLETION),
    Transition(
        'attachment_remove', 'attachment',
        'os-detach / DELETE /attachments/{id}: soft-delete the attachment',
        requires=(NOT_CONNECTED,),
        values=ATTACHMENT_REMOVED_VALUES),
    Transition(
        'attachment_disconnect', 'attachment',
        'DELETE /attachments/{id} of an attachment the worker connected: '
        'soft-delete it; the workers row records the termination of its '
        'connection, which the worker then makes (or a peer re-drives)',
        # The workers row and the cast terminate the connector loaded.
        requires=(Unchanged('connector'),),
        values=ATTACHMENT_REMOVED_VALUES,
        workers_row='track', workers_status='terminating'),
]
