"""The volume service layer: one function per action.

Each function compiles its transitions from the table
(:mod:`volapi.volume.transitions`), runs them, together with the rows they
insert, in ONE transaction, and only after that transaction has committed
casts to a volume worker (``rpc.volume.VolumeWorkerClient``). A failed
condition raises ``engine.TransitionRefused`` naming it; a missing or
foreign resource raises ``db.exceptions.NotFound``.

``version`` arguments are the request's microversion; internal callers pass
None and are bound neither by microversions nor by the table's admin flags.
"""
import threading
import uuid

import oslo_messaging
import sqlalchemy as sa
from oslo_log import log as logging
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from db import api as db_api
from db import exceptions as db_exc
from db import models
from db import session
import objects
from objects import volume_list
from objects import volume_type as type_obj
from volapi.volume import cluster
from volapi.volume.transitions import engine

LOG = logging.getLogger(__name__)

_client_lock = threading.Lock()
_client = None


def worker_client():
    """The process's VolumeWorkerClient, made on first use."""
    global _client
    with _client_lock:
        if _client is None:
            from rpc import volume as volume_rpc
            _client = volume_rpc.VolumeWorkerClient()
        return _client


def reset_worker_client():
    """Forget the client (tests switch transports)."""
    global _client
    with _client_lock:
        _client = None


class InvalidRequest(Exception):
    """The request cannot be served as asked (HTTP 400)."""


class BackendError(Exception):
    """A worker call failed; the state change was rolled back (or, where
    the message says so, left for the caller to undo)."""


class WorkerUnavailable(BackendError):
    """No live worker serves the volume (HTTP 503): none heartbeats, or
    none answered in time. Nothing was changed."""


# -- loading what a request names ---------------------------------------------

def _owned(context, obj, project_id):
    if context.is_admin or project_id == context.project_id:
        return obj
    raise db_exc.NotFound(obj.model.cas_name, obj.id)


def get_volume(context, volume_id):
    """The volume, if the caller's project owns it (or the caller is an
    admin); NotFound otherwise, so other projects' ids are not revealed."""
    return volume_list.get(context, volume_id)


def get_snapshot(context, snapshot_id):
    snapshot = objects.Snapshot.get_by_id(context, snapshot_id)
    return _owned(context, snapshot, snapshot.project_id)


def get_attachment(context, attachment_id):
    """(attachment, its volume), if the caller owns the volume."""
    attachment = objects.VolumeAttachment.get_by_id(context, attachment_id)
    try:
        volume = get_volume(context, attachment.volume_id)
    except db_exc.NotFound:
        raise db_exc.NotFound('attachment', attachment_id) from None
    return attachment, volume


# -- rows inserted with a transition --------------------------------------

def _insert(context, model, values):
    with session.writer.connection.using(context) as conn:
        conn.execute(sa.insert(model.__table__).values(**values))


def _upsert_admin_metadata(context, volume_id, key, value):
    """Callers hold the volume row (their CAS changed it), so no one else
    inserts this key concurrently."""
    table = models.VolumeAdminMetadata.__table__
    with session.writer.connection.using(context) as conn:
        updated = conn.execute(
            table.update().where(table.c.volume_id == volume_id,
                                 table.c.key == key)
            .values(value=value)).rowcount
        if not updated:
            conn.execute(table.insert().values(volume_id=volume_id, key=key,
                                               value=value))


# -- volumes --------------------------------------------------------------------

def created(context, volume):
    """POST /volumes inserted ``volume`` in 'creating', with its workers row,
    and committed: cast it to a worker."""
    worker_client().create_volume(context, volume)


def delete(context, volume, cascade=False, force=False, version=None):
    """Start deleting a volume (and, with ``cascade``, its snapshots);
    ``force`` (admin, 3.23) allows any status but 'deleting'.

    The snapshots are read and moved to 'deleting' in the transaction whose
    compare-and-swap has just taken the volume; a snapshot create must take
    the volume row too, so none can slip in between."""
    step = engine.prepare(context,
                               'force_delete' if force else 'delete', volume,
                               version=version, cascade=bool(cascade))
    cascaded = []

    def take_snapshots(ctx):
        del cascaded[:]  # a retried transaction starts over
        if not cascade:
            return
        for snapshot in objects.Snapshot.get_all(ctx, volume_id=volume.id):
            if snapshot.status == 'deleting':
                continue  # its own delete is under way
            engine.prepare(ctx, 'snapshot_cascade_delete',
                                snapshot).execute(ctx)
            cascaded.append(snapshot)

    engine.run(context, step, take_snapshots)
    client = worker_client()
    for snapshot in cascaded:
        client.delete_snapshot(context, snapshot)
    client.delete_volume(context, volume)


def on_volume(context, volume_id, build, authorize=None):
    """Load the volume (as the caller may see it) and run what ``build(ctx,
    volume)`` returns (steps and callables) in ONE transaction, retried
    whole: the compare-and-swap works on what this very transaction read.
    ``authorize(volume)`` runs in between (the API's policy check).
    Returns the volume."""
    def transaction(ctx):
        volume = get_volume(ctx, volume_id)
        if authorize is not None:
            authorize(volume)
        for action in build(ctx, volume):
            if isinstance(action, engine.Step):
                action.execute(ctx)
            else:
                action(ctx)
        return volume

    return engine.run(context, transaction)[0]


def _simple(name):
    def action(context, volume_id, version=None, authorize=None,
               own_allowed=False):
        # The common case, the caller's own volume in a status the
        # transition takes, is one UPDATE when the policy allows the action
        # on the caller's own volumes (``own_allowed``). Anything else is
        # loaded first, to check the policy on it and explain a refusal.
        if own_allowed and engine.apply_to_own(context, name, volume_id,
                                                    version=version):
            return
        # Nothing reads the volume afterwards: no read-back of values
        # computed in SQL.
        on_volume(context, volume_id, lambda ctx, volume: [
            engine.prepare(ctx, name, volume, version=version,
                                reflect=False)], authorize)
    action.__name__ = name
    action.__doc__ = 'Transition %r of the volume (see the table).' % name
    return action


reserve = _simple('reserve')
unreserve = _simple('unreserve')
begin_detaching = _simple('begin_detaching')
roll_detaching = _simple('roll_detaching')


def extend(context, volume_id, new_size, version=None, authorize=None):
    volume = on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(ctx, 'extend', volume, version=version,
                            new_size=new_size)], authorize)
    worker_client().extend_volume(context, volume, new_size)
    return volume


def attach(context, volume_id, instance_uuid=None, host_name=None,
           mountpoint=None, mode='rw', version=None, authorize=None):
    """os-attach: the volume becomes in-use and an attachment row records
    who holds it, in one transaction. Returns the attachment's id."""
    now = timeutils.utcnow()
    attachment_id = str(uuid.uuid4())

    def build(ctx, volume):
        return [engine.prepare(ctx, 'attach', volume, version=version,
                                    mode=mode),
                lambda ctx: _insert(ctx, models.VolumeAttachment, dict(
                    id=attachment_id, volume_id=volume.id,
                    instance_uuid=instance_uuid, attached_host=host_name,
                    mountpoint=mountpoint, attach_mode=mode,
                    attach_status='attached', attach_time=now,
                    created_at=now, deleted=False))]

    on_volume(context, volume_id, build, authorize)
    return attachment_id


def _attachment_of(context, volume, attachment_id):
    """The attachment to detach: the one named, or the only one."""
    if attachment_id is not None:
        attachment = objects.VolumeAttachment.get_by_id(context,
                                                        attachment_id)
        if attachment.volume_id != volume.id:
            raise db_exc.NotFound('attachment', attachment_id)
        return attachment
    attachments = objects.VolumeAttachment.get_all(context,
                                                   volume_id=volume.id)
    if len(attachments) == 1:
        return attachments[0]
    if not attachments:
        raise InvalidRequest('Volume %s has no attachments to detach.'
                             % volume.id)
    raise InvalidRequest('Volume %s has several attachments: give the '
                         'attachment_id to detach.' % volume.id)


def detach(context, volume_id, attachment_id=None, version=None,
           authorize=None):
    """os-detach: remove an attachment; the volume becomes available, or
    stays in-use if other attachments remain (decided in SQL)."""
    def build(ctx, volume):
        attachment = _attachment_of(ctx, volume, attachment_id)
        return [engine.prepare(ctx, 'detach', volume, version=version,
                                    attachment_id=attachment.id),
                engine.prepare(ctx, 'attachment_remove', attachment)]

    on_volume(context, volume_id, build, authorize)


def reset_status(context, volume_id, status=None, attach_status=None,
                 migration_status=None, version=None, authorize=None):
    """Admin: set the statuses given; 'detached' also ends every
    attachment. The workers row goes: nothing is in flight any more."""
    params = {name: value for name, value in (
        ('status', status), ('attach_status', attach_status),
        ('migration_status', migration_status)) if value is not None}
    if params.get('migration_status') == 'none':
        params['migration_status'] = None
    now = timeutils.utcnow()

    def build(ctx, volume):
        yield engine.prepare(ctx, 'reset_status', volume,
                                  version=version, **params)
        if attach_status == 'detached':
            yield lambda ctx: db_api.conditional_update(
                ctx, models.VolumeAttachment,
                {'attach_status': 'detached', 'detach_time': now,
                 'deleted': True, 'deleted_at': now},
                {'volume_id': volume.id})

    on_volume(context, volume_id, build, authorize)


def retype(context, volume_id, new_type, migration_policy='never',
           version=None, authorize=None):
    """Change the type on the same backend (no migration is ever made,
    so ``migration_policy`` only documents the caller's consent)."""
    volume_type = type_obj.VolumeType.get(context, new_type,
                                          include_private=context.is_admin)
    new_type_id = volume_type.id
    multiattach = type_obj.is_multiattach(volume_type.extra_specs)
    volume = on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(
            ctx, 'retype', volume, version=version, new_type_id=new_type_id,
            changes_multiattach=multiattach != bool(volume.multiattach))],
        authorize)
    worker_client().retype(context, volume, new_type_id)


def update_readonly_flag(context, volume_id, readonly, version=None,
                         authorize=None):
    on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(ctx, 'update_readonly_flag', volume,
                            version=version),
        lambda ctx: _upsert_admin_metadata(ctx, volume.id, 'readonly',
                                           str(bool(readonly)))],
        authorize)


# -- snapshots ------------------------------------------------------------------

def create_snapshot(context, volume, name=None, description=None,
                    force=False, metadata=None, version=None):
    """Insert a snapshot in 'creating' in the transaction whose
    compare-and-swap holds its volume, then cast its creation."""
    step = engine.prepare(context, 'snapshot_create', volume,
                               version=version, force=bool(force))
    snapshot_id = str(uuid.uuid4())
    now = timeutils.utcnow()

    def insert(ctx):
        _insert(ctx, models.Snapshot, dict(
            id=snapshot_id, volume_id=volume.id, user_id=context.user_id,
            project_id=context.project_id, status='creating', progress='0%',
            volume_size=volume.size, display_name=name,
            display_description=description,
            volume_type_id=volume.volume_type_id, created_at=now,
            deleted=False))
        for key, value in (metadata or {}).items():
            _insert(ctx, models.SnapshotMetadata,
                    dict(snapshot_id=snapshot_id, key=key, value=value))
        engine.track_worker(ctx, 'snapshot', snapshot_id, 'creating')

    engine.run(context, step, insert)
    snapshot = objects.Snapshot.get_by_id(context, snapshot_id)
    worker_client().create_snapshot(context, snapshot)
    return snapshot


def delete_snapshot(context, snapshot, version=None, force=False):
    """Start deleting the snapshot (``force``, admin: from any status but
    'deleting'); a worker removes it."""
    name = 'snapshot_force_delete' if force else 'snapshot_delete'
    engine.run(context, engine.prepare(
        context, name, snapshot, version=version))
    worker_client().delete_snapshot(context, snapshot)


def reset_snapshot_status(context, snapshot, status, version=None):
    """Admin: set the snapshot's status, whatever it is. The workers row
    goes: nothing is in flight any more."""
    engine.run(context, engine.prepare(
        context, 'snapshot_reset_status', snapshot, version=version,
        status=status))


def update_snapshot(context, snapshot, values):
    """Name/description: not a state change, but still written only while
    the snapshot exists (one compare-and-swap on its id)."""
    if values:
        snapshot.conditional_update_or_raise(values, expected_values={})
    return snapshot


# -- attachments (3.27+) ---------------------------------------------------------

def _connector_values(connector, mode=None):
    return {'connector': jsonutils.dumps(connector),
            'attached_host': connector.get('host'),
            'mountpoint': connector.get('mountpoint'),
            'attach_mode': connector.get('mode') or mode or 'rw'}


def attachment_create(context, volume, instance_uuid, connector=None,
                      mode=None, version=None):
    """Reserve the volume for ``instance_uuid`` (no connector) or start
    attaching it (connector): the attachment row is inserted in the
    transaction of the volume's compare-and-swap. With a connector the
    worker's connection info is stored once that has committed; if the
    worker fails, the attachment is removed again."""
    name = 'attachment_attach' if connector else 'attachment_reserve'
    step = engine.prepare(context, name, volume, version=version)
    attachment_id = str(uuid.uuid4())
    now = timeutils.utcnow()
    row = dict(id=attachment_id, volume_id=volume.id,
               instance_uuid=instance_uuid, attach_mode=mode,
               attach_status='reserved', created_at=now, deleted=False)
    if connector:
        row.update(_connector_values(connector, mode),
                   attach_status='attaching')
    engine.run(context, step,
                    lambda ctx: _insert(ctx, models.VolumeAttachment, row))
    attachment = objects.VolumeAttachment.get_by_id(context, attachment_id)
    if connector:
        try:
            _connect(context, volume, attachment, connector)
        except BackendError:
            _remove_attachment(context, volume, attachment)
            raise
    return attachment


def _connect(context, volume, attachment, connector):
    if not cluster.has_live_member(context, volume):
        raise WorkerUnavailable('Unable to initialize the connection to '
                                'volume %s: no volume worker serving it is '
                                'up.' % volume.id)
    try:
        info = worker_client().initialize_connection(context, volume,
                                                     connector)
    except oslo_messaging.MessagingTimeout:
        LOG.warning('initialize_connection of volume %s timed out',
                    volume.id)
        raise WorkerUnavailable('Unable to initialize the connection to '
                                'volume %s: no volume worker answered.'
                                % volume.id)
    except Exception as e:
        LOG.exception('initialize_connection of volume %s failed', volume.id)
        # The worker's own words stay in its log: they name paths.
        raise BackendError('Unable to initialize the connection to volume '
                           '%s: the volume worker failed (%s).' % (
                               volume.id, getattr(e, 'exc_type',
                                                  type(e).__name__)))
    engine.apply(context, 'attachment_connected', attachment,
                      connection_info=jsonutils.dumps(info))


def attachment_update(context, volume, attachment, connector,
                      version=None):
    """Give a reserved attachment of ``volume`` its connector; the worker
    answers with the connection info. If the worker fails the attachment
    stays 'attaching' (the caller deletes it or updates it again)."""
    volume_step = engine.prepare(
        context, 'attachment_update', volume, version=version,
        attachment_id=attachment.id)
    attachment_step = engine.prepare(
        context, 'attachment_connect', attachment, version=version,
        **_connector_values(connector, attachment.attach_mode))
    engine.run(context, volume_step, attachment_step)
    _connect(context, volume, attachment, connector)
    return attachment


def attachment_complete(context, volume, attachment, version=None):
    engine.run(
        context,
        engine.prepare(context, 'attachment_complete', volume,
                            version=version, attachment_id=attachment.id),
        engine.prepare(context, 'attachment_attached', attachment,
                            version=version))


def _remove_attachment(context, volume, attachment, version=None):
    engine.run(
        context,
        engine.prepare(context, 'attachment_delete', volume,
                            version=version, attachment_id=attachment.id),
        engine.prepare(context, 'attachment_remove', attachment))


def attachment_delete(context, volume, attachment, version=None):
    """Remove an attachment of ``volume``; the volume's status follows the
    attachments that remain. A connection the worker made is terminated
    afterwards. Returns the volume's remaining attachments."""
    had_connection = attachment.connector is not None
    _remove_attachment(context, volume, attachment, version=version)
    if had_connection:
        worker_client().terminate_connection(context, volume, attachment)
    return objects.VolumeAttachment.get_all(context, volume_id=volume.id)
