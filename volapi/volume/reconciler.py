"""Re-driving operations that their worker will not finish.

An operation in flight is a ``workers`` row (see objects.worker). Its
worker may die (SIGKILL, host lost), its message may be lost (a broker
restart, a claim that failed on a database error), or its ending transition
may fail after the storage work was done. Each worker reconciles, at
start-up and every ``[volume] cleanup_interval`` seconds, the stale rows
(see cleanup.stale_criterion: held by a service that is down, unclaimed
for ``[volume] unclaimed_work_timeout``, its own rows of a previous life or
ones it lost track of) whose resource its cluster serves:

1. it takes the row over with one compare-and-swap (objects.Worker.take_over),
   so of two peers exactly one re-drives it, and a late message or a holder
   that comes back to life loses to it;
2. it runs the operation again (volume manager's ``redrive``): driver
   operations are idempotent, so work already done is found done (a file
   already at the new size, a snapshot already copied) and the transition
   ends as it would have, through the transition table; it fails only when
   the driver fails.

Rows of other clusters are left to their members (a cluster with no live
member keeps its operations in flight until one comes back; an admin can
fail them with ``POST /workers/cleanup``). A row that cannot be re-driven
(written before rows kept their arguments) is repaired as the cleanup does.
"""
from oslo_log import log as logging

from db import exceptions as db_exc
import objects
from volapi.volume import cleanup
from volapi.volume.transitions import table

LOG = logging.getLogger(__name__)


class Reconciler:
    """Re-drives the stale operations a cluster member serves."""

    def __init__(self, context, manager, membership, service):
        self.context = context
        self.manager = manager
        self.membership = membership
        # volapi.service.ServiceHeartbeat: our current service id.
        self.service = service

    def reconcile(self, at_start=False, unclaimed_timeout=None):
        """One pass; returns the Workers re-driven or repaired. At start-up
        our own rows are from a previous life; later, our rows older than
        service_down_time for resources the manager is not busy with are
        ones we lost track of."""
        service_id = self.service.service_id
        if at_start:
            stale = cleanup.stale(own_service_id=service_id,
                                  unclaimed_timeout=unclaimed_timeout)
        else:
            stale = cleanup.stale(unclaimed_timeout=unclaimed_timeout,
                                  busy=(service_id, self.manager.busy()))
        done = []
        for worker in objects.Worker.get_stale(self.context, stale):
            if self._reconcile_one(worker, stale, service_id):
                done.append(worker)
        return done

    def _reconcile_one(self, worker, stale, service_id):
        try:
            resource, volume = self._load(worker)
        except db_exc.NotFound:
            # The resource is gone (purged); only the row is left.
            return cleanup.repair(self.context, worker, stale,
                                  cleaner_id=service_id)
        if not self.membership.serves(volume):
            return False
        if not worker.take_over(stale, service_id):
            return False
        try:
            if self.manager.redrive(self.context, worker, resource):
                return True
        except Exception:
            # The row stays ours; the next pass finds it idle and retries.
            LOG.exception('%s %s: re-driving %s failed', worker.resource_type,
                          worker.resource_id, worker.status)
            return False
        LOG.warning('%s %s: %s cannot be re-driven (its arguments were not '
                    'kept); repairing it', worker.resource_type,
                    worker.resource_id, worker.status)
        return cleanup.repair(self.context, worker, cleanup.stale(
            own_service_id=service_id), cleaner_id=service_id)

    def _load(self, worker):
        """(the resource, the volume whose storage it is on: for a
        backup's restore, the volume written to)."""
        if worker.resource_type == table.WORKER_TYPES['backup']:
            backup = objects.Backup.get_by_id(
                self.context, worker.resource_id, include_deleted=True)
            volume_id = backup.restore_volume_id \
                if worker.status == 'restoring' else backup.volume_id
            return backup, objects.Volume.get_by_id(
                self.context, volume_id, include_deleted=True)
        owned = {table.WORKER_TYPES['snapshot']: objects.Snapshot,
                 table.WORKER_TYPES['attachment']: objects.VolumeAttachment}
        if worker.resource_type in owned:
            resource = owned[worker.resource_type].get_by_id(
                self.context, worker.resource_id, include_deleted=True)
            return resource, objects.Volume.get_by_id(
                self.context, resource.volume_id, include_deleted=True)
        volume = objects.Volume.get_by_id(self.context, worker.resource_id,
                                          include_deleted=True)
        return volume, volume
