"""Reshaping a worker's provider tree when its pools change (seed 002).

A worker's backend is a root provider and each pool a child
(volapi.volume.pools). When the pools the driver reports no longer match
the tree on placement - a pool removed or renamed, pools split, data moved
between pools, or DISK_GB on the root provider as before pools were
children - the allocations of the volumes and snapshots have to follow
their data, with the inventory, in one step that nothing else can slip in
between:

1. :func:`reshape_needed` is the cheap check (the spec's ReshapeNeeded):
   the tree's shape, and where the driver says each volume's data is
   against the pool its host names. Allocations are only gathered when it
   finds something;
2. :func:`plan` creates the missing pool providers, reads the tree with
   its generations, gathers the allocations of every consumer on it, and
   assigns each volume's and snapshot's allocation to the pool holding its
   data (``driver.locate``; a snapshot without a file follows its volume);
3. :func:`apply` writes, in ONE transaction, the moved volumes' and
   snapshots' rows (host, cluster_name, provider_location: each a
   compare-and-swap from what the plan read) and the inventories and
   allocations (objects.placement.reshaper, POST /reshaper's
   implementation, which compares generations);
4. a generation conflict or a changed row (a create, extend or delete
   landed meanwhile) starts again from a fresh read, at most
   ``attempts`` times, then :class:`ReshapeFailed` (the worker does not
   start);
5. pools left with no inventory and no allocations are deleted.

The worker runs :func:`at_start_up` before it takes any message;
``volapi-manage placement reshape`` runs :func:`reshape` with the workers
stopped.
"""
import collections

import sqlalchemy as sa
from oslo_log import log as logging

from db import api as db_api
from db import models
from db import session
import objects
from objects import volume_list
from objects.placement import allocation as alloc_obj
from objects.placement import allocation_reads as alloc_reads
from objects.placement import consumer as consumer_obj
from objects.placement import exception as placement_exc
from objects.placement import inventory as inv_obj
from objects.placement import reshaper
from objects.placement import resource_provider as rp_obj
from volapi.volume import pools

LOG = logging.getLogger(__name__)

ATTEMPTS = 5
VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__
# Rows read by one IN (...) (SQLite limits bound parameters).
_CHUNK = 500


class ReshapeFailed(Exception):
    """The provider tree could not be reshaped: the worker must not start
    with placement disagreeing with where its data is."""


class _RowChanged(Exception):
    """A volume or snapshot row is no longer what the plan read."""


# What a write that raced another one raises: plan again from a fresh read.
_RACES = (placement_exc.ConcurrentUpdateDetected, placement_exc.NotFound,
          _RowChanged)


class Move:
    """A volume's, snapshot's or other consumer's allocation going from
    ``source`` (pool provider names) to pool ``target``."""

    __slots__ = ('kind', 'ident', 'source', 'target')

    def __init__(self, kind, ident, source, target):
        self.kind, self.ident = kind, ident
        self.source, self.target = source, target

    def __str__(self):
        return '%s %s: %s -> %s' % (self.kind, self.ident,
                                    ', '.join(self.source) or '-',
                                    self.target)


class Plan:
    """What one reshape writes: ``inventories`` and ``requests`` as
    reshaper.reshape takes them; ``rows``: (model, id, values, expected)
    compare-and-swaps of volumes and snapshots; ``moves`` to report;
    ``removed``: providers of pools the driver no longer reports."""

    def __init__(self):
        self.inventories = {}
        self.requests = []
        self.rows = []
        self.moves = []
        self.removed = []

    @property
    def empty(self):
        return not (self.inventories or self.requests or self.rows)


class Result:
    """What a reshape did: the moves, the attempts it took and the
    providers deleted."""

    def __init__(self, moves, attempts, deleted):
        self.moves, self.attempts, self.deleted = moves, attempts, deleted

    def summary(self):
        kinds = collections.Counter(m.kind for m in self.moves)
        lines = [str(m) for m in self.moves]
        lines.append('%d volume(s), %d snapshot(s), %d other consumer(s) '
                     'moved in %d attempt(s); pool providers deleted: %s' % (
                         kinds['volume'], kinds['snapshot'],
                         kinds['consumer'], self.attempts,
                         ', '.join(self.deleted) or 'none'))
        return lines


# -- the tree ------------------------------------------------------------------

def _host(root_name, pool_name):
    return '%s#%s' % (root_name, pool_name)


def _read_tree(context, root_name):
    """{provider name: (provider, {class: inventory fields})} of the root
    and its pool providers (``root#...``); other providers someone put in
    the tree are not the worker's to reshape."""
    providers = rp_obj.get_all_by_filters(
        context, in_tree=pools.provider_uuid(root_name))
    tree = {}
    for provider in providers:
        if provider.name != root_name and \
                not provider.name.startswith(root_name + '#'):
            continue
        tree[provider.name] = (provider, {
            row['resource_class']: {f: row[f] for f in inv_obj.FIELDS}
            for row in inv_obj.get_all_by_provider(context, provider.id)})
    return tree


def _reported(driver, root_name):
    """{pool host: pool as the driver reports it}, in the driver's order
    (the first is where what cannot be located goes)."""
    return {_host(root_name, pool['pool_name']): pool
            for pool in driver.get_pools()}


# -- volumes and snapshots -----------------------------------------------------

def _live(table, *criteria):
    return sa.select(table).where(table.c.deleted == sa.false(), *criteria)


def _read(context, query):
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).mappings().all()


def _by_ids(context, table, ids):
    rows = []
    ids = sorted(ids)
    for start in range(0, len(ids), _CHUNK):
        rows += _read(context, _live(table, table.c.id.in_(
            ids[start:start + _CHUNK])))
    return rows


def _resources(context, root_name, consumer_ids=()):
    """({id: Volume}, {id: Snapshot}) of the live volumes on the backend
    (host ``root#...``) and their snapshots, plus those among
    ``consumer_ids``."""
    volumes = {r['id']: r for r in _read(context, _live(
        VOLUMES, VOLUMES.c.host.startswith(root_name + '#',
                                           autoescape=True)))}
    snapshots = {}
    volume_ids = sorted(volumes)
    for start in range(0, len(volume_ids), _CHUNK):
        snapshots.update((r['id'], r) for r in _read(context, _live(
            SNAPSHOTS, SNAPSHOTS.c.volume_id.in_(
                volume_ids[start:start + _CHUNK]))))
    others = set(consumer_ids) - set(volumes) - set(snapshots)
    volumes.update((r['id'], r) for r in _by_ids(context, VOLUMES, others))
    snapshots.update((r['id'], r)
                     for r in _by_ids(context, SNAPSHOTS, others))
    return ({i: volume_list.volume_from_row(context, r)
             for i, r in volumes.items()},
            {i: objects.Snapshot._from_row(context, r)
             for i, r in snapshots.items()})


def _migrating(volume):
    return volume.migration_status == 'migrating'


def _located(driver, kind, resource, reported, root_name):
    """(pool host, location) where the driver says the data is, if that
    is one of the reported pools; else None."""
    found = driver.locate(kind, resource)
    if found is None or found[0] is None:
        return None
    host = _host(root_name, found[0])
    return (host, found[1]) if host in reported else None


def reshape_needed(context, reporter, driver):
    """Why the worker's tree must be reshaped, in words; None if it need
    not (then nothing is read beyond the tree and the volume rows)."""
    root_name = reporter.server_name
    tree = _read_tree(context, root_name)
    if not tree:
        return None  # a new backend: the report makes its tree
    reported = _reported(driver, root_name)
    if tree.get(root_name, (None, {}))[1]:
        return 'the backend provider %s has inventory' % root_name
    removed = sorted(set(tree) - set(reported) - {root_name})
    if removed:
        return 'pool(s) no longer reported: %s' % ', '.join(removed)
    volumes, snapshots = _resources(context, root_name)
    misplaced = 0
    for volume in volumes.values():
        if _migrating(volume):
            continue  # its data is in both pools until the move ends
        found = _located(driver, 'volume', volume, reported, root_name)
        misplaced += bool(found and found[0] != volume.host)
    for snapshot in snapshots.values():
        found = _located(driver, 'snapshot', snapshot, reported, root_name)
        volume = volumes.get(snapshot.volume_id)
        misplaced += bool(found and volume and found[0] != volume.host)
    if misplaced:
        return ('%d volume(s) or snapshot(s) have their data in another '
                'pool than their host names' % misplaced)
    return None


# -- the plan ------------------------------------------------------------------

def _gather(context, tree):
    """{consumer: its allocations as GET /allocations/{consumer} shows
    them} for every consumer holding anything on ``tree``: all of each
    consumer's allocations, on the tree or not."""
    return alloc_reads.get_for_provider_tree(
        context, [provider.uuid for provider, _ in tree.values()])


def _with_placement_config(context, conf):
    """``context``, or a placement context with ``conf`` if it has no
    configuration: a consumer without a record (allocations from before
    consumer records) reads as placement's incomplete owner, which the
    configuration names."""
    if getattr(context, 'config', None) is not None:
        return context
    from volapi.placement import context as placement_context
    return placement_context.RequestContext(
        is_admin=True, roles=['admin'], overwrite=False, config=conf)


class _Planner:

    def __init__(self, context, reporter, driver):
        context = _with_placement_config(context, reporter.conf)
        self.context, self.reporter, self.driver = context, reporter, driver
        self.root_name = reporter.server_name
        self.reported = _reported(driver, self.root_name)
        self.first = next(iter(self.reported))
        self.plan = Plan()
        # {volume id: pool host it ends on}
        self.volume_targets = {}

    def make(self):
        # The providers the allocations move to exist first.
        for pool in self.reported.values():
            self.reporter.pool_provider(pool)
        tree = _read_tree(self.context, self.root_name)
        self._inventories(tree)
        held = _gather(self.context, tree)
        volumes, snapshots = _resources(self.context, self.root_name, held)
        self.on_tree = {provider.uuid: name
                        for name, (provider, _) in tree.items()}
        # A volume being migrated holds its destination and its migration
        # the source until the move ends or is rolled back: both stay as
        # they are (on a pool that goes, the reshape fails: the move must
        # end first).
        moving = {v.id for v in volumes.values() if _migrating(v)}
        moving |= {volumes[v].migration_id for v in moving} - {None}
        for volume in sorted(volumes.values(), key=lambda v: v.id):
            if volume.id not in moving:
                self._volume(volume, held.get(volume.id))
        for snapshot in sorted(snapshots.values(), key=lambda s: s.id):
            self._snapshot(snapshot, volumes.get(snapshot.volume_id),
                           held.get(snapshot.id))
        for consumer in sorted(set(held) - set(volumes) - set(snapshots)
                               - moving):
            self._other(consumer, held[consumer])
        return self.plan

    def _inventories(self, tree):
        """New pools get their inventory with the allocations moving there;
        the root and removed pools lose theirs. Pools that stay keep
        theirs here (the report after the reshape updates it)."""
        for name, (provider, inventory) in sorted(tree.items()):
            if name in self.reported:
                if not inventory:
                    self.plan.inventories[provider.uuid] = (
                        provider.generation, {pools.DISK_GB: (
                            self.reporter.inventory(self.reported[name]))})
                continue
            if name != self.root_name:
                self.plan.removed.append(provider)
            if inventory:
                self.plan.inventories[provider.uuid] = (
                    provider.generation, {})

    def _wanted(self, *hosts):
        """The first of ``hosts`` that is a reported pool, else the first
        pool."""
        for host in hosts:
            if host in self.reported:
                return host
        return self.first

    def _sources(self, record):
        if record is None:
            return []
        return sorted(self.on_tree[rp] for rp in record['allocations']
                      if rp in self.on_tree)

    def _volume(self, volume, record):
        found = _located(self.driver, 'volume', volume, self.reported,
                         self.root_name)
        if found:
            target, location = found
        else:
            target = self._wanted(volume.host, *self._sources(record))
            location = volume.provider_location
        self.volume_targets[volume.id] = target
        moved = self._allocation('volume', volume.id, record, target)
        values = {'host': target, 'provider_location': location}
        if volume.cluster_name:
            values['cluster_name'] = _host(
                volume.cluster_name.partition('#')[0],
                pools.pool_name_of(target))
        if any(getattr(volume, k) != v for k, v in values.items()):
            self.plan.rows.append((models.Volume, volume.id, values, {
                'deleted': False, 'host': volume.host,
                'cluster_name': volume.cluster_name,
                'provider_location': volume.provider_location}))
            if not moved and volume.host != target:
                self.plan.moves.append(Move('volume', volume.id,
                                            [volume.host or '-'], target))

    def _snapshot(self, snapshot, volume, record):
        found = _located(self.driver, 'snapshot', snapshot, self.reported,
                         self.root_name)
        if found:
            target, location = found
        else:
            # No file of its own to go by: it follows its volume.
            target = self.volume_targets.get(snapshot.volume_id) or \
                self._wanted(volume and volume.host, *self._sources(record))
            location = snapshot.provider_location
        self._allocation('snapshot', snapshot.id, record, target)
        if location != snapshot.provider_location:
            self.plan.rows.append((
                models.Snapshot, snapshot.id, {'provider_location': location},
                {'deleted': False,
                 'provider_location': snapshot.provider_location}))

    def _other(self, consumer, record):
        # Not a live volume or snapshot (an operation's own consumer, or
        # an orphan the audit reports): it stays on a pool that stays.
        sources = self._sources(record)
        target = self._wanted(*sources)
        if self._allocation('consumer', consumer, record, target):
            LOG.warning('consumer %s, no live volume or snapshot, moved '
                        'from %s to %s', consumer, ', '.join(sources),
                        target)

    def _allocation(self, kind, ident, record, target):
        """Put what the consumer holds on the tree on pool ``target``;
        True if that moves it."""
        if record is None:
            return False
        target_uuid = pools.provider_uuid(target)
        on_tree = {rp: held['resources'] for rp, held in
                   record['allocations'].items() if rp in self.on_tree}
        if not on_tree or set(on_tree) == {target_uuid}:
            return False
        allocations = {rp: held['resources'] for rp, held in
                       record['allocations'].items() if rp not in on_tree}
        summed = collections.Counter()
        for resources in on_tree.values():
            summed.update(resources)
        allocations[target_uuid] = dict(summed)
        self.plan.requests.append(alloc_obj.ConsumerAllocations(
            ident, allocations, project_id=record['project_id'],
            user_id=record['user_id'],
            generation=record['consumer_generation'],
            consumer_type=record['consumer_type'] or
            consumer_obj.UNCHECKED))
        self.plan.moves.append(Move(kind, ident, self._sources(record),
                                    target))
        return True


def plan(context, reporter, driver):
    """The Plan of a reshape of ``reporter``'s tree to ``driver``'s pools,
    from a fresh read."""
    return _Planner(context, reporter, driver).make()


# -- the write -----------------------------------------------------------------

@db_api.retry_on_deadlock
def apply(context, plan):
    """The plan's rows, inventories and allocations in one transaction:
    the rows first, as every volume transition takes its row before the
    pool. Raises _RowChanged, or what reshaper.reshape raises."""
    with session.writer.connection.using(context):
        for model, ident, values, expected in sorted(
                plan.rows, key=lambda row: (row[0].cas_name, row[1])):
            if not db_api.conditional_update(context, model, values,
                                             dict(expected, id=ident)):
                raise _RowChanged('%s %s changed' % (model.cas_name, ident))
        if plan.inventories or plan.requests:
            reshaper.reshape(context, plan.inventories, plan.requests)


def _delete_removed(context, removed):
    deleted = []
    for provider in removed:
        try:
            rp_obj.destroy(context, provider)
            deleted.append(provider.name)
        except (placement_exc.ResourceProviderInUse,
                placement_exc.CannotDeleteParentResourceProvider) as exc:
            LOG.warning('pool provider %s not deleted: %s', provider.name,
                        exc)
        except placement_exc.ResourceProviderNotFound:
            pass  # another member of the cluster deleted it
    return deleted


def reshape(context, reporter, driver, attempts=ATTEMPTS):
    """Reshape ``reporter``'s tree to the driver's pools, planning again
    after a lost race, at most ``attempts`` times. Returns a Result;
    ReshapeFailed if it could not be done."""
    last = None
    for attempt in range(1, attempts + 1):
        current = plan(context, reporter, driver)
        try:
            if not current.empty:
                apply(context, current)
        except _RACES as exc:
            LOG.info('reshape of %s, attempt %d: %s; planning again',
                     reporter.server_name, attempt, exc)
            last = exc
            continue
        except placement_exc.PlacementError as exc:
            raise ReshapeFailed('reshape of %s failed: %s' % (
                reporter.server_name, exc)) from exc
        return Result(current.moves, attempt,
                      _delete_removed(context, current.removed))
    raise ReshapeFailed('reshape of %s failed: still racing other writers '
                        'after %d attempts (last: %s)' % (
                            reporter.server_name, attempts, last))


def at_start_up(context, reporter, driver, attempts=ATTEMPTS):
    """What a worker does before taking messages: reshape if needed, then
    report its pools. Returns the Result, or None when nothing needed a
    reshape. ReshapeFailed: the worker must not start."""
    reason = reshape_needed(context, reporter, driver)
    result = None
    if reason:
        LOG.info('reshaping the provider tree of %s: %s',
                 reporter.server_name, reason)
        result = reshape(context, reporter, driver, attempts)
        for line in result.summary():
            LOG.info('reshape: %s', line)
    reporter.report()
    return result


def command(args, out=print):
    """``volapi-manage placement reshape --backend host@backend``: with
    the backend's workers stopped, reshape its tree as its worker would at
    start-up, with the driver the configuration describes and placement
    in process. Exit code 0 when done (or nothing to do), 1 otherwise."""
    from volapi import config
    from volapi import context as volapi_context
    from volapi.volume import drivers
    conf = config.CONF
    root_name = args.backend
    server, _, backend = root_name.partition('@')
    if not server or backend != conf.volume.backend_name:
        out('--backend must be <host or cluster>@%s (the configured '
            '[volume] backend_name), not %r'
            % (conf.volume.backend_name, root_name))
        return 1
    objects.register_all()
    context = volapi_context.get_admin_context()
    driver = drivers.load(conf)
    driver.do_setup()
    reporter = pools.PoolReporter(context, conf, driver, root_name)
    try:
        reason = reshape_needed(context, reporter, driver)
        if reason is None:
            out('%s: nothing to reshape' % root_name)
        else:
            out('%s: %s' % (root_name, reason))
            for line in reshape(context, reporter, driver).summary():
                out(line)
        reporter.report()
    except ReshapeFailed as exc:
        out(str(exc))
        return 1
    return 0
