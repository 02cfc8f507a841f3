"""Generic volume groups: create, rename, add and remove volumes, delete.

Every change is ONE transaction of compare-and-swaps of the transition
table (volapi.volume.transitions.table.groups); what is read before it
only chooses what to ask and how to word a refusal. A group is
'available' as soon as it is inserted: the file driver has nothing to
make for it, so no worker round-trip. Its volumes share one pool (the
group's ``host``, taken by its first volume), as Cinder's scheduler puts
a group on one backend.
"""
from oslo_utils import uuidutils

from db import exceptions as db_exc
import objects
from objects import group_quota
from objects import group_type as group_type_obj
from objects import volume_type as type_obj
from volapi import conf as volapi_conf
from volapi.volume import api as volume_api
from volapi.volume.transitions import engine
from volapi.volume.transitions.table import groups as group_table

CONF = volapi_conf.CONF

# How often a delete with its volumes reads them again when one joined
# the group meanwhile.
DELETE_ATTEMPTS = 3


class InvalidGroup(volume_api.InvalidRequest):
    """Cinder's InvalidGroup: 400 "Invalid group: <reason>"."""

    def __init__(self, reason):
        super().__init__('Invalid group: %s' % reason)


class InvalidVolume(volume_api.InvalidRequest):
    def __init__(self, reason):
        super().__init__('Invalid volume: %s' % reason)


def get(context, group_id):
    """The live group, if the caller may see it."""
    project = None if context.is_admin else context.project_id
    return objects.Group.get(context, group_id, project_id=project)


def found(context, group_id):
    """:func:`get`, or Cinder's 404 naming the group (a group another
    request names: a source, a parent, the group of a new volume)."""
    try:
        return get(context, group_id)
    except db_exc.NotFound:
        raise volume_api.ReferenceNotFound(
            'Group %s could not be found.' % group_id) from None


def get_all(context, all_projects=False, **query):
    project = None if (context.is_admin and all_projects) \
        else context.project_id
    return objects.Group.get_all(context, project_id=project, **query)


def group_type(context, ident):
    try:
        return group_type_obj.GroupType.get(
            context, ident, include_private=context.is_admin)
    except group_type_obj.GroupTypeNotFound:
        raise volume_api.ReferenceNotFound(
            'Group type with name %s could not be found.' % ident) from None


def _volume_types(context, names):
    found = []
    for name in names:
        try:
            volume_type = type_obj.VolumeType.get(
                context, name, include_private=context.is_admin)
        except type_obj.VolumeTypeNotFound:
            raise volume_api.ReferenceNotFound(
                'Volume type with name %s could not be found.'
                % name) from None
        if volume_type.id not in found:
            found.append(volume_type.id)
    return found


def create(context, name, description, group_type_name, volume_types,
           availability_zone=None, version=None):
    """Insert the group ('available'), its volume types, one more group on
    the project's quota row and the hold of its group type, in ONE
    transaction."""
    zone = volume_api.zone(availability_zone)
    kind = group_type(context, group_type_name)
    group = objects.Group(
        context, id=uuidutils.generate_uuid(), user_id=context.user_id,
        project_id=context.project_id, availability_zone=zone, name=name,
        description=description, group_type_id=kind.id, host=None,
        volume_type_ids=_volume_types(context, volume_types), deleted=False)
    step = engine.prepare(context, 'group_create', group, version=version)
    engine.run(
        context,
        lambda ctx: group_quota.charge(ctx, CONF, group.project_id, 1),
        step,
        # Last: the types' rows are held for one statement each; a delete
        # of one of them conflicts with the insert instead of missing it.
        lambda ctx: _guard_types(ctx, kind.id, group.volume_type_ids))
    return group


def _guard_types(context, group_type_id, volume_type_ids):
    group_type_obj.guard_in_use(context, group_type_id)
    for type_id in volume_type_ids:
        type_obj.guard_in_use(context, type_id)


def update(context, group_id, name=None, description=None, add_volumes='',
           remove_volumes='', version=None, authorize=None):
    """Rename or describe the group, and let volumes join or leave it:
    ONE transaction holding the group, each volume's compare-and-swap in
    it."""
    group = get(context, group_id)
    if authorize is not None:
        authorize(group)
    adding = _ids(add_volumes)
    removing = _ids(remove_volumes)
    both = set(adding) & set(removing)
    if both:
        raise InvalidVolume('UUIDs %s are in both add and remove volume '
                            'list.' % sorted(both))
    if name is None and description is None and not adding \
            and not removing:
        raise InvalidGroup(
            'Cannot update group %s because no valid name, description, '
            'add_volumes, or remove_volumes were provided.' % group.id)
    steps = []
    if name is not None or description is not None:
        params = {k: v for k, v in (('group_name', name),
                                    ('group_description', description))
                  if v is not None}
        steps.append(engine.prepare(context, 'group_update', group,
                                    version=version, **params))
    for volume_id in adding:
        volume = _volume_to_add(context, group, volume_id)
        steps.append(engine.prepare(
            context, 'group_hold', group, version=version,
            host=volume.host, volume_type_id=volume.volume_type_id))
        steps.append(engine.prepare(
            context, 'group_add_volume', volume, version=version,
            group_id=group.id, host=volume.host))
    for volume_id in removing:
        volume = _volume_to_remove(context, group, volume_id)
        steps.append(engine.prepare(context, 'group_touch', group,
                                    version=version))
        steps.append(engine.prepare(context, 'group_remove_volume', volume,
                                    version=version, group_id=group.id))
    try:
        engine.run(context, *steps)
    except engine.TransitionRefused as refusal:
        raise _explained(refusal, group) from None
    return get(context, group.id)


def _ids(text):
    return [i.strip() for i in (text or '').split(',') if i.strip()]


def _volume_to_add(context, group, volume_id):
    try:
        volume = volume_api.get_volume(context, volume_id)
    except db_exc.NotFound:
        volume = None
    if volume is None or volume.project_id != group.project_id:
        if volume is not None and context.is_admin:
            raise InvalidVolume(
                'Cannot add volume %s to group %s as they belong to '
                'different projects.' % (volume_id, group.id))
        raise InvalidVolume(
            'Cannot add volume %s to group %s because volume cannot be '
            'found.' % (volume_id, group.id))
    if volume.group_id:
        raise InvalidVolume(
            'Cannot add volume %s to group %s because it is already in '
            'group %s.' % (volume.id, group.id, volume.group_id))
    if volume.volume_type_id not in group.volume_type_ids:
        raise InvalidVolume(
            'Cannot add volume %s to group %s because volume type %s is not '
            'supported by the group.' % (volume.id, group.id,
                                         volume.volume_type_id))
    if volume.status != 'available':
        raise InvalidVolume(
            "Cannot add volume %s to group %s because volume is in an "
            "invalid state: %s. Valid states are: ('available',)."
            % (volume.id, group.id, volume.status))
    if group.host and volume.host != group.host:
        raise InvalidVolume('Volume is not local to this node.')
    return volume


def _volume_to_remove(context, group, volume_id):
    try:
        volume = volume_api.get_volume(context, volume_id)
    except db_exc.NotFound:
        volume = None
    if volume is None or volume.group_id != group.id:
        raise InvalidVolume(
            'Cannot remove volume %s from group %s because it is not in the '
            'group.' % (volume_id, group.id))
    return volume


def _explained(refusal, group):
    """A refusal of the transaction, in Cinder's words where it has them
    (the state read before it may have changed since)."""
    if refusal.transition.resource == 'group':
        return InvalidGroup('Group status must be available. (%s)'
                            % refusal)
    return InvalidVolume('Cannot change the volumes of group %s: %s'
                         % (group.id, refusal))


# reset_status: Cinder's group statuses, but 'deleted' (a live row).
RESET_STATUSES = ('available', 'creating', 'deleting', 'error',
                  'error_deleting', 'in-use', 'updating')


def reset_status(context, group_id, status, version=None, authorize=None):
    """Admin: set the group's status, whatever it is (one compare-and-swap
    on the live group)."""
    status = status.lower()
    if status not in RESET_STATUSES:
        raise InvalidGroup("Invalid status '%s': must be one of %s." % (
            status, ', '.join(RESET_STATUSES)))
    volume_api.in_one_transaction(
        context, lambda ctx: get(ctx, group_id),
        lambda ctx, group: [engine.prepare(
            ctx, 'group_reset_status', group, version=version,
            status=status)], authorize)


def delete(context, group_id, delete_volumes=False, version=None,
           authorize=None):
    """Delete the group; with ``delete_volumes`` its volumes start deleting
    in the same transaction (each with its workers row), then are cast
    to their workers."""
    for _ in range(DELETE_ATTEMPTS):
        group = get(context, group_id)
        if authorize is not None:
            authorize(group)
        volume_ids = group.volume_ids()
        if volume_ids and not delete_volumes:
            raise InvalidGroup(
                'Group %s still contains volumes. The delete-volumes flag '
                'is required to delete it.' % group.id)
        try:
            volumes = _delete(context, group, volume_ids, version)
        except engine.TransitionRefused as refusal:
            if refusal.transition.name == 'group_delete_with_volumes' and \
                    'but those' in str(refusal):
                continue  # a volume joined meanwhile: read them again
            raise _delete_refused(group, refusal, delete_volumes) from None
        client = volume_api.worker_client() if volumes else None
        for volume in volumes:
            client.delete_volume(context, volume)
        return
    raise db_exc.ConcurrentUpdate('group', group_id, DELETE_ATTEMPTS)


def _delete(context, group, volume_ids, version):
    volumes = [volume_api.get_volume(context, v) for v in volume_ids]
    if not volumes:
        steps = [engine.prepare(context, 'group_delete', group,
                                version=version)]
    else:
        steps = [engine.prepare(context, 'group_delete_with_volumes', group,
                                version=version,
                                volume_count=len(volume_ids))]
        steps += [engine.prepare(context, 'group_delete_volume', volume,
                                 version=version, group_id=group.id,
                                 cascade=False)
                  for volume in volumes]
    engine.run(context, *steps, lambda ctx: group_quota.charge(
        ctx, CONF, group.project_id, -1))
    return volumes


def _delete_refused(group, refusal, delete_volumes):
    if getattr(refusal.condition, 'requirement', None) == \
            group_table.NO_GROUP_SNAPSHOTS.text:
        return InvalidGroup('Group has existing snapshots.')
    if refusal.transition.resource == 'volume' or \
            refusal.transition.name == 'group_delete_with_volumes' and \
            refusal.field != 'status':
        reason = 'Group must not have attached volumes, volumes with ' \
            'snapshots, or dependent group snapshots'
    elif delete_volumes:
        reason = 'Group status must be available or error and must not ' \
            'have dependent group snapshots'
    elif refusal.field == 'status':
        return InvalidGroup('Group status must be available or error, but '
                            'current status is: %s' % refusal.actual)
    else:
        return InvalidGroup('Group %s still contains volumes. The '
                            'delete-volumes flag is required to delete it.'
                            % group.id)
    return InvalidGroup(
        'Cannot delete group %s. %s, and it cannot be the source for an '
        'ongoing group or group snapshot creation.' % (group.id, reason))
