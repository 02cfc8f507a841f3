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


def delete(context, snapshot_id, force=False, version=None, authorize=None):
    """Start deleting the snapshot (``force``, admin: from any status but
    'deleting'); a worker removes it."""
    name = 'snapshot_force_delete' if force else 'snapshot_delete'
    snapshot = _on_snapshot(context, snapshot_id, lambda ctx, snapshot: [
        engine.prepare(ctx, name, snapshot, version=version)], authorize)
    volume_api.worker_client().delete_snapshot(context, snapshot)


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
