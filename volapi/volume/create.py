"""POST /volumes: the create use case (see :mod:`volapi.volume.api` for
the conventions it shares). What the new volume is made of (its type,
size, source and pool) is read first, in one read-only transaction; the
insert, its claim and the holds of its source and its type are then ONE
transaction whose compare-and-swaps decide, and only once it committed is
the creation cast to a worker.

A source is a snapshot, a volume or a backup. A backup is not held but
taken, when a pool holds the volume: its swap to 'restoring' is in the
insert's transaction, so a concurrent delete of the backup conflicts.
The volume's creation restores it (``volume.backup_id``) and its ending
transition ends the backup's restore (several volumes may be made from
one backup at once: the last to end makes it available)."""
import contextlib
import uuid

from db import conditions as cond
from db import exceptions as db_exc
from db import session
import objects
from objects import metadata as metadata_rows
from objects import volume_type as type_obj
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume import placement_create
from volapi.volume import scheduler
from volapi.volume.transitions import engine
from volapi.volume.transitions import table


def _volume_type(context, wanted, source_type_id):
    """The new volume's type; VolumeTypeNotFound only if it is the default
    type and that is missing (see default_type)."""
    if wanted:
        try:
            return type_obj.VolumeType.get(
                context, wanted, include_private=context.is_admin)
        except type_obj.VolumeTypeNotFound:
            raise volume_api.ReferenceNotFound(
                'Volume type with name %s could not be found.' % wanted
            ) from None
    if source_type_id:
        try:
            return type_obj.VolumeType.get(context, source_type_id)
        except type_obj.VolumeTypeNotFound:
            pass
    return volume_api.default_type(context, make=False)


def _size(size, source_size, what):
    if size is not None and what == 'backup' and int(size) < source_size:
        raise volume_api.InvalidRequest(
            'Invalid input received: Volume size %sGB cannot be smaller '
            'than the backup size %sGB. It must be >= backup size.'
            % (size, source_size))
    if size is None:
        if source_size is None:
            raise volume_api.InvalidRequest(
                'Invalid input received: Invalid volume size provided for '
                'create request: None (size argument must be an integer '
                '(or string representation of an integer) and greater than '
                'zero).')
        return source_size
    size = int(size)
    if source_size is not None and size < source_size:
        raise volume_api.InvalidRequest(
            'Invalid input received: Volume size %(size)sGB cannot be '
            'smaller than the %(what)s size %(source)sGB. They must be >= '
            'original %(what)s size.'
            % {'size': size, 'what': what, 'source': source_size})
    return size


def _source(context, snapshot_id, source_volid, backup_id):
    """(source object, its hold transition, what it is called), or Nones
    but 'volume'. A backup's "hold" is its swap to 'restoring'."""
    given = [key for key, value in (('snapshot_id', snapshot_id),
                                    ('source_volid', source_volid),
                                    ('backup_id', backup_id)) if value]
    if len(given) > 1:
        raise volume_api.InvalidRequest(
            'Invalid input received: only one of snapshot_id, source_volid '
            'and backup_id may be given, not %s.' % ' and '.join(given))
    if snapshot_id:
        snapshot = objects.Snapshot.get_by_id(context, snapshot_id)
        volume_api.owned(context, snapshot, snapshot.project_id)
        return snapshot, 'create_from_snapshot', 'snapshot'
    if source_volid:
        return (volume_api.get_volume(context, source_volid),
                'create_from_volume', 'volume')
    if backup_id:
        backup = objects.Backup.get_by_id(context, backup_id)
        volume_api.owned(context, backup, backup.project_id)
        statuses = table.TRANSITIONS['create_from_backup'].source
        if backup.status not in statuses:
            # Refused before a volume is made for it (one no pool holds
            # would be inserted in 'error'); the swap in the create's
            # transaction decides.
            raise volume_api.InvalidRequest(
                "Invalid backup: Originating backup status must be one of "
                "'%s' values" % ', '.join(statuses))
        return backup, 'create_from_backup', 'backup'
    return None, None, 'volume'


def _source_size(source, hold):
    if source is None:
        return None
    if hold == 'create_from_snapshot':
        return source.volume_size
    return source.size


def _group(context, group_id, volume_type):
    """The group the new volume joins (None: none), its type checked
    against the group's as Cinder does (the hold of the group proves it
    again)."""
    if not group_id:
        return None
    from volapi.volume import groups
    group = groups.found(context, group_id)
    if not volume_type:
        raise volume_api.InvalidRequest(
            'Invalid input received: volume_type must be provided when '
            'creating a volume in a group.')
    return group


def _prepare(context, size, volume_type, fields, backup_id):
    """(the new volume, its type, its source and the source's hold
    transition, its placement_create.Plan), read in one read-only
    transaction when there is a source or a group to read with the type.
    None of it is trusted by the create's transaction, whose
    compare-and-swaps decide (and hold the source and the type again)."""
    snapshot_id, source_volid = fields['snapshot_id'], fields['source_volid']
    # A create from nothing, in no group, reads its type in one statement
    # (session.lone_read, no transaction); the scheduler, on a miss of its
    # cache, reads the candidates apart.
    alone = not (snapshot_id or source_volid or backup_id or
                 fields['group_id'])
    with contextlib.nullcontext() if alone else \
            session.reader.connection.using(context):
        source, hold, what = _source(context, snapshot_id, source_volid,
                                     backup_id)
        size = _size(size, _source_size(source, hold), what)
        # A backup has no type: the new volume's is the default.
        new_type = _volume_type(context, volume_type,
                                hold != 'create_from_backup' and source and
                                source.volume_type_id)
        group = _group(context, fields['group_id'], volume_type)
        if group is not None and new_type.id not in group.volume_type_ids:
            raise volume_api.InvalidRequest(
                'Invalid input received: Invalid volume_type provided: %s '
                '(requested type must be supported by this group).'
                % new_type.name)
        volume = objects.Volume(
            context, id=str(uuid.uuid4()), size=size,
            volume_type_id=new_type.id,
            multiattach=type_obj.is_multiattach(new_type.extra_specs),
            **fields)
        # A group's volumes share its pool (its first volume's).
        plan = placement_create.plan(
            context, volume, _scheduling_specs(context, group, new_type),
            (group and group.host) or placement_create.source_host(
                context, snapshot_id, source_volid))
    return volume, new_type, source, hold, plan, group


def _scheduling_specs(context, group, new_type):
    """The extra specs the new volume is scheduled by: its type's; for a
    group's first volume (the group has no pool yet) they also require
    the traits of each of the group's types, since the pool chosen will
    hold every volume of the group (Cinder places a group on a backend
    serving all its types)."""
    if group is None or group.host:
        return new_type.extra_specs
    traits = set()
    for type_id in group.volume_type_ids:
        try:
            kind = new_type if type_id == new_type.id else \
                type_obj.VolumeType.get(context, type_id)
        except type_obj.VolumeTypeNotFound:
            continue
        traits |= scheduler.required_traits(kind.extra_specs)
    return dict(new_type.extra_specs,
                **{'trait:%s' % trait: 'required' for trait in traits})


# How often a create whose source volume grew meanwhile reads it again.
SOURCE_ATTEMPTS = 3


def _source_grew(refusal):
    """True if ``refusal`` (engine.TransitionRefused) is the hold of a
    source volume that has grown since it was read (its one requirement
    that is no status), or of a group whose first volume, created
    meanwhile, gave it another pool: read again, the create goes there."""
    if refusal.transition.name == 'group_hold':
        return refusal.field is None and 'pool' in str(refusal)
    return refusal.transition.name == 'create_from_volume' and \
        isinstance(refusal.condition, cond.Filter)


def create(context, size=None, name=None, description=None,
           volume_type=None, snapshot_id=None, source_volid=None,
           availability_zone=None, metadata=None, version=None,
           backup_id=None, restore=False, group_id=None):
    """Insert the volume ('creating'), holding its source and its type in
    the same transaction (a concurrent delete of either conflicts), then
    cast its creation. Returns the volume, as the view shows it.

    From a backup (``backup_id``), the backup's swap to 'restoring'
    (``create_from_backup``) runs in the insert's transaction when a pool
    holds the volume; where no pool can, the volume is inserted in 'error'
    and the backup left alone. With ``restore`` (POST
    /backups/{id}/restore without a volume) the swap is the backup's own
    restore's (``backup_restore``), the volume is inserted
    'restoring-backup' (``backup_restore_create``) and the restore is cast
    instead of the creation.

    A clone's size is checked against its source's as read; the hold
    proves the source no bigger. One that grew in between (an extend that
    ended) is read again: without a size the clone takes its new one, a
    size below it is refused."""
    for _ in range(SOURCE_ATTEMPTS):
        try:
            return _create(context, size, name, description, volume_type,
                           snapshot_id, source_volid, availability_zone,
                           metadata, version, backup_id, restore, group_id)
        except engine.TransitionRefused as refusal:
            if not _source_grew(refusal):
                raise
    raise db_exc.ConcurrentUpdate('volume', source_volid, SOURCE_ATTEMPTS)


def _create(context, size, name, description, volume_type, snapshot_id,
            source_volid, availability_zone, metadata, version, backup_id,
            restore, group_id):
    zone = volume_api.zone(availability_zone)
    fields = dict(user_id=context.user_id, project_id=context.project_id,
                  availability_zone=zone, display_name=name,
                  display_description=description, snapshot_id=snapshot_id,
                  source_volid=source_volid,
                  # A restore's volume is the backup's own restore's.
                  backup_id=None if restore else backup_id, bootable=False,
                  metadata=metadata or {}, deleted=False,
                  group_id=group_id or None)
    try:
        volume, new_type, source, hold, plan, group = _prepare(
            context, size, volume_type, fields, backup_id)
    except type_obj.VolumeTypeNotFound:
        # The default type is missing (a database emptied by hand): made
        # again, a write, apart from the reads; then they run again.
        type_obj.VolumeType.get_default(context)
        volume, new_type, source, hold, plan, group = _prepare(
            context, size, volume_type, fields, backup_id)
    holds, taken = [], []
    if hold == 'create_from_backup':
        # Taken only with a pool: a volume in 'error' leaves it alone.
        taken.append(engine.prepare(
            context, 'backup_restore', source, version=version,
            reflect=False, restore_volume_id=volume.id) if restore else
            engine.prepare(context, hold, source, version=version,
                           reflect=False))
    elif source is not None:
        sized = {'clone_size': volume.size} if hold == 'create_from_volume' \
            else {}
        holds.append(engine.prepare(context, hold, source, version=version,
                                    reflect=False, **sized))

    def insert(name):
        # The claim queues on rows that other claims change: the
        # transaction reads them at READ COMMITTED. The volume's rows go
        # in inside the claim (see claims.claim_volume).
        claim = claims.claim_volume if name == 'create' \
            else claims.count_volume
        placed = name == 'create'
        if restore and placed:
            name = 'backup_restore_create'
        rows = engine.prepare(context, name, volume, version=version)
        group_hold = [] if group is None else [_group_hold(
            context, group, volume, new_type, version)]
        claims.with_usage_rows(
            context, volume, lambda: engine.run(
                context, claims.read_committed, *holds, *group_hold,
                *(taken if placed else []),
                lambda ctx: claim(ctx, volume, rows),
                *_inherited_image_metadata(volume),
                # Every create of the type writes its row: last, so that
                # it is held for one statement.
                lambda ctx: new_type.guard_in_use()))

    placement_create.create(context, volume, insert, plan)
    if volume.status != 'error':
        if restore:
            source.restore_volume_id = volume.id
            volume_api.worker_client().restore_backup(context, source,
                                                      volume)
        else:
            volume_api.worker_client().create_volume(context, volume)
    # For the view; after the cast, which the worker does not need it in
    # (volumes loaded for the other casts do not carry their type either).
    volume.volume_type = new_type
    return volume


def _group_hold(context, group, volume, new_type, version):
    """The hold of the group the volume is inserted in: it must still be
    live, available and allow the type, and takes the volume's pool if it
    has none yet (a volume with no pool holds it without)."""
    if volume.host is None:
        return engine.prepare(context, 'group_touch', group, version=version,
                              reflect=False)
    return engine.prepare(context, 'group_hold', group, version=version,
                          reflect=False, host=volume.host,
                          volume_type_id=new_type.id)


def _inherited_image_metadata(volume):
    """The step copying the image metadata of the volume's source, if it
    has one (its snapshot's, or its source volume's)."""
    if volume.snapshot_id:
        source = metadata_rows.SNAPSHOT_IMAGE, volume.snapshot_id
    elif volume.source_volid:
        source = metadata_rows.VOLUME_IMAGE, volume.source_volid
    else:
        return []
    return [lambda ctx: metadata_rows.VOLUME_IMAGE.copy(
        ctx, volume.id, *source)]
