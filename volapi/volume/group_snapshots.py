"""Group snapshots: create, delete, reset a status, read.

A create is ONE transaction: the hold of the group (it must be available
and have no volumes but those read), the group snapshot's row, and for
each volume of the group the compare-and-swap a snapshot create makes
on it, the snapshot's row and its claim (the snapshots quota, per type
too, and its allocation on the volume's pool), as
volapi.volume.snapshots.create charges them. Each snapshot is then made
by its volume's workers as a lone snapshot is (their create_snapshot
cast); the last one to end ends the group snapshot in its transaction
(table.group_snapshots). A delete is one transaction too: the group
snapshot and each of its snapshots start deleting; each snapshot's claim
goes when a worker has removed it, and the group snapshot with the
last."""
import uuid

from db import exceptions as db_exc
import objects
from objects import quota
from objects import type_quota
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume import groups as group_api
from volapi.volume.transitions import engine
from volapi.volume.transitions.table import group_snapshots as table

# How often a create reads the group's volumes again when one joined or
# left it between the read and the transaction.
CREATE_ATTEMPTS = 3


class InvalidGroupSnapshot(volume_api.InvalidRequest):
    """Cinder's InvalidGroupSnapshot: 400."""

    def __init__(self, reason):
        super().__init__('Invalid GroupSnapshot: %s' % reason)


class InvalidGroupSnapshotStatus(volume_api.InvalidRequest):
    def __init__(self, reason):
        super().__init__('Invalid GroupSnapshot Status: %s' % reason)


def get(context, group_snapshot_id):
    """The live group snapshot, if the caller may see it (NotFound
    otherwise)."""
    project = None if context.is_admin else context.project_id
    try:
        return objects.GroupSnapshot.get(context, group_snapshot_id,
                                         project_id=project)
    except db_exc.NotFound:
        raise volume_api.ReferenceNotFound(
            'GroupSnapshot %s could not be found.' % group_snapshot_id
        ) from None


def get_all(context, all_projects=False, **query):
    project = None if (context.is_admin and all_projects) \
        else context.project_id
    return objects.GroupSnapshot.get_all(context, project_id=project,
                                         **query)


def create(context, group_id, name=None, description=None, version=None,
           authorize=None):
    """Snapshot every volume of the group in ONE transaction (see the
    module's docstring), then cast each snapshot's creation. Returns the
    group snapshot."""
    for _ in range(CREATE_ATTEMPTS):
        group = group_api.found(context, group_id)
        if authorize is not None:
            authorize(group)
        try:
            volumes = [volume_api.get_volume(context, v)
                       for v in group.volume_ids()]
            group_snapshot, snapshots = _rows(context, group, volumes, name,
                                              description)
            # At the transaction's own isolation, not READ COMMITTED as
            # other claims: the group's swap counts its volumes, which a
            # swap waiting for an add or a remove must see as they
            # committed (PostgreSQL rechecks only the row it waited for).
            _with_usage_rows(context, snapshots, lambda: engine.run(
                context, *_create_steps(context, group, group_snapshot,
                                        volumes, snapshots, version)))
        except engine.TransitionRefused as refusal:
            if refusal.transition.name == 'group_snapshot_group' and \
                    refusal.field != 'status':
                continue  # a volume joined or left meanwhile: read again
            raise _create_refused(group, refusal) from None
        except db_exc.NotFound as missing:
            if missing.what != 'volume':
                raise
            # A volume deleted meanwhile (it left the group): read again.
            continue
        client = volume_api.worker_client() if snapshots else None
        for snapshot in snapshots:
            client.create_snapshot(context, snapshot)
        return group_snapshot
    raise db_exc.ConcurrentUpdate('group', group_id, CREATE_ATTEMPTS)


def _rows(context, group, volumes, name, description):
    group_snapshot = objects.GroupSnapshot(
        context, id=str(uuid.uuid4()), group_id=group.id,
        user_id=context.user_id, project_id=context.project_id, name=name,
        description=description, group_type_id=group.group_type_id,
        deleted=False)
    # Each snapshot copies its volume's size and type as read: the
    # volume's swap proves them unchanged.
    snapshots = [objects.Snapshot(
        context, id=str(uuid.uuid4()), volume_id=volume.id,
        user_id=context.user_id, project_id=context.project_id,
        display_name=name, display_description=description,
        volume_size=volume.size, volume_type_id=volume.volume_type_id,
        group_snapshot_id=group_snapshot.id, deleted=False)
        for volume in volumes]
    return group_snapshot, snapshots


def _create_steps(context, group, group_snapshot, volumes, snapshots,
                  version):
    steps = [engine.prepare(context, 'group_snapshot_group', group,
                            version=version, reflect=False,
                            volume_count=len(volumes)),
             engine.prepare(context, 'group_snapshot_create' if volumes
                            else 'group_snapshot_create_empty',
                            group_snapshot, version=version)]
    for volume, snapshot in zip(volumes, snapshots):
        steps += [
            engine.prepare(context, 'group_snapshot_volume', volume,
                           version=version, reflect=False,
                           group_id=group.id),
            engine.prepare(context, 'snapshot_new', snapshot),
            _image_metadata(snapshot)]
    # Last: the usage rows and the pool's provider (see claims).
    steps += [_claim(snapshot) for snapshot in snapshots]
    return steps


def _image_metadata(snapshot):
    return lambda ctx: metadata_rows.SNAPSHOT_IMAGE.copy(
        ctx, snapshot.id, metadata_rows.VOLUME_IMAGE, snapshot.volume_id)


def _claim(snapshot):
    return lambda ctx: claims.claim_snapshot(ctx, snapshot)


def _with_usage_rows(context, snapshots, run):
    """claims.with_usage_rows for snapshots of several types."""
    try:
        return run()
    except quota.UsageRowMissing:
        for type_id in sorted({s.volume_type_id for s in snapshots},
                              key=str):
            type_quota.make_rows_again(context, snapshots[0].project_id,
                                       type_id)
        return run()


def _create_refused(group, refusal):
    if refusal.transition.resource == 'group':
        return group_api.InvalidGroup(
            'Group %s status must be available. (%s)' % (group.id, refusal))
    return group_api.InvalidVolume(
        'Cannot snapshot the volumes of group %s: %s' % (group.id, refusal))


def delete(context, group_snapshot_id, version=None, authorize=None):
    """Start deleting the group snapshot and each of its snapshots in ONE
    transaction, then cast each snapshot's delete."""
    group_snapshot = get(context, group_snapshot_id)
    if authorize is not None:
        authorize(group_snapshot)
    snapshots = [objects.Snapshot.get_by_id(context, s)
                 for s in group_snapshot.snapshot_ids()]
    steps = [engine.prepare(
        context, 'group_snapshot_delete' if snapshots
        else 'group_snapshot_delete_empty', group_snapshot,
        version=version)]
    steps += [engine.prepare(context, 'group_snapshot_delete_snapshot',
                             snapshot, version=version,
                             group_snapshot_id=group_snapshot.id)
              for snapshot in snapshots]
    try:
        engine.run(context, *steps)
    except engine.TransitionRefused:
        raise InvalidGroupSnapshot(
            'GroupSnapshot status must be available or error, and no Group '
            'can be currently using it as source for its creation.'
        ) from None
    client = volume_api.worker_client() if snapshots else None
    for snapshot in snapshots:
        client.delete_snapshot(context, snapshot)


def reset_status(context, group_snapshot_id, status, version=None,
                 authorize=None):
    """Admin: set the group snapshot's status, whatever it is."""
    if not status.strip():
        raise InvalidGroupSnapshotStatus("The 'status' can not be empty.")
    status = status.lower()
    if status not in table.RESET_STATUSES:
        raise InvalidGroupSnapshotStatus(
            'Group snapshot status: %s is invalid, valid statuses are: %s.'
            % (status, table.RESET_STATUSES))
    group_snapshot = get(context, group_snapshot_id)
    if authorize is not None:
        authorize(group_snapshot)
    engine.apply(context, 'group_snapshot_reset_status', group_snapshot,
                 version=version, status=status)
