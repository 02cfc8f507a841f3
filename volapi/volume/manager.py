"""The volume worker's RPC endpoint: storage work between two
compare-and-swaps.

Every cast follows one pattern (:meth:`VolumeManager._operate`):

1. claim the operation's ``workers`` row: ``service_id NULL -> mine`` in one
   compare-and-swap. Losing the claim means another worker or the cleanup
   has it (a redelivered or stale message): the message is dropped;
2. call the driver;
3. end the transition with the worker-side transition of
   ``volapi.volume.transitions`` (``extend_done`` or ``extend_failed`` ...),
   a compare-and-swap from the transient status that also deletes the
   ``workers`` row (a connection's termination has none: its attachment
   is gone already, and only the row is deleted).

An operation whose worker died or whose message was lost is taken over by
a peer of the same cluster (volapi.volume.reconciler), which runs the same
plan again from step 2 (:meth:`VolumeManager.redrive`).

Nothing is read, checked and written: step 3 runs in one transaction with a
compare-and-swap proving the ``workers`` row is still ours, so if the
reconciliation took the operation over meanwhile (we were thought dead), the
late result is rolled back and logged, whatever happened to the resource
since.
"""
import collections
import threading

import oslo_messaging
from oslo_log import log as logging
from oslo_utils import timeutils

from db import exceptions as db_exc
import objects
from rpc import volume as volume_rpc
from volapi import log_levels
from volapi.volume import backup_manager
from volapi.volume import claims
from volapi.volume import cluster
from volapi.volume import failure_messages
from volapi.volume import pools
from volapi.volume.transitions import engine
from volapi.volume.transitions import table
from volapi.volume.drivers import base as drivers_base

LOG = logging.getLogger(__name__)

VOLUME = table.WORKER_TYPES['volume']
SNAPSHOT = table.WORKER_TYPES['snapshot']
ATTACHMENT = table.WORKER_TYPES['attachment']

# (resource_type, status of the workers row) -> the manager's plan of that
# operation and the names of its arguments kept in the row.
REDRIVE = {
    (VOLUME, 'creating'): ('_create_volume', ()),
    (VOLUME, 'deleting'): ('_delete_volume', ()),
    (VOLUME, 'extending'): ('_extend_volume', ('new_size',)),
    (VOLUME, 'retyping'): ('_retype', ('new_type_id',)),
    (VOLUME, 'migrating'): ('_migrate_volume', ('dest_host',)),
    (VOLUME, 'managing'): ('_manage_existing', ('reference',)),
    (VOLUME, 'unmanaging'): ('_unmanage_volume', ()),
    (SNAPSHOT, 'creating'): ('_create_snapshot', ()),
    (SNAPSHOT, 'deleting'): ('_delete_snapshot', ()),
    (SNAPSHOT, 'restoring'): ('_revert_to_snapshot', ()),
    (SNAPSHOT, 'managing'): ('_manage_existing_snapshot', ('reference',)),
    (SNAPSHOT, 'unmanaging'): ('_unmanage_snapshot', ()),
    (ATTACHMENT, 'terminating'): ('_terminate_connection', ()),
}
REDRIVE.update(backup_manager.REDRIVE)


class OperationLost(Exception):
    """Our workers row was taken over; the transition is rolled back."""


class VolumeManager(backup_manager.BackupOperations):
    """Endpoint of topic ``volapi-volume`` for one backend (one driver);
    its backup operations are volapi.volume.backup_manager's."""

    target = oslo_messaging.Target(version=volume_rpc.RPC_API_VERSION)

    def __init__(self, driver, service, host, cluster_name=None):
        self.driver = driver
        # volapi.service.ServiceHeartbeat: its service_id is ours to claim
        # with (it changes if our services row had to be registered again).
        self.service = service
        # What volumes created here record as their host: host@backend#pool,
        # and as their cluster: cluster@backend#pool (None: no cluster).
        self.host = host
        self.cluster_name = cluster_name
        # Resources with an operation in progress here: the periodic cleanup
        # repairs our other claimed rows (ones whose ending transition failed).
        self._busy = collections.Counter()
        self._busy_lock = threading.Lock()

    def busy(self):
        """Ids of the resources this manager is working on now."""
        with self._busy_lock:
            return set(self._busy)

    # -- the pattern ----------------------------------------------------------
    def _operate(self, context, resource_type, resource, plan,
                 claimed=None):
        """Claim, work, finish (see the module's docstring); ``plan`` is
        (status, work, done, failed) and ``work()`` returns the values
        ``done`` records. ``claimed`` is a Worker already taken over (a
        re-drive): there is no claim to make."""
        # Busy before the claim, until after the finish: the reconciliation
        # must never see our claimed row without seeing us busy with it.
        with self._busy_lock:
            self._busy[resource.id] += 1
        try:
            self._claim_work_finish(context, resource_type, resource, plan,
                                    claimed)
        finally:
            with self._busy_lock:
                self._busy[resource.id] -= 1
                if not self._busy[resource.id]:
                    del self._busy[resource.id]

    def _claim_work_finish(self, context, resource_type, resource, plan,
                           claimed):
        status, work, done, failed = plan[:4]
        # What to do once ``done`` is applied, and once the work is known
        # not to count (a failure, or the operation taken from us).
        applied, discarded = (plan[4:] + (None, None))[:2]
        if claimed is None:
            if not objects.Worker.take(context, resource_type, resource.id,
                                       status, self.service.service_id):
                LOG.info('%s %s: no unclaimed %s operation; another worker '
                         'has it, message dropped',
                         resource_type, resource.id, status)
                return
        # One INFO line per operation, at its end (the formatting costs a
        # worker a few percent of its CPU per line).
        LOG.debug('%s %s: %s (claimed)', resource_type, resource.id, status)
        try:
            values = work() or {}
        except Exception as exc:
            LOG.exception('%s %s: the driver failed while %s',
                          resource_type, resource.id, status)
            self._finish(context, resource_type, failed, resource,
                         also=failure_messages.recorder(failed, resource),
                         **_failure(failed, exc))
            _after(discarded)
        else:
            ended = self._finish(context, resource_type, done, resource,
                                 **values)
            _after(applied if ended else discarded)

    def _finish(self, context, resource_type, name, resource, also=None,
                **values):
        """End the transition, in one transaction with the proof that the
        operation is still ours: if a peer took it over while the driver
        worked (we were thought dead), and perhaps a new operation began
        since, this late result must not land on it. ``also(ctx)``, if
        given, runs in that transaction too. True if applied."""
        # No transition (``name`` None): the resource is in its final
        # state already, and ending the operation is deleting its row.
        steps = [engine.prepare(context, name, resource, **values)] \
            if name else []
        # A transition that ends the operation (always, when it is not
        # lenient): the proof is the delete of the row, made first, which
        # the transition then does not repeat.
        finished = all(step.transition.workers_row == 'finish' and
                       not step.transition.lenient for step in steps)
        for step in steps:
            step.workers_row_finished = finished
        prove = objects.Worker.finish_held if finished \
            else objects.Worker.still_held

        def still_ours(ctx):
            if not prove(ctx, resource_type, resource.id,
                         self.service.service_id):
                raise OperationLost()

        first = [claims.read_committed] \
            if name in claims.READ_COMMITTED else []
        label = name or 'the end of the operation'
        try:
            engine.run(context, *first, still_ours, *steps,
                       *([also] if also else []))
        except OperationLost:
            LOG.warning('%s of %s not applied: the operation was taken over '
                        'by a peer meanwhile', label, resource.id)
        except (db_exc.ConditionNotMet, db_exc.NotFound,
                db_exc.ConcurrentUpdate) as e:
            LOG.warning('%s of %s not applied: %s', label, resource.id, e)
        else:
            LOG.info('%s of %s applied', label, resource.id)
            return True
        return False

    # -- re-driving an operation taken over from a dead peer or lost message
    def redrive(self, context, worker, resource):
        """Do ``worker``'s operation (a row this service has just taken
        over, see objects.Worker.take_over) on ``resource`` again: driver
        operations are idempotent (create, delete, extend to N, snapshot
        create and delete), so what the first attempt did is found done
        and the transition ends as it would have. Returns False (leaving
        the row for the caller to repair) when the operation cannot be
        re-driven: a row written before it kept its arguments."""
        method, names = REDRIVE[(worker.resource_type, worker.status)]
        arguments = worker.argument_values()
        if any(name not in arguments for name in names):
            return False
        plan = getattr(self, method)(
            context, resource, *[arguments[name] for name in names])
        LOG.warning('%s %s: re-driving %s', worker.resource_type,
                    resource.id, worker.status)
        self._operate(context, worker.resource_type, resource, plan,
                      claimed=worker)
        return True

    # -- volumes --------------------------------------------------------------
    def create_volume(self, context, volume):
        self._operate(context, VOLUME, volume,
                      self._create_volume(context, volume))

    def _create_volume(self, context, volume):
        def work():
            if volume.snapshot_id:
                snapshot = objects.Snapshot.get_by_id(
                    context, volume.snapshot_id)
                values = self.driver.create_volume_from_snapshot(
                    volume, snapshot)
            elif volume.source_volid:
                source = objects.Volume.get_by_id(context,
                                                  volume.source_volid)
                values = self.driver.create_cloned_volume(volume, source)
            elif volume.backup_id:
                # The restore's own path: the driver makes the volume
                # with the backup's data.
                backup = objects.Backup.get_by_id(context, volume.backup_id)
                values = self.driver.restore_backup(backup, volume)
            else:
                values = self.driver.create_volume(volume)
            # The pool the API scheduled the volume to (older volumes:
            # this worker's default pool).
            return dict(values or {}, host=volume.host or self.host,
                        cluster_name=self._cluster_of(volume),
                        launched_at=timeutils.utcnow())

        return 'creating', work, 'create_done', 'create_failed'

    def _cluster_of(self, volume):
        """``cluster@backend#pool`` of the volume's pool, or None."""
        if not self.cluster_name:
            return None
        pool = pools.pool_name_of(volume.host) or \
            pools.pool_name_of(self.host)
        return '%s#%s' % (self.cluster_name.partition('#')[0], pool)

    def delete_volume(self, context, volume):
        self._operate(context, VOLUME, volume,
                      self._delete_volume(context, volume))

    def _delete_volume(self, context, volume):
        def work():
            self.driver.delete_volume(volume)

        return 'deleting', work, 'delete_done', 'delete_failed'

    def extend_volume(self, context, volume, new_size):
        self._operate(context, VOLUME, volume,
                      self._extend_volume(context, volume, new_size))

    def _extend_volume(self, context, volume, new_size):
        def work():
            # Extending to N is idempotent: after a crash the backing store
            # may be at N already, and the database then catches up.
            self.driver.extend_volume(volume, new_size)
            return {'size': new_size}

        return 'extending', work, 'extend_done', 'extend_failed'

    def retype(self, context, volume, new_type_id):
        self._operate(context, VOLUME, volume,
                      self._retype(context, volume, new_type_id))

    def _retype(self, context, volume, new_type_id):
        def work():
            if not self.driver.retype(volume, new_type_id):
                raise drivers_base.VolumeDriverError(
                    'driver %s cannot retype volumes in place'
                    % type(self.driver).__name__)
            return {'volume_type_id': new_type_id}

        return 'retyping', work, 'retype_done', 'retype_failed'

    def migrate_volume(self, context, volume, dest_host):
        self._operate(context, VOLUME, volume,
                      self._migrate_volume(context, volume, dest_host))

    def _migrate_volume(self, context, volume, dest_host):
        """Copy the data to ``dest_host``'s pool under the migration's name,
        then point the volume there (``migrate_done``, which frees the
        source's allocation); the source's data goes once that committed.
        A copy that does not count (failed, or the migration was ended
        from elsewhere) is removed."""
        # Copies: ending the transition updates ``volume`` in place.
        source = volume.obj_clone()
        moved = volume.obj_clone()
        moved.host = dest_host
        moved.name_id = volume.migration_id
        moved.provider_location = None
        new_type_id = self._retype_of(context, volume)

        def work():
            values = self.driver.migrate_volume(volume, dest_host,
                                                volume.migration_id)
            return dict(values or {}, host=dest_host, name_id=moved.name_id,
                        cluster_name=cluster.cluster_name_of_pool(
                            context, dest_host),
                        volume_type_id=new_type_id)

        return ('migrating', work, 'migrate_done', 'migrate_failed',
                lambda: self.driver.delete_volume(source),
                lambda: self._discard_copy(context, moved))

    def _discard_copy(self, context, moved):
        """Remove the copy ``moved`` of a migration that did not end with
        us, unless it is in use: a peer that took the migration over may be
        copying to the same name, or may have ended it with that copy."""
        try:
            volume = objects.Volume.get_by_id(context, moved.id)
        except db_exc.NotFound:
            volume = None
        if volume is not None and (volume.migration_status == 'migrating'
                                   or volume.name_id == moved.name_id):
            LOG.info('volume %s: copy %s kept (the migration is %s)',
                     moved.id, moved.name_id, volume.migration_status)
            return
        self.driver.delete_volume(moved)

    @staticmethod
    def _retype_of(context, volume):
        """The type a retype's migration changes to (kept in its workers
        row), else the volume's own."""
        worker = objects.Worker.get_by_resource(context, VOLUME, volume.id)
        arguments = worker.argument_values() if worker else {}
        return arguments.get('new_type_id') or volume.volume_type_id

    # -- snapshots ------------------------------------------------------------
    def create_snapshot(self, context, snapshot):
        self._operate(context, SNAPSHOT, snapshot,
                      self._create_snapshot(context, snapshot))

    def _create_snapshot(self, context, snapshot):
        def work():
            volume = objects.Volume.get_by_id(context, snapshot.volume_id)
            return self.driver.create_snapshot(snapshot, volume)

        return ('creating', work, 'snapshot_create_done',
                'snapshot_create_failed')

    def delete_snapshot(self, context, snapshot):
        self._operate(context, SNAPSHOT, snapshot,
                      self._delete_snapshot(context, snapshot))

    def _delete_snapshot(self, context, snapshot):
        def work():
            self.driver.delete_snapshot(snapshot)

        return ('deleting', work, 'snapshot_delete_done',
                'snapshot_delete_failed')

    def revert_to_snapshot(self, context, snapshot):
        self._operate(context, SNAPSHOT, snapshot,
                      self._revert_to_snapshot(context, snapshot))

    def _revert_to_snapshot(self, context, snapshot):
        def work():
            volume = objects.Volume.get_by_id(context, snapshot.volume_id)
            self.driver.revert_to_snapshot(volume, snapshot)

        return ('restoring', work, 'snapshot_revert_done',
                'snapshot_revert_failed')

    # -- existing storage: cinder manage / unmanage ---------------------------
    def manage_existing(self, context, volume, reference):
        self._operate(context, VOLUME, volume,
                      self._manage_existing(context, volume, reference))

    def _manage_existing(self, context, volume, reference):
        def work():
            values = self.driver.manage_existing(volume, reference)
            return dict(values or {},
                        cluster_name=self._cluster_of(volume),
                        launched_at=timeutils.utcnow())

        return 'managing', work, 'manage_done', 'manage_failed'

    def unmanage_volume(self, context, volume):
        self._operate(context, VOLUME, volume,
                      self._unmanage_volume(context, volume))

    def _unmanage_volume(self, context, volume):
        def work():
            self.driver.unmanage(volume)

        return 'unmanaging', work, 'unmanage_done', 'unmanage_failed'

    def get_manageable_volumes(self, context):
        return self.driver.manageable_volumes()

    def manage_existing_get_size(self, context, reference):
        pool, size = self.driver.manage_existing_get_size(reference)
        return {'pool': pool, 'size': size}

    def manage_existing_snapshot(self, context, snapshot, reference):
        self._operate(context, SNAPSHOT, snapshot,
                      self._manage_existing_snapshot(context, snapshot,
                                                     reference))

    def _manage_existing_snapshot(self, context, snapshot, reference):
        def work():
            volume = objects.Volume.get_by_id(context, snapshot.volume_id)
            return self.driver.manage_existing_snapshot(snapshot, volume,
                                                        reference)

        # Ends as a created snapshot ends (Cinder's 'creating').
        return ('managing', work, 'snapshot_create_done',
                'snapshot_create_failed')

    def unmanage_snapshot(self, context, snapshot):
        self._operate(context, SNAPSHOT, snapshot,
                      self._unmanage_snapshot(context, snapshot))

    def _unmanage_snapshot(self, context, snapshot):
        def work():
            self.driver.unmanage_snapshot(snapshot)

        return ('unmanaging', work, 'snapshot_unmanage_done',
                'snapshot_unmanage_failed')

    def get_manageable_snapshots(self, context):
        return self.driver.manageable_snapshots()

    def manage_existing_snapshot_get_size(self, context, reference):
        pool, size = self.driver.manage_existing_snapshot_get_size(reference)
        return {'pool': pool, 'size': size}

    # -- calls: the API waits for the answer, nothing to claim ---------------
    def get_capabilities(self, context, discover=False):
        """The backend's capabilities (Cinder's get-capabilities); this
        driver reads them afresh at each call, so ``discover`` changes
        nothing."""
        return self.driver.capabilities()

    def get_log_levels(self, context, prefix=None):
        return log_levels.get(prefix)

    def set_log_levels(self, context, prefix, level):
        log_levels.set_level(prefix, level)

    # -- connections ----------------------------------------------------------
    def initialize_connection(self, context, volume, connector):
        # A call: the API waits for the answer, nothing to claim.
        return self.driver.initialize_connection(volume, connector)

    def terminate_connector(self, context, volume, connector):
        # A call (os-terminate_connection): the caller holds the connector.
        self.driver.terminate_connection(volume, connector)

    def terminate_connection(self, context, volume, attachment,
                             tracked=False):
        """``tracked``: a workers row records the termination (RPC 1.2);
        without it (an API from before) there is nothing to claim."""
        if not tracked:
            self.driver.terminate_connection(volume,
                                             attachment.connector_dict())
            return
        self._operate(context, ATTACHMENT, attachment,
                      self._terminate_connection(context, attachment,
                                                 volume))

    def _terminate_connection(self, context, attachment, volume=None):
        def work():
            self.driver.terminate_connection(
                volume or objects.Volume.get_by_id(
                    context, attachment.volume_id, include_deleted=True),
                attachment.connector_dict())

        # The attachment is gone already: ending is deleting the row.
        return 'terminating', work, None, None


# Room for why it failed in a column of a resource's row.
FAIL_REASON_LENGTH = 255


def _failure(name, exc):
    """What failed transition ``name`` records of ``exc``: the reason,
    where its resource keeps one (a backup's ``fail_reason``)."""
    if name is None or 'fail_reason' not in table.TRANSITIONS[name].values:
        return {}
    reason = str(exc) or type(exc).__name__
    return {'fail_reason': reason[:FAIL_REASON_LENGTH]}


def _after(step):
    """Run the storage step that follows a transition; a failure leaves
    data behind (logged) but changes no state."""
    if step is None:
        return
    try:
        step()
    except Exception:
        LOG.exception('cleaning up after an operation failed')
