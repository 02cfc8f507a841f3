"""Existing storage taken into volapi as a snapshot of a volume (``cinder
snapshot-manage``), the storage a backend could take so
(``snapshot-manageable-list``), and a snapshot let go with its storage
left in place (``snapshot-unmanage``). volapi.volume.manage does the same
for volumes; its listing and its checks of a reference are shared.

A manage asks the worker of the volume (an RPC call) for the size of the
storage object; then ONE transaction holds the volume as a snapshot
create holds it (``snapshot_create`` with force: available or in-use,
not migrating), inserts the snapshot in 'creating' (Cinder's status while
it is taken) with its metadata, its quota and its allocation on the
volume's pool (claims.claim_snapshot), and the workers row 'managing'
that records the reference; once that committed, the worker takes the
object as the snapshot's storage ('available') or fails ('error',
deletable). An unmanage is a compare-and-swap into 'unmanaging'; the
worker lets the storage go and the snapshot goes with its allocation
and quota.

Storage a live volume or snapshot already uses is refused, as for a
volume's manage. Two manages of one object may both pass that check: the
worker's rename gives the object to one, the other ends in 'error'.
"""
import uuid

import objects
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api
from volapi.volume import backend_call
from volapi.volume import claims
from volapi.volume import cluster
from volapi.volume import manage
from volapi.volume import snapshots
from volapi.volume.transitions import engine


def manageable(context, host=None, cluster_name=None, **paging):
    """manage.manageable of what could become snapshots: each entry also
    has its ``'source_reference'``."""
    return manage.manageable(context, host=host, cluster_name=cluster_name,
                             kind='snapshot', **paging)


def manage_existing(context, volume_id, reference, name=None,
                    description=None, metadata=None, version=None,
                    authorize=None):
    """Take the storage object ``reference`` names, on the backend of
    volume ``volume_id``, as a new snapshot of that volume in the caller's
    project; returns the snapshot ('creating'). ``authorize`` is called
    with the volume."""
    volume = volume_api.get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    server = cluster.address_of(volume)
    if server is None:
        raise volume_api.InvalidRequest(
            'Invalid volume: volume %s is on no backend, so no snapshot of '
            'it can be managed.' % volume.id)
    try:
        _, _, found = manage.ask(context, server, None,
                                 'manage a snapshot on',
                                 'manage_existing_snapshot_get_size',
                                 reference=reference)
    except backend_call.WorkerFailed as error:
        raise manage.remote_reason(error, reference, 'snapshot') from None
    manage.refuse_taken(context, reference)
    snapshot = objects.Snapshot(
        context, id=str(uuid.uuid4()), volume_id=volume.id,
        user_id=context.user_id, project_id=context.project_id,
        display_name=name, display_description=description,
        volume_size=found['size'], deleted=False)

    def build(ctx, volume):
        # snapshot_create proves the type unchanged when it holds the
        # volume.
        snapshot.volume_type_id = volume.volume_type_id
        return [engine.prepare(ctx, 'snapshot_create', volume,
                               version=version, force=True, manage=True),
                engine.prepare(ctx, 'snapshot_manage', snapshot,
                               version=version, reference=reference),
                lambda ctx: metadata_rows.SNAPSHOT.insert(
                    ctx, snapshot.id, metadata or {}),
                # Last: see claims.claim_snapshot.
                lambda ctx: claims.claim_snapshot(ctx, snapshot)]

    snapshot.volume_type_id = volume.volume_type_id
    claims.with_usage_rows(context, snapshot, lambda: (
        volume_api.claiming_on_volume(context, volume.id, build)))
    volume_api.worker_client().manage_existing_snapshot(context, snapshot,
                                                        reference)
    return snapshot


def unmanage(context, snapshot_id, version=None, authorize=None):
    """Let go of the snapshot: 'unmanaging', then the worker leaves its
    storage on the backend and the snapshot goes."""
    snapshot = volume_api.in_one_transaction(
        context, lambda ctx: snapshots.get(ctx, snapshot_id),
        lambda ctx, snapshot: [engine.prepare(ctx, 'snapshot_unmanage',
                                              snapshot, version=version)],
        authorize)
    volume_api.worker_client().unmanage_snapshot(context, snapshot)
