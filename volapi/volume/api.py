"""The volume service: every volume use case, one function each.

Creating a volume, snapshots and attachments have their own modules
beside this one (:mod:`.create`, :mod:`.snapshots`, :mod:`.attachments`);
they share what is here.

Every use case takes ``(context, <resource id>, ..., version=None,
authorize=None)``: it loads the resource in the transaction that changes
it, calls ``authorize(resource)`` (the API's policy check; it raises to
refuse), then runs the transitions of the table
(:mod:`volapi.volume.transitions`) and the rows that go with them in that
ONE transaction, retried whole. Only after it has committed does it cast
to a volume worker (``rpc.volume.VolumeWorkerClient``). A failed condition
raises ``engine.TransitionRefused`` naming it; a missing or foreign
resource raises ``db.exceptions.NotFound``.

``version`` is the request's microversion; internal callers pass None and
are bound neither by microversions nor by the table's admin flags.
"""
import threading
import typing
import uuid

from oslo_log import log as logging
from oslo_utils import timeutils

from db import exceptions as db_exc
from db import session
import objects
from objects import default_type as default_types
from objects import metadata as metadata_rows
from objects import volume_list
from objects import volume_type as type_obj
from volapi import conf as volapi_conf
from volapi.volume import claims
from volapi.volume.transitions import engine

LOG = logging.getLogger(__name__)
CONF = volapi_conf.CONF

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


class ReferenceNotFound(Exception):
    """The request names something that does not exist (HTTP 404)."""


class BackendError(Exception):
    """A worker call failed; the state change was rolled back (or, where
    the message says so, left for the caller to undo)."""


class WorkerUnavailable(BackendError):
    """No live worker serves the volume (HTTP 503): none heartbeats, or
    none answered in time. Nothing was changed."""


# -- loading what a request names, and changing it -------------------------

def owned(context, obj, project_id):
    """``obj`` if the caller's project owns it (or the caller is an admin);
    NotFound otherwise, so other projects' ids are not revealed."""
    if context.is_admin or project_id == context.project_id:
        return obj
    raise db_exc.NotFound(obj.model.cas_name, obj.id)


def get_volume(context, volume_id):
    """The volume, if the caller may see it (see :func:`owned`)."""
    return volume_list.get(context, volume_id)


def in_one_transaction(context, load, build, authorize=None):
    """``load(ctx)`` the resource, ``authorize(resource)``, and run what
    ``build(ctx, resource)`` returns (steps and callables ``fn(ctx)``), all
    in ONE transaction, retried whole: the compare-and-swap works on what
    this very transaction read. Returns the resource."""
    def transaction(ctx):
        resource = load(ctx)
        if authorize is not None:
            authorize(resource)
        for action in build(ctx, resource):
            if isinstance(action, engine.Step):
                action.execute(ctx)
            else:
                action(ctx)
        return resource

    return engine.run(context, transaction)[0]


def on_volume(context, volume_id, build, authorize=None):
    """:func:`in_one_transaction` for the volume ``volume_id``."""
    return in_one_transaction(
        context, lambda ctx: get_volume(ctx, volume_id), build, authorize)


def claiming_on_volume(context, volume_id, build, authorize=None):
    """:func:`on_volume` for a transition that claims (extend, snapshot
    create): its transaction runs at READ COMMITTED from its first
    statement (PostgreSQL), so concurrent claims of one project queue on
    its usage row instead of failing with serialization errors and
    starting over. Its conditions are the row's own columns, which a
    waiting UPDATE re-checks on the row it finally gets."""
    def load(ctx):
        claims.read_committed(ctx)
        return get_volume(ctx, volume_id)
    return in_one_transaction(context, load, build, authorize)


def _one(name, **params):
    """A build of the lone transition ``name`` of the volume."""
    return lambda ctx, volume: [engine.prepare(ctx, name, volume, **params)]


# -- reading ----------------------------------------------------------------

def get_volume_details(context, volume_id, authorize=None):
    """(volume as its view reads it, its attachments), with its metadata
    and type: one statement (session.lone_read) for a volume that is not
    attached; else, once it is found attached, the volume again and its
    attachments, read in one transaction."""
    volume = volume_list.get_shown(context, volume_id)
    if authorize is not None:
        authorize(volume)
    if volume.attach_status == 'detached':
        return volume, ()
    with session.reader.connection.using(context):
        volume = volume_list.get_shown(context, volume_id)
        if authorize is not None:
            authorize(volume)  # a transfer may have moved it meanwhile
        attachments = volume_list.load_attachments(context, [volume])
        return volume, attachments.get(volume.id, ())


class Page(typing.NamedTuple):
    """A page of volumes; with details, each one's attachments and image
    metadata ({volume id: ...}); with a count, how many match in all."""
    volumes: list
    attachments: dict = None
    image_metadata: dict = None
    count: int = None


def get_all(context, detailed=False, with_count=False, **query):
    """The Page of the volumes ``query`` (as objects.volume_list.get_all
    takes it) finds, read in one transaction."""
    with session.reader.connection.using(context):
        page = Page(volume_list.get_all(context, **query))
        if detailed:
            page = page._replace(
                attachments=volume_list.load_details(context, page.volumes),
                image_metadata=volume_list.load_image_metadata(
                    context, page.volumes))
        if with_count:
            page = page._replace(count=volume_list.count(
                context, query.get('project_id'), query.get('filters')))
    return page


def zone(availability_zone):
    """The availability zone a new volume, group or backup is made in:
    the one asked for, which must be the configured one, or that one."""
    chosen = availability_zone or CONF.api.storage_availability_zone
    if chosen != CONF.api.storage_availability_zone:
        raise InvalidRequest(
            "Invalid input received: Availability zone '%s' is invalid."
            % chosen)
    return chosen


def default_type(context, make=True):
    """The type of a volume created without one: the project's own default
    (objects.default_type), else ``[api] default_volume_type`` if it
    exists, else ``__DEFAULT__`` (made again if it is missing, with
    ``make``; else VolumeTypeNotFound)."""
    try:
        return default_types.type_for(
            context, context.project_id,
            CONF.api.default_volume_type or type_obj.DEFAULT_TYPE_NAME)
    except type_obj.VolumeTypeNotFound:
        pass
    if not make:
        return type_obj.VolumeType.get(context, type_obj.DEFAULT_TYPE_ID)
    return type_obj.VolumeType.get_default(context)


# -- describing, deleting (creating: volapi.volume.create) -----------------

def update(context, volume_id, values, metadata=None, authorize=None):
    """Rename (``values``: display_name, display_description) and, with
    ``metadata``, make it the whole metadata: one compare-and-swap, so a
    refused metadata change (in 'maintenance') renames nothing either."""
    if metadata is not None:
        change_metadata(context, volume_id, authorize, values,
                        lambda ctx, volume: metadata_rows.VOLUME.replace(
                            ctx, volume.id, metadata))
    elif values:
        on_volume(context, volume_id, _one('update', reflect=False, **values),
                  authorize)


def delete(context, volume_id, cascade=False, force=False, version=None,
           authorize=None):
    """Start deleting a volume (and, with ``cascade``, its snapshots);
    ``force`` (admin, 3.23) allows any status but 'deleting'.

    The snapshots are read and moved to 'deleting' in the transaction whose
    compare-and-swap has just taken the volume, as that swap saw them; a
    snapshot create must take the volume row too, so none can slip in
    between."""
    cascaded = []

    def build(ctx, volume):
        del cascaded[:]  # a retried transaction starts over
        yield engine.prepare(ctx, 'force_delete' if force else 'delete',
                             volume, version=version, cascade=bool(cascade))
        if cascade:
            for snapshot in objects.Snapshot.get_all_of_held_volume(
                    ctx, volume.id):
                if snapshot.status == 'deleting':
                    continue  # its own delete is under way
                yield engine.prepare(ctx, 'snapshot_cascade_delete',
                                     snapshot)
                cascaded.append(snapshot)

    volume = on_volume(context, volume_id, build, authorize)
    client = worker_client()
    for snapshot in cascaded:
        client.delete_snapshot(context, snapshot)
    client.delete_volume(context, volume)


# -- metadata -----------------------------------------------------------------

def get_metadata(context, volume_id, authorize=None):
    volume = get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    return metadata_rows.VOLUME.get(context, volume.id)


def change_metadata(context, volume_id, authorize, values, change):
    """The ``update_metadata`` transition (with the volume columns
    ``values``) and ``change(ctx, volume)`` of the rows (metadata of any
    kind), in one transaction; returns what ``change`` returned."""
    result = []

    def build(ctx, volume):
        del result[:]
        yield engine.prepare(ctx, 'update_metadata', volume, reflect=False,
                             **values)
        result.append(change(ctx, volume))

    on_volume(context, volume_id, build, authorize)
    return result[0]


def update_metadata(context, volume_id, metadata, authorize=None):
    """Set the keys of ``metadata``; the others stay."""
    change_metadata(context, volume_id, authorize, {},
                    lambda ctx, volume: metadata_rows.VOLUME.update(
                        ctx, volume.id, metadata))


def replace_metadata(context, volume_id, metadata, authorize=None):
    """Make ``metadata`` the volume's whole metadata."""
    update(context, volume_id, {}, metadata, authorize)


def delete_metadata(context, volume_id, key, authorize=None):
    """False if the volume has no such key."""
    return change_metadata(context, volume_id, authorize, {},
                           lambda ctx, volume: metadata_rows.VOLUME.delete(
                               ctx, volume.id, key))


# -- actions --------------------------------------------------------------------

def _read_free(name, context, volume_id, version, authorize, own_allowed):
    # The common case, the caller's own volume in a status the transition
    # takes, is one UPDATE when the policy allows the action on the
    # caller's own volumes (``own_allowed``). Anything else is loaded
    # first, to check the policy on it and explain a refusal.
    if own_allowed and engine.apply_to_own(context, name, volume_id,
                                           version=version):
        return
    # Nothing reads the volume afterwards: no read-back of values computed
    # in SQL.
    on_volume(context, volume_id,
              _one(name, version=version, reflect=False), authorize)


def reserve(context, volume_id, version=None, authorize=None,
            own_allowed=False):
    """os-reserve: hold the volume for an attach."""
    _read_free('reserve', context, volume_id, version, authorize,
               own_allowed)


def unreserve(context, volume_id, version=None, authorize=None,
              own_allowed=False):
    """os-unreserve: drop the hold."""
    _read_free('unreserve', context, volume_id, version, authorize,
               own_allowed)


def begin_detaching(context, volume_id, version=None, authorize=None,
                    own_allowed=False):
    _read_free('begin_detaching', context, volume_id, version, authorize,
               own_allowed)


def roll_detaching(context, volume_id, version=None, authorize=None,
                   own_allowed=False):
    _read_free('roll_detaching', context, volume_id, version, authorize,
               own_allowed)


def extend(context, volume_id, new_size, version=None, authorize=None):
    volume = claiming_on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(ctx, 'extend', volume, version=version,
                       new_size=new_size),
        lambda ctx: claims.resize_volume(ctx, volume, new_size)], authorize)
    worker_client().extend_volume(context, volume, new_size)
    return volume


def attach(context, volume_id, instance_uuid=None, host_name=None,
           mountpoint=None, mode='rw', version=None, authorize=None):
    """os-attach: the volume becomes in-use and an attachment row records
    who holds it, in one transaction. Returns the attachment's id."""
    now = timeutils.utcnow()
    attachment_id = str(uuid.uuid4())

    def build(ctx, volume):
        attachment = objects.VolumeAttachment(
            ctx, id=attachment_id, volume_id=volume.id,
            instance_uuid=instance_uuid, attached_host=host_name,
            mountpoint=mountpoint, attach_mode=mode, created_at=now,
            deleted=False)
        return [engine.prepare(ctx, 'attach', volume, version=version,
                               mode=mode),
                engine.prepare(ctx, 'attachment_new', attachment,
                               attach_status='attached', attach_time=now)]

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

    def build(ctx, volume):
        yield engine.prepare(ctx, 'reset_status', volume, version=version,
                             **params)
        if attach_status == 'detached':
            yield lambda ctx: objects.VolumeAttachment.remove_all(
                ctx, volume.id)

    on_volume(context, volume_id, build, authorize)


def retype(context, volume_id, new_type, migration_policy='never',
           version=None, authorize=None):
    """Change the type: in place when the volume's pool has what the new
    type requires, else by a migration (``migration_policy`` 'on-demand',
    volapi.volume.migrations) or not at all ('never')."""
    from volapi.volume import migrations
    volume_type = type_obj.VolumeType.get(context, new_type,
                                          include_private=context.is_admin)
    volume = get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    if migrations.retype(context, volume, volume_type, migration_policy,
                         version=version, authorize=authorize):
        return
    # In place: on the pool just read (the swap proves it still is).
    planned_host = volume.host
    volume = claiming_on_volume(context, volume_id, lambda ctx, loaded: [
        engine.prepare(
            ctx, 'retype', loaded, version=version,
            new_type_id=volume_type.id, planned_host=planned_host,
            multiattach=type_obj.is_multiattach(volume_type.extra_specs)),
        lambda ctx: claims.retype_volume(ctx, loaded, volume_type.id)],
        authorize)
    worker_client().retype(context, volume, volume_type.id)


def set_bootable(context, volume_id, bootable, version=None,
                 authorize=None):
    on_volume(context, volume_id, _one('set_bootable', version=version,
                                       reflect=False, bootable=bootable),
              authorize)


def update_readonly_flag(context, volume_id, readonly, version=None,
                         authorize=None):
    on_volume(context, volume_id, lambda ctx, volume: [
        engine.prepare(ctx, 'update_readonly_flag', volume,
                       version=version),
        lambda ctx: metadata_rows.VOLUME_ADMIN.update(
            ctx, volume.id, {'readonly': str(bool(readonly))})],
        authorize)
