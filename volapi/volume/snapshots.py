"""The snapshot use cases (see :mod:`volapi.volume.api` for the
conventions they share): ``(context, <id>, ..., version=None,
authorize=None)``; ``authorize`` is called with the snapshot, or for
create with its volume."""
import uuid

import objects
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume.transitions import engine
from volapi.volume.transitions import table
from volapi.volume.transitions.table import snapshots as snapshot_table


def get(context, snapshot_id):
    """The snapshot, if the caller may see it."""
    snapshot = objects.Snapshot.get_by_id(context, snapshot_id)
    return volume_api.owned(context, snapshot, snapshot.project_id)


def _on_snapshot(context, snapshot_id, build, authorize):
    return volume_api.in_one_transaction(
        context, lambda ctx: get(ctx, snapshot_id), build, authorize)


def create(context, volume_id, name=None, description=None, force=False,
           metadata=None, version=None, authorize=None):
    """Insert a snapshot in 'creating' in the transaction whose
    compare-and-swap holds its volume, then cast its creation."""
    snapshot = objects.Snapshot(
        context, id=str(uuid.uuid4()), volume_id=volume_id,
        user_id=context.user_id, project_id=context.project_id,
        display_name=name, display_description=description, deleted=False)

    def build(ctx, volume):
        # snapshot_create proves these unchanged when it holds the volume.
        snapshot.volume_size = volume.size
        snapshot.volume_type_id = volume.volume_type_id
        return [engine.prepare(ctx, 'snapshot_create', volume,
                               version=version, force=bool(force)),
                engine.prepare(ctx, 'snapshot_new', snapshot),
                lambda ctx: metadata_rows.SNAPSHOT.insert(
                    ctx, snapshot.id, metadata or {}),
                lambda ctx: metadata_rows.SNAPSHOT_IMAGE.copy(
                    ctx, snapshot.id, metadata_rows.VOLUME_IMAGE,
                    volume.id),
                # Last: see claims.claim_snapshot.
                lambda ctx: claims.claim_snapshot(ctx, snapshot)]

    claims.with_usage_rows(context, snapshot, lambda: (
        volume_api.claiming_on_volume(context, volume_id, build, authorize)))
    volume_api.worker_client().create_snapshot(context, snapshot)
    return snapshot


def update(context, snapshot_id, values, authorize=None):
    """Name/description (``values``): not a state change, but still written
    only while the snapshot exists (one compare-and-swap on its id).
    Returns the snapshot."""
    return _on_snapshot(context, snapshot_id, lambda ctx, snapshot: [
        engine.prepare(ctx, 'snapshot_update', snapshot, **values)]
        if values else [], authorize)


def get_metadata(context, snapshot_id, authorize=None):
    snapshot = get(context, snapshot_id)
    if authorize is not None:
        authorize(snapshot)
    return metadata_rows.SNAPSHOT.get(context, snapshot.id)


def _change_metadata(context, snapshot_id, authorize, change):
    """The ``snapshot_update_metadata`` transition and ``change(ctx,
    snapshot)`` of its rows in one transaction; returns what ``change``
    returned."""
    result = []

    def build(ctx, snapshot):
        del result[:]  # a retried transaction starts over
        yield engine.prepare(ctx, 'snapshot_update_metadata', snapshot,
                             reflect=False)
        result.append(change(ctx, snapshot))

    _on_snapshot(context, snapshot_id, build, authorize)
    return result[0]


def update_metadata(context, snapshot_id, metadata, authorize=None):
    """Set the keys of ``metadata``; the others stay."""
    _change_metadata(context, snapshot_id, authorize,
                     lambda ctx, snapshot: metadata_rows.SNAPSHOT.update(
                         ctx, snapshot.id, metadata))


def replace_metadata(context, snapshot_id, metadata, authorize=None):
    """Make ``metadata`` the snapshot's whole metadata."""
    _change_metadata(context, snapshot_id, authorize,
                     lambda ctx, snapshot: metadata_rows.SNAPSHOT.replace(
                         ctx, snapshot.id, metadata))


def delete_metadata(context, snapshot_id, key, authorize=None):
    """False if the snapshot has no such key."""
    return _change_metadata(context, snapshot_id, authorize,
                            lambda ctx, snapshot: metadata_rows.SNAPSHOT.delete(
                                ctx, snapshot.id, key))


def delete(context, snapshot_id, force=False, version=None, authorize=None):
    """Start deleting the snapshot (``force``, admin: from any status but
    'deleting'); a worker removes it."""
    name = 'snapshot_force_delete' if force else 'snapshot_delete'
    snapshot = _on_snapshot(context, snapshot_id, lambda ctx, snapshot: [
        engine.prepare(ctx, name, snapshot, version=version)], authorize)
    volume_api.worker_client().delete_snapshot(context, snapshot)


def update_status(context, snapshot_id, status, progress=None,
                  version=None, authorize=None):
    """os-update_snapshot_status: a service outside volapi that makes or
    deletes the snapshot's data (a compute's assisted snapshot) reports
    its status and progress, within Cinder's status map."""
    def build(ctx, snapshot):
        allowed = snapshot_table.UPDATE_STATUS_MAP.get(snapshot.status)
        if allowed is None:
            raise volume_api.InvalidRequest(
                'Snapshot status %s not allowed for update_snapshot_status'
                % snapshot.status)
        if status not in allowed:
            raise volume_api.InvalidRequest(
                'Provided snapshot status %s not allowed for snapshot with '
                'status %s.' % (status, snapshot.status))
        progress_only = {'progress': progress} if progress else {}
        if status == snapshot.status:
            name, values = 'snapshot_progress', dict(progress_only,
                                                     status=status)
        elif status == 'error_deleting':
            name, values = 'snapshot_delete_failed_elsewhere', progress_only
        else:
            name, values = 'snapshot_created_elsewhere', dict(
                progress_only, status=status)
        return [engine.prepare(ctx, name, snapshot, version=version,
                               **values)]

    _on_snapshot(context, snapshot_id, build, authorize)


def revert(context, volume_id, snapshot_id, version=None, authorize=None):
    """Rewrite the volume from its latest snapshot (``revert``, 3.40):
    the volume goes 'reverting' and the snapshot 'restoring' in one
    transaction, whose volume swap proves in SQL that the snapshot is
    still its latest and of its size; then a worker copies the data back.
    Cinder's checks first, for its messages."""
    reverted = []

    def build(ctx, volume):
        del reverted[:]  # a retried transaction starts over
        snapshots = objects.Snapshot.get_all_of_held_volume(ctx, volume.id)
        if not snapshots:
            raise volume_api.InvalidRequest(
                "Volume %s doesn't have any snapshots." % volume.id)
        latest = snapshots[0]
        if snapshot_id != latest.id:
            raise volume_api.InvalidRequest(
                'Specified snapshot %s is None or not the latest one of '
                'volume %s.' % (snapshot_id, volume.id))
        if volume.size != latest.volume_size:
            raise volume_api.InvalidRequest(
                "Can't revert volume %s to its latest snapshot %s. The "
                'volume size must be equal to the snapshot size.'
                % (volume.id, latest.id))
        reverted.append(latest)
        return [engine.prepare(ctx, 'revert_to_snapshot', volume,
                               version=version, snapshot_id=latest.id),
                engine.prepare(ctx, 'snapshot_revert', latest,
                               version=version)]

    volume = volume_api.on_volume(context, volume_id, build, authorize)
    volume_api.worker_client().revert_to_snapshot(context, volume,
                                                  reverted[0])


def reset_status(context, snapshot_id, status, version=None,
                 authorize=None):
    """Admin: set the snapshot's status, whatever it is. The workers row
    goes: nothing is in flight any more."""
    def build(ctx, snapshot):
        if status.lower() not in table.SNAPSHOT_RESET_STATUSES:
            raise volume_api.InvalidRequest(
                "Invalid status '%s': must be one of %s." % (
                    status, ', '.join(table.SNAPSHOT_RESET_STATUSES)))
        return [engine.prepare(ctx, 'snapshot_reset_status', snapshot,
                               version=version, status=status.lower())]

    _on_snapshot(context, snapshot_id, build, authorize)
