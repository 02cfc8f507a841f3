"""The backup use cases (see :mod:`volapi.volume.api` for the conventions
they share): ``(context, <id>, ..., version=None, authorize=None)``;
``authorize`` is called with the backup, or for create with its volume.

A backup's creation takes its volume 'backing-up' (or its snapshot, for
a backup of a snapshot), inserts the backup 'creating' with its workers
row and claims the project's ``backups`` and ``backup_gigabytes``, in ONE
transaction; a restore takes the backup 'restoring' and its target volume
'restoring-backup' (a new one is created as POST /volumes creates one,
claiming its pool and quota) in one transaction. Only then is the work
cast to a worker of the volume's backend, which ends both rows in one
transaction (the transition table's ``backup_*`` rows)."""
import typing
import uuid

from oslo_utils import timeutils

from db import conditions as cond
from db import exceptions as db_exc
import objects
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume import create as volume_create
from volapi.volume.transitions import engine
from volapi.volume.transitions import table

# Cinder's name and description of a volume a restore creates.
RESTORED_NAME = 'restore_backup_%s'
RESTORED_DESCRIPTION = 'auto-created_from_restore_from_backup'


def get(context, backup_id):
    """The backup, if the caller may see it."""
    backup = objects.Backup.get_by_id(context, backup_id)
    return volume_api.owned(context, backup, backup.project_id)


def _on_backup(context, backup_id, build, authorize):
    return volume_api.in_one_transaction(
        context, lambda ctx: get(ctx, backup_id), build, authorize)


def _snapshot_of(context, snapshot_id, volume):
    snapshot = objects.Snapshot.get_by_id(context, snapshot_id)
    volume_api.owned(context, snapshot, snapshot.project_id)
    if snapshot.volume_id != volume.id:
        raise volume_api.InvalidRequest(
            'Invalid volume: Volume %s does not match with '
            'snapshot.volume_id %s.' % (volume.id, snapshot.volume_id))
    return snapshot


def create(context, volume_id, name=None, description=None, container=None,
           incremental=False, force=False, snapshot_id=None, metadata=None,
           availability_zone=None, version=None, authorize=None):
    """Start backing up the volume (or its snapshot ``snapshot_id``).
    ``incremental``: the backup's parent is the volume's latest available
    backup (see objects.Backup.latest_available), which counts its child
    in the same transaction (a concurrent delete of the parent conflicts,
    and a later one is refused while the child lives). Returns the
    backup."""
    backup = objects.Backup(
        context, id=str(uuid.uuid4()), volume_id=volume_id,
        snapshot_id=snapshot_id, user_id=context.user_id,
        project_id=context.project_id, display_name=name,
        display_description=description, container=container,
        availability_zone=volume_api.zone(availability_zone), parent_id=None,
        deleted=False)

    def build(ctx, volume):
        if snapshot_id:
            snapshot = _snapshot_of(ctx, snapshot_id, volume)
            yield engine.prepare(ctx, 'backup_create_from_snapshot',
                                 snapshot, version=version, reflect=False)
            backup.size = snapshot.volume_size
            backup.data_timestamp = snapshot.created_at
            if incremental:
                yield _parent_hold(ctx, backup, volume, snapshot.created_at)
        else:
            yield engine.prepare(ctx, 'backup_create', volume,
                                 version=version, force=bool(force),
                                 reflect=False)
            backup.size = volume.size
            backup.data_timestamp = timeutils.utcnow()
            if incremental:
                yield _parent_hold(ctx, backup, volume)
        backup.host = volume.host
        # Before the insert: a usage row made here counts the table.
        yield lambda ctx: claims.claim_backup(ctx, backup)
        yield engine.prepare(ctx, 'backup_new', backup)
        yield lambda ctx: metadata_rows.BACKUP.insert(ctx, backup.id,
                                                      metadata or {})

    volume = volume_api.claiming_on_volume(context, volume_id, build,
                                           authorize)
    volume_api.worker_client().create_backup(context, backup, volume)
    return backup


def _parent_hold(context, backup, volume, before=None):
    """Name the parent of the incremental ``backup``; the step that
    counts the child in it."""
    parent = objects.Backup.latest_available(
        context, volume.id, context.project_id, before)
    if parent is None:
        raise volume_api.InvalidRequest(
            'Invalid backup: No backups available to do an incremental '
            'backup.')
    backup.parent_id = parent.id
    return engine.prepare(context, 'backup_parent_hold', parent,
                          reflect=False)


def update(context, backup_id, values, metadata=None, authorize=None):
    """Name/description (``values``) and, with ``metadata``, the whole
    metadata: one compare-and-swap on the backup's id. Returns it."""
    def build(ctx, backup):
        if values or metadata is not None:
            yield engine.prepare(ctx, 'backup_update', backup, **values)
        if metadata is not None:
            yield lambda ctx: metadata_rows.BACKUP.replace(ctx, backup.id,
                                                           metadata)

    return _on_backup(context, backup_id, build, authorize)


def delete(context, backup_id, force=False, version=None, authorize=None):
    """Start deleting the backup (``force``, admin: from any status but
    those of an operation in flight); a worker removes its data."""
    name = 'backup_force_delete' if force else 'backup_delete'
    backup = _on_backup(context, backup_id, lambda ctx, backup: [
        engine.prepare(ctx, name, backup, version=version)], authorize)
    volume_api.worker_client().delete_backup(context, backup)


def reset_status(context, backup_id, status, version=None, authorize=None):
    """Admin: set the backup's status ('available' or 'error'). The
    workers row goes: nothing is in flight any more."""
    def build(ctx, backup):
        if status.lower() not in table.BACKUP_RESET_STATUSES:
            raise volume_api.InvalidRequest(
                'Invalid input received: Backup status: %s is invalid, '
                'valid statuses are: %s.' % (
                    status, list(table.BACKUP_RESET_STATUSES)))
        return [engine.prepare(ctx, 'backup_reset_status', backup,
                               version=version, status=status.lower())]

    _on_backup(context, backup_id, build, authorize)


class Restore(typing.NamedTuple):
    """What POST /backups/{id}/restore answers."""
    backup_id: str
    volume_id: str
    volume_name: str


def restore(context, backup_id, volume_id=None, name=None, version=None,
            authorize=None):
    """Restore the backup to volume ``volume_id`` (available, at least as
    big as the backup), or to a new volume of its size. Returns a
    Restore."""
    if volume_id is None:
        return _restore_to_new(context, backup_id, name, version, authorize)
    target = []

    def build(ctx, backup):
        del target[:]
        yield engine.prepare(ctx, 'backup_restore', backup, version=version,
                             restore_volume_id=volume_id)
        volume = volume_api.get_volume(ctx, volume_id)
        target.append(volume)
        yield engine.prepare(ctx, 'backup_restore_volume', volume,
                             version=version, reflect=False)
        # The swap proved the size loaded unchanged.
        if backup.size > volume.size:
            raise volume_api.InvalidRequest(
                'Invalid volume: volume size %d is too small to restore '
                'backup of size %d.' % (volume.size, backup.size))

    backup = _on_backup(context, backup_id, build, authorize)
    volume_api.worker_client().restore_backup(context, backup, target[0])
    return Restore(backup.id, volume_id, target[0].display_name)


def _restore_to_new(context, backup_id, name, version, authorize):
    backup = get(context, backup_id)
    if authorize is not None:
        authorize(backup)
    if backup.status != 'available':
        # Refused before a volume is made for it; when it is available,
        # the swap in the create's transaction decides.
        raise db_exc.ConditionNotMet(cond.Expect('status', 'available'),
                                     backup.status, 'backup')

    volume = volume_create.create(
        context, size=backup.size, name=name or RESTORED_NAME % backup.id,
        description=RESTORED_DESCRIPTION, version=version,
        backup_id=backup.id, restore=True)
    if volume.status == 'error':
        raise volume_api.InvalidRequest(
            'Invalid volume: Error while creating volume %s for restoring '
            'backup %s.' % (volume.id, backup.id))
    return Restore(backup.id, volume.id, volume.display_name)
