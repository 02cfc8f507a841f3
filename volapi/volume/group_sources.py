"""POST /groups/action create-from-src (3.14): a new group made from a
group snapshot (a volume from each of its snapshots) or from another
group (a clone of each of its volumes).

ONE transaction: the hold of each source (a snapshot must still be
available, a source volume no bigger than its clone, the source group
still available), the new group with its volume types, its quota and
the hold of its group type, and each new volume with its claim (one more
volume and its size for the project and its type, its allocation on the
pool of its source, where its data is); then each creation is cast.
The new group is 'available' at once, as a group create makes it."""
import uuid

import objects
from objects import group_quota
from objects import group_type as group_type_obj
from objects import metadata as metadata_rows
from objects import type_quota
from objects import volume_type as type_obj
from volapi import conf as volapi_conf
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume import group_snapshots as group_snapshot_api
from volapi.volume import groups as group_api
from volapi.volume.transitions import engine

CONF = volapi_conf.CONF


class _Source:
    """What the new group is made of: the group whose pool, zone and
    volume types it takes, and (source object, its hold, the new volume's
    size, type, snapshot_id, source_volid) per volume."""

    def __init__(self, group, parts, group_hold=None):
        self.group = group
        self.parts = parts
        self.group_hold = group_hold


def _from_group_snapshot(context, group_snapshot_id):
    group_snapshot = group_snapshot_api.get(context, group_snapshot_id)
    snapshots = [objects.Snapshot.get_by_id(context, s)
                 for s in group_snapshot.snapshot_ids()]
    if not snapshots:
        raise group_api.InvalidGroup(
            'Group snapshot is empty. No group will be created.')
    # Its group stays while it does (the group delete's rule).
    group = objects.Group.get(context, group_snapshot.group_id)
    parts = [(s, 'create_from_snapshot', s.volume_size, s.volume_type_id,
              s.id, None) for s in snapshots]
    return _Source(group, parts)


def _from_group(context, source_group_id):
    group = group_api.found(context, source_group_id)
    volumes = [volume_api.get_volume(context, v) for v in group.volume_ids()]
    if not volumes:
        raise group_api.InvalidGroup(
            'Source Group is empty. No group will be created.')
    parts = [(v, 'create_from_volume', v.size, v.volume_type_id, None, v.id)
             for v in volumes]
    return _Source(group, parts, group_hold='group_touch')


def create_from_src(context, name=None, description=None,
                    group_snapshot_id=None, source_group_id=None,
                    version=None):
    """Make the group and its volumes in ONE transaction (see the
    module's docstring), then cast each volume's creation. Returns the
    group."""
    source = _from_group_snapshot(context, group_snapshot_id) \
        if group_snapshot_id else _from_group(context, source_group_id)
    origin = source.group
    group = objects.Group(
        context, id=str(uuid.uuid4()), user_id=context.user_id,
        project_id=context.project_id,
        availability_zone=origin.availability_zone, name=name,
        description=description, group_type_id=origin.group_type_id,
        host=origin.host, volume_type_ids=list(origin.volume_type_ids),
        group_snapshot_id=group_snapshot_id,
        source_group_id=source_group_id, deleted=False)
    types = {}
    volumes = []
    for _obj, _hold, size, type_id, snapshot_id, source_volid in \
            source.parts:
        if type_id not in types:
            types[type_id] = type_obj.VolumeType.get(context, type_id)
        volumes.append(objects.Volume(
            context, id=str(uuid.uuid4()), size=size, volume_type_id=type_id,
            multiattach=type_obj.is_multiattach(types[type_id].extra_specs),
            user_id=context.user_id, project_id=context.project_id,
            availability_zone=origin.availability_zone, display_name=None,
            display_description=None, snapshot_id=snapshot_id,
            source_volid=source_volid, bootable=False, metadata={},
            deleted=False, group_id=group.id, host=origin.host))
    for type_id in types:
        type_quota.ensure_rows(context, context.project_id, type_id)
    try:
        engine.run(context, claims.read_committed,
                   *_steps(context, source, group, volumes, types, version))
    except claims.NoRoom as exc:
        raise group_api.InvalidGroup(
            'No valid host to create group %s. (%s)' % (group.id, exc)
        ) from None
    client = volume_api.worker_client()
    for volume in volumes:
        client.create_volume(context, volume)
    return group


def _steps(context, source, group, volumes, types, version):
    steps = []
    if source.group_hold:
        steps.append(engine.prepare(context, source.group_hold, source.group,
                                    version=version, reflect=False))
    for (obj, hold, size, _type, _snap, _vol) in source.parts:
        sized = {'clone_size': size} if hold == 'create_from_volume' else {}
        steps.append(engine.prepare(context, hold, obj, version=version,
                                    reflect=False, **sized))
    steps.append(engine.prepare(context, 'group_create', group,
                                version=version))
    for volume in volumes:
        rows = engine.prepare(context, 'create', volume, version=version)
        steps.append(_claim(volume, rows))
        steps.append(_image_metadata(volume))
    # Last, each held for one statement: the usage row of groups, the
    # volume types' rows and the group type's.
    steps.append(lambda ctx: group_quota.charge(ctx, CONF, group.project_id,
                                                1))
    steps += [_type_held(t) for t in types.values()]
    steps.append(lambda ctx: group_type_obj.guard_in_use(
        ctx, group.group_type_id))
    return steps


def _claim(volume, rows):
    return lambda ctx: claims.claim_volume(ctx, volume, rows)


def _image_metadata(volume):
    if volume.snapshot_id:
        source = metadata_rows.SNAPSHOT_IMAGE, volume.snapshot_id
    else:
        source = metadata_rows.VOLUME_IMAGE, volume.source_volid
    return lambda ctx: metadata_rows.VOLUME_IMAGE.copy(ctx, volume.id,
                                                       *source)


def _type_held(volume_type):
    return lambda ctx: volume_type.guard_in_use()
