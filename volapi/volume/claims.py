"""What volumes and snapshots hold: a DISK_GB allocation on their pool
(the consumer is the volume or snapshot, with its project and user) and
their share of their project's quota usage; what backups hold: their
project's ``backups`` and ``backup_gigabytes`` (no pool: their data is
kept apart).

Each function runs inside the caller's transaction, the one whose
compare-and-swap makes the state change that needs the claim or release:
the project's usage row first (its compare-and-swap checks the quota and
queues the project's claims), then the pool's provider (placement's
compare-and-swap checks the capacity). Every writer takes them in that
order, so two never wait for each other in a cycle.
"""
import collections

from oslo_config import cfg

from db import api as db_api
from db import models
from db import session
from objects import message
from objects import quota
from objects import type_quota
from objects import volume_type as type_obj
from objects import worker as worker_obj
from objects.placement import allocation as alloc_obj
from objects.placement import allocation_reads as alloc_reads
from objects.placement import consumer as consumer_obj
from objects.placement import resource_class as rc_obj
from volapi.volume import pools

CONF = cfg.CONF
VOLUME_CONSUMER = 'VOLUME'
SNAPSHOT_CONSUMER = 'SNAPSHOT'
# A volume being moved: holds the source pool while the data is copied.
MIGRATION_CONSUMER = quota.MIGRATION_CONSUMER


class NoRoom(Exception):
    """The pool cannot hold the claim (or is not on placement)."""

    def __init__(self, host, reason):
        self.host = host
        super().__init__('pool %s: %s' % (host, reason))


class _ClaimWriter(alloc_obj.AllocationWriter):
    """A claim's allocation write. Its swaps expect no generation, so a
    swap that carried the writes (PostgreSQL) and missed can only have
    found that what grows does not fit: no second run is needed to say
    why. Carried, the writes leave the pool's provider locked for two
    statements (the lock, the swap) instead of five."""

    def missed(self, provider_id, exc):
        return alloc_obj.InvalidInventory(
            resource_class=pools.DISK_GB,
            resource_provider=self.provider_uuids.get(provider_id))


def _request(consumer_id, host, size, project_id, user_id, consumer_type,
             generation):
    allocations = {pools.provider_uuid(host): {pools.DISK_GB: size}} \
        if host else {}
    return alloc_obj.ConsumerAllocations(
        consumer_id, allocations, project_id=project_id, user_id=user_id,
        generation=generation, consumer_type=consumer_type)


def _write_all(context, host, size, requests):
    """Write ``requests`` in one allocation write; NoRoom names ``host``
    (the pool that grows) when it fails."""
    try:
        _ClaimWriter(context, requests).write()
    except alloc_obj.AllocationProviderNotFound:
        raise NoRoom(host, 'not on placement') from None
    except alloc_obj.InvalidInventory:
        raise NoRoom(host, 'no room for %d GiB' % size) from None


def _write(context, consumer_id, host, size, project_id, user_id,
           consumer_type, generation):
    _write_all(context, host, size, [_request(
        consumer_id, host, size, project_id, user_id, consumer_type,
        generation)])


def write_allocation(context, consumer_id, host, size, project_id, user_id,
                     consumer_type):
    """The allocation of a consumer that holds none yet (the online
    migration's)."""
    _write(context, consumer_id, host, size, project_id, user_id,
           consumer_type, None)


def _charge(context, project_id, volume_type_id, volumes=0, snapshots=0,
            gigabytes=0, size=0, enforce=True, make_missing=True, first=()):
    """The project's usage row, then its row of the volume type, by the
    same counts (each refusing with OverQuota what exceeds its limits).
    ``first``: the inserts of what is charged for, made with the
    project's usage swap (see quota.charge)."""
    quota.charge(context, CONF, project_id, volumes=volumes,
                 snapshots=snapshots, gigabytes=gigabytes, size=size,
                 enforce=enforce, make_missing=make_missing, first=first)
    type_quota.charge(context, project_id, volume_type_id, volumes=volumes,
                      snapshots=snapshots, gigabytes=gigabytes,
                      enforce=enforce, make_missing=make_missing)


def _release(context, consumer_id):
    """Remove the consumer's allocations; the DISK_GB they held."""
    held = _held(context, consumer_id)
    if held:
        alloc_obj.delete_for_consumer(context, consumer_id)
    return held


def _held(context, consumer_id):
    held = alloc_reads.get_for_consumer(context, consumer_id)
    if held is None:
        return 0
    return sum(resources['resources'].get(pools.DISK_GB, 0)
               for resources in held['allocations'].values())


def with_usage_rows(context, counted, run):
    """``run()``, the transaction of a claim that inserts ``counted`` (a
    volume or snapshot) before it counts it (:func:`claim_volume`,
    :func:`count_volume`, :func:`claim_snapshot`): if it found the usage
    rows of ``counted``'s project and type deleted by hand, they are made
    again apart, counted from the tables, and it runs once more."""
    try:
        return run()
    except quota.UsageRowMissing:
        type_quota.make_rows_again(context, counted.project_id,
                                   counted.volume_type_id)
        return run()


# -- volumes -------------------------------------------------------------------

def claim_volume(context, volume, rows):
    """A new volume (``volume.host`` the pool chosen): the inserts of
    ``rows`` (the engine.Step of its creates transition), one more volume
    and its size for the project, its allocation on the pool. OverQuota,
    NoRoom, or UsageRowMissing (its usage rows were deleted by hand: see
    :func:`with_usage_rows`).

    The rows every create of the project or on the pool queues on (the
    usage rows, the pool's provider) are taken last, each held until the
    commit for as few statements as can be: the volume's rows go in
    before them, on PostgreSQL in the statement of the project's usage
    swap (db.writes), a round trip each less."""
    _charge(context, volume.project_id, volume.volume_type_id, volumes=1,
            gigabytes=volume.size, size=volume.size, make_missing=False,
            first=rows.inserts())
    _write(context, volume.id, volume.host, volume.size, volume.project_id,
           volume.user_id, VOLUME_CONSUMER, None)


def count_volume(context, volume, rows):
    """A new volume that no pool could hold (it is in 'error' at once):
    ``rows`` inserts it as :func:`claim_volume`'s, it counts against
    ``volumes`` only, and a user message says why. OverQuota or
    UsageRowMissing."""
    _charge(context, volume.project_id, volume.volume_type_id, volumes=1,
            make_missing=False, first=rows.inserts())
    message.record(context, volume.project_id, message.VOLUME, volume.id,
                   message.SCHEDULE_ALLOCATE_VOLUME,
                   message.NO_BACKEND_AVAILABLE)


def resize_volume(context, volume, new_size, enforce=True):
    """Extend: the allocation grows to ``new_size`` (checked against the
    quota and the pool, with ``enforce``) or, after a failed extend or a
    reset, goes back to the volume's size."""
    held = _held(context, volume.id)
    if not volume.host or not held:
        # Holds no pool (its create failed, or it predates claims and is
        # not migrated yet): only the size limit applies.
        quota.charge(context, CONF, volume.project_id, size=new_size,
                     enforce=enforce)
        return
    change = new_size - held
    if not change:
        return
    _charge(context, volume.project_id, volume.volume_type_id,
            gigabytes=change, size=new_size if change > 0 else 0,
            enforce=enforce)
    _write(context, volume.id, volume.host, new_size, volume.project_id,
           volume.user_id, VOLUME_CONSUMER, consumer_obj.UNCHECKED)


def release_volume(context, volume):
    """A volume gone (deleting -> deleted): its allocation and its share of
    the project's usage go."""
    freed = _release(context, volume.id)
    _charge(context, volume.project_id, volume.volume_type_id, volumes=-1,
            gigabytes=-freed, enforce=False)


# -- snapshots -----------------------------------------------------------------

def claim_snapshot(context, snapshot):
    """A new snapshot, its rows inserted: one more snapshot and its
    ``volume_size`` for the project, held on its volume's pool (as Cinder
    counts snapshot gigabytes). OverQuota, NoRoom or UsageRowMissing (as
    :func:`claim_volume`). The caller holds the volume's row."""
    volume = db_api.read_columns(context, models.Volume, snapshot.volume_id,
                                 ['host'])
    host = volume and volume['host']
    on_pool = bool(host) and bool(_held(context, snapshot.volume_id))
    _charge(context, snapshot.project_id, snapshot.volume_type_id,
            snapshots=1, gigabytes=snapshot.volume_size if on_pool else 0,
            make_missing=False)
    if not on_pool:
        return  # its volume holds no pool: neither does the snapshot
    _write(context, snapshot.id, host, snapshot.volume_size,
           snapshot.project_id, snapshot.user_id, SNAPSHOT_CONSUMER, None)


def release_snapshot(context, snapshot):
    freed = _release(context, snapshot.id)
    _charge(context, snapshot.project_id, snapshot.volume_type_id,
            snapshots=-1, gigabytes=-freed, enforce=False)


# -- backups -------------------------------------------------------------------

def claim_backup(context, backup):
    """A new backup, before its row is inserted (a missing usage row is
    made counting the backups table, which must not hold it yet): one
    more backup and its size for the project. OverQuota."""
    quota.charge(context, CONF, backup.project_id, backups=1,
                 backup_gigabytes=backup.size)


def release_backup(context, backup):
    quota.charge(context, CONF, backup.project_id, backups=-1,
                 backup_gigabytes=-backup.size, enforce=False)


# -- retypes ---------------------------------------------------------------------

def retype_volume(context, volume, new_type_id):
    """A retype starts (in its transition's transaction): the volume's
    counts move from its type's row to ``new_type_id``'s, checked against
    the new type's limits (OverQuota). The project's row does not change,
    but is taken first, as by every claim. Last, the new type is held as a
    create holds its type: it must still be live, and a delete of it
    conflicts with the retype."""
    _move_type(context, volume, volume.volume_type_id, new_type_id, True)
    type_obj.guard_in_use(context, new_type_id)


def _move_type(context, volume, from_type_id, to_type_id, enforce):
    if from_type_id == to_type_id:
        return
    held = _held(context, volume.id)
    quota.charge(context, CONF, volume.project_id, enforce=False)
    type_quota.charge(context, volume.project_id, to_type_id, volumes=1,
                      gigabytes=held, enforce=enforce)
    type_quota.charge(context, volume.project_id, from_type_id, volumes=-1,
                      gigabytes=-held, enforce=False)


def _retype_in_flight(context, volume):
    """The type a retype of ``volume`` that has not ended moves it to (its
    workers row keeps it), or None."""
    worker = worker_obj.Worker.get_by_resource(
        context, worker_obj.RESOURCE_TYPES['volume'], volume.id)
    new_type_id = worker.argument_values().get('new_type_id') \
        if worker else None
    return new_type_id if new_type_id != volume.volume_type_id else None


def undo_retype(context, volume, values=None):
    """A retype ended without changing the type (failed, or reset): the
    counts the retype moved go back to the volume's type."""
    new_type_id = _retype_in_flight(context, volume)
    if new_type_id is not None:
        _move_type(context, volume, new_type_id, volume.volume_type_id,
                   False)


# -- migrations ----------------------------------------------------------------

def claim_migration(context, volume, dest_host, migration_id):
    """A move of ``volume`` (loaded, on its source pool ``volume.host``) to
    ``dest_host``, seed 001's way: in ONE allocation write, the volume's
    allocation moves to the destination (checked against its capacity)
    and the migration consumer ``migration_id`` takes over what the
    volume held on the source, so both stay reserved while the data is
    copied. The project's usage does not change. NoRoom."""
    held = _held(context, volume.id)
    _write_all(context, dest_host, volume.size, [
        _request(volume.id, dest_host, volume.size, volume.project_id,
                 volume.user_id, VOLUME_CONSUMER, consumer_obj.UNCHECKED),
        _request(migration_id, volume.host if held else None, held,
                 volume.project_id, volume.user_id, MIGRATION_CONSUMER,
                 None)])


def end_migration(context, volume, values):
    """The data is at the destination: the source's hold goes."""
    _release(context, volume.migration_id)


def undo_migration(context, volume, values=None):
    """The move is abandoned, the volume still on its source pool
    (``volume.host``): it holds there again what the migration consumer
    held, and the destination is freed, in one allocation write. Nothing
    to do once the migration consumer holds nothing (done already)."""
    held = _held(context, volume.migration_id)
    if not held:
        return
    _write_all(context, volume.host, held, [
        _request(volume.id, volume.host, held, volume.project_id,
                 volume.user_id, VOLUME_CONSUMER, consumer_obj.UNCHECKED),
        _request(volume.migration_id, None, 0, volume.project_id,
                 volume.user_id, MIGRATION_CONSUMER, consumer_obj.UNCHECKED)])


# -- transfers -------------------------------------------------------------------

def transfer(context, volume, snapshots, giver, project_id, user_id):
    """A volume, and the ``snapshots`` taken with it, accepted by
    ``project_id``/``user_id`` from project ``giver``, in the transaction
    of their compare-and-swaps: the accepting project is charged what
    they hold (one more volume, checked against per_volume_gigabytes too,
    then the snapshots, as Cinder reserves them; OverQuota), the giving
    project released of it, and their placement consumers move to the
    new owner (consumer.give_to). The projects' rows are taken in the
    order of their ids, so two transfers never wait for each other in a
    cycle. UsageRowMissing as :func:`claim_volume` (the accepting
    project's rows are made beforehand: type_quota.ensure_rows)."""
    held = consumer_obj.holdings(
        context, [volume.id] + [s.id for s in snapshots],
        rc_obj.STANDARD_IDS[pools.DISK_GB])
    volume_held = held.get(volume.id, (None, 0))[1]
    counts = collections.Counter(s.volume_type_id for s in snapshots)
    sizes = collections.Counter()
    for snapshot in snapshots:
        sizes[snapshot.volume_type_id] += held.get(snapshot.id, (None, 0))[1]

    def charge(project, sign, enforce):
        _charge(context, project, volume.volume_type_id, volumes=sign,
                gigabytes=sign * volume_held,
                size=volume.size if enforce else 0, enforce=enforce,
                make_missing=False)
        for type_id in sorted(counts, key=str):
            _charge(context, project, type_id, snapshots=sign * counts[type_id],
                    gigabytes=sign * sizes[type_id], enforce=enforce,
                    make_missing=False)

    for project in sorted({giver, project_id}, key=str):
        if project == project_id:
            charge(project_id, 1, True)
        if project == giver:
            charge(giver, -1, False)
    consumer_obj.give_to(context, {uuid: generation for uuid, (
        generation, _amount) in held.items()}, project_id, user_id)


# -- the transitions that release or give back ----------------------------------

def _back_to_size(context, volume, values):
    resize_volume(context, volume, volume.size, enforce=False)


def _reset(context, volume, values):
    # A reset of the migration status ends a migration in flight where it
    # started: on the source, which the volume's host still names.
    if values.get('migration_status', 'migrating') != 'migrating' and \
            volume.migration_id:
        undo_migration(context, volume)
    if values.get('status', 'retyping') != 'retyping':
        undo_retype(context, volume)
    _back_to_size(context, volume, values)


def _undo_migration_and_retype(context, volume, values):
    undo_migration(context, volume, values)
    undo_retype(context, volume)


# {transition name: fn(context, obj, values)}, run by the transition engine
# in the transaction of the transition's compare-and-swap, once it matched
# (``obj`` holds what it wrote).
AFTER_TRANSITION = {
    'delete_done': lambda ctx, volume, values: release_volume(ctx, volume),
    'unmanage_done': lambda ctx, volume, values: release_volume(ctx, volume),
    'extend_failed': _back_to_size,
    'reset_status': _reset,
    'migrate_done': end_migration,
    'migrate_failed': _undo_migration_and_retype,
    'retype_failed': undo_retype,
    # From 'retyping': the counts go back to the type the volume keeps,
    # read from the retype's workers row before the delete's replaces it.
    'force_delete': lambda ctx, volume, values: undo_retype(ctx, volume),
    'snapshot_delete_done':
        lambda ctx, snapshot, values: release_snapshot(ctx, snapshot),
    'snapshot_unmanage_done':
        lambda ctx, snapshot, values: release_snapshot(ctx, snapshot),
    'backup_delete_done':
        lambda ctx, backup, values: release_backup(ctx, backup),
}


def read_committed(context):
    """The first statement of a claim's (or release's) transaction: claims
    queue on the project's usage row and the pool's provider row, and at
    READ COMMITTED (PostgreSQL) each statement sees what the claim it
    waited for committed, instead of failing and starting over."""
    with session.writer.connection.using(context) as conn:
        session.read_committed(conn)


# Transitions whose transaction may run at READ COMMITTED from its first
# statement (PostgreSQL): their compare-and-swaps test only their own rows'
# columns, which a waiting UPDATE re-checks on the row it finally gets, and
# their releases are relative UPDATEs that are never refused. Concurrent
# deletes on one pool then queue on its inventory row instead of failing
# with serialization errors, starting over, and running out of retries.
READ_COMMITTED = frozenset(['delete_done', 'unmanage_done',
                            'snapshot_delete_done', 'snapshot_unmanage_done'])


def after_transition(context, name, obj, values):
    fn = AFTER_TRANSITION.get(name)
    if fn is not None:
        fn(context, obj, values)
