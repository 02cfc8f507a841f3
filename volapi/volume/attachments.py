"""The attachment use cases of the attachments API, 3.27+ (see
:mod:`volapi.volume.api` for the conventions they share):
``(context, <id>, ..., version=None, authorize=None)``; ``authorize`` is
called with the attachment's volume (the attachment belongs to it).

Each change is a compare-and-swap of the volume row together with the
attachment row, in one transaction; the worker's part (initialize or
terminate the connection) follows once it has committed."""
import uuid

from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from db import exceptions as db_exc
import objects
from volapi.volume import api as volume_api
from volapi.volume import backend_call
from volapi.volume.transitions import engine

LOG = logging.getLogger(__name__)


def get(context, attachment_id):
    """(attachment, its volume), if the caller may see the volume."""
    attachment = objects.VolumeAttachment.get_by_id(context, attachment_id)
    try:
        volume = volume_api.get_volume(context, attachment.volume_id)
    except db_exc.NotFound:
        raise db_exc.NotFound('attachment', attachment_id) from None
    return attachment, volume


def _on_attachment(context, attachment_id, build, authorize):
    """Load (attachment, volume), ``authorize(volume)`` and run ``build(ctx,
    attachment, volume)`` in one transaction; returns (attachment,
    volume)."""
    return volume_api.in_one_transaction(
        context, lambda ctx: get(ctx, attachment_id),
        lambda ctx, found: build(ctx, *found),
        authorize and (lambda found: authorize(found[1])))


def _connector_values(connector, mode=None):
    return {'connector': jsonutils.dumps(connector),
            'attached_host': connector.get('host'),
            'mountpoint': connector.get('mountpoint'),
            'attach_mode': connector.get('mode') or mode or 'rw'}


def create(context, volume_id, instance_uuid, connector=None, mode=None,
           version=None, authorize=None):
    """Reserve the volume for ``instance_uuid`` (no connector) or start
    attaching it (connector): the attachment row is inserted in the
    transaction of the volume's compare-and-swap. With a connector the
    worker's connection info is stored once that has committed; if the
    worker fails, the attachment is removed again."""
    name = 'attachment_attach' if connector else 'attachment_reserve'
    attachment = objects.VolumeAttachment(
        context, id=str(uuid.uuid4()), volume_id=volume_id,
        instance_uuid=instance_uuid, attach_mode=mode,
        created_at=timeutils.utcnow(), deleted=False)
    attach_status = 'reserved'
    if connector:
        attach_status = 'attaching'
        for field, value in _connector_values(connector, mode).items():
            setattr(attachment, field, value)
    volume = volume_api.on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(ctx, name, volume, version=version),
        engine.prepare(ctx, 'attachment_new', attachment,
                       attach_status=attach_status)], authorize)
    if connector:
        try:
            _connect(context, volume, attachment, connector)
        except volume_api.BackendError:
            _remove(context, volume, attachment)
            raise
    return attachment


def _connect(context, volume, attachment, connector):
    info = backend_call.on_volume(context, volume,
                                  'initialize the connection to',
                                  'initialize_connection',
                                  connector=connector)
    try:
        engine.apply(context, 'attachment_connected', attachment,
                     connection_info=jsonutils.dumps(info))
    except db_exc.NotFound:
        _terminate_again(context, volume, attachment)
        raise


def _terminate_again(context, volume, attachment):
    # The attachment was deleted while the worker made its connection, and
    # the delete's termination may have run before the connection existed.
    # Terminating is idempotent: record and send one more, now that the
    # connection is made.
    LOG.info('attachment %s was deleted while it was connected: '
             'terminating its connection again', attachment.id)
    objects.Worker.track(context, 'attachment', attachment.id, 'terminating')
    volume_api.worker_client().terminate_connection(context, volume,
                                                    attachment)


def update(context, attachment_id, connector, version=None, authorize=None):
    """Give a reserved attachment its connector; the worker answers with
    the connection info. If the worker fails the attachment stays
    'attaching' (the caller deletes it or updates it again). Returns the
    attachment."""
    def build(ctx, attachment, volume):
        return [engine.prepare(ctx, 'attachment_update', volume,
                               version=version, attachment_id=attachment.id),
                engine.prepare(ctx, 'attachment_connect', attachment,
                               version=version, **_connector_values(
                                   connector, attachment.attach_mode))]

    attachment, volume = _on_attachment(context, attachment_id, build,
                                        authorize)
    _connect(context, volume, attachment, connector)
    return attachment


def complete(context, attachment_id, version=None, authorize=None):
    """os-complete: the volume is attached."""
    _on_attachment(context, attachment_id, lambda ctx, attachment, volume: [
        engine.prepare(ctx, 'attachment_complete', volume, version=version,
                       attachment_id=attachment.id),
        engine.prepare(ctx, 'attachment_attached', attachment,
                       version=version)], authorize)


# How often a removal reads an attachment again whose connector changed
# between its read and its swap.
REMOVAL_ATTEMPTS = 3


def _removing(remove, attachment_id):
    """``remove()``, again while it is refused because the attachment's
    connector changed between its read and its swap (a PUT in between):
    whether there is a connection to terminate is decided on the connector
    loaded."""
    for _ in range(REMOVAL_ATTEMPTS):
        try:
            return remove()
        except engine.TransitionRefused as refusal:
            if refusal.transition.name not in ('attachment_remove',
                                               'attachment_disconnect'):
                raise
    raise db_exc.ConcurrentUpdate('attachment', attachment_id,
                                  REMOVAL_ATTEMPTS)


def _remove(context, volume, attachment):
    # The worker failed to connect: there is no connection to terminate.
    engine.run(context,
               engine.prepare(context, 'attachment_delete', volume,
                              attachment_id=attachment.id),
               engine.prepare(context, 'attachment_remove', attachment))


def _disconnection(ctx, attachment):
    """The step removing ``attachment``: with the termination of its
    connection if the worker made one (its connector is stored)."""
    connected = attachment.connector is not None
    return engine.prepare(ctx, 'attachment_disconnect' if connected
                          else 'attachment_remove', attachment,
                          unconnected=not connected)


def _terminate(context, volume, attachment):
    if attachment.connector is not None:
        volume_api.worker_client().terminate_connection(context, volume,
                                                        attachment)


def delete(context, attachment_id, version=None, authorize=None):
    """Remove an attachment; the volume's status follows the attachments
    that remain. A connection the worker made is terminated afterwards,
    by the worker; a workers row written with the removal records it, so
    a message the broker never took is re-driven (volapi.volume.
    reconciler). Returns the volume's remaining attachments."""
    def build(ctx, attachment, volume):
        return [engine.prepare(ctx, 'attachment_delete', volume,
                               version=version, attachment_id=attachment.id),
                _disconnection(ctx, attachment)]

    attachment, volume = _removing(lambda: _on_attachment(
        context, attachment_id, build, authorize), attachment_id)
    _terminate(context, volume, attachment)
    return objects.VolumeAttachment.get_all(context, volume_id=volume.id)


def _attachment_to_force(context, volume, attachment_id):
    """The attachment os-force_detach removes: the one named, or the only
    one; None if the volume has no such attachment."""
    if attachment_id is None:
        attachments = objects.VolumeAttachment.get_all(context,
                                                       volume_id=volume.id)
        if len(attachments) > 1:
            raise volume_api.InvalidRequest(
                'Detach volume failed: More than one attachment, but no '
                'attachment_id provided.')
        return attachments[0] if attachments else None
    try:
        attachment = objects.VolumeAttachment.get_by_id(context,
                                                        attachment_id)
    except db_exc.NotFound:
        return None
    return attachment if attachment.volume_id == volume.id else None


def force_detach(context, volume_id, attachment_id=None, version=None,
                 authorize=None):
    """os-force_detach (admin): remove the attachment named (the only one
    if none is), whatever attach or detach is in progress; a connection
    the worker made is terminated as DELETE /attachments terminates it.
    The volume's statuses follow the attachments that remain, also when
    it has no such attachment (Cinder's roll-back of a bad detach)."""
    removed = []

    def build(ctx, volume):
        del removed[:]
        attachment = _attachment_to_force(ctx, volume, attachment_id)
        if attachment is None:
            return [engine.prepare(ctx, 'force_detach_settle', volume,
                                   version=version,
                                   attachment_id=attachment_id or '')]
        removed.append(attachment)
        return [engine.prepare(ctx, 'force_detach', volume, version=version,
                               attachment_id=attachment.id),
                _disconnection(ctx, attachment)]

    volume = _removing(lambda: volume_api.on_volume(
        context, volume_id, build, authorize), attachment_id)
    for attachment in removed:
        _terminate(context, volume, attachment)
