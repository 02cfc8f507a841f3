"""Allocations: what consumers hold on resource providers.

A write replaces the whole set of allocations of one or more consumers in
one transaction (``PUT /allocations/{consumer}``, ``POST /allocations``,
``POST /reshaper``), in this order:

1. the ids of what the request names are read (providers, projects, users,
   consumer types; missing projects, users and types are inserted), with
   the consumers' generations and their current allocations;
2. each consumer, by uuid: a compare-and-swap from the generation read, or
   the insert of its record (:func:`consumer.claim`; made in step 4); if
   it changed since the read, the transaction runs again from a fresh
   snapshot, so the allocations replaced are exactly those read; and no
   other writer can change the consumer's allocations until we commit;
3. each provider the new allocations name (and, for a consumer whose
   allocations are emptied, each it held allocations on), by id:
   ``generation = generation + 1`` - the providers whose generation
   Placement 16.0.0 advances; one only losing allocations to a
   replacement keeps it - by compare-and-swap, whose WHERE also says, for
   each class the write adds to, that the provider has inventory of it,
   that each amount fits its ``min_unit``/``max_unit``/``step_size``, and
   that what is allocated of it (the inventory row's ``allocated``), less
   what these consumers hold there, plus the new amounts fits ``(total -
   reserved) * allocation_ratio`` (or, as Placement allows, is no more
   than these consumers held there already): one row read, however many
   allocations the provider has. Every other provider whose
   ``allocated`` changes is swapped too, in the same id order, with its
   generation left alone: each such write advances the provider's
   ``revision`` (see objects.placement.resource_provider);
4. the new consumers' records are inserted, each inventory's
   ``allocated`` changes by what the write adds or removes, the old rows
   are deleted and the new ones inserted: writes with nothing to check,
   which the last provider's swap carries (db.writes). On PostgreSQL they
   go in its statement, so a claim is 4 round trips: BEGIN, the lookup,
   the swap, COMMIT. If that swap misses, the transaction runs again with
   the writes made apart, to say why. Then consumers left with nothing
   are deleted.

Every writer of a provider's inventories or allocations updates its row,
so they queue there:

- on PostgreSQL an allocation writer runs at READ COMMITTED and its first
  statement (step 1) locks the rows of the providers it names, and of
  those the consumers hold allocations on unless all are declared new
  (FOR UPDATE, in id order, as step 3 swaps them). Each later statement
  reads what was committed before it started, so the capacity check of
  step 3 sees all that the writer it waited for allocated; a consumer
  changed meanwhile fails its compare-and-swap of step 2 as above.
  (Waiting in step 3 itself would not do: READ COMMITTED re-checks a
  blocked UPDATE's WHERE against the new row but runs its subqueries in
  the old snapshot.) A transaction that had already begun keeps
  REPEATABLE READ, where a writer that waited fails with a serialization
  error and ``db.api.retrying`` runs it again;
- on MySQL/MariaDB the UPDATE holds the row lock and its subqueries are
  locking reads of the latest rows;
- on SQLite writers take the database's write lock in turn.

The capacity check can therefore never pass twice for the same units, and
concurrent claims on one provider wait for each other instead of being
bounced back to the client with a 409: only a real lack of capacity or a
stale consumer generation given by the client is.
"""
import collections
import functools

import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import exceptions as db_exceptions
from db import models
from db import session
from db import writes as db_writes
from objects.placement import allocation_statements as statements
from objects.placement import consumer as consumer_obj
from objects.placement import exception
from objects.placement import resource_class as rc_obj
from objects.placement import resource_provider as rp_obj

ALLOCATIONS = statements.ALLOCATIONS
PROVIDERS = statements.PROVIDERS
INVENTORIES = statements.INVENTORIES
CONSUMERS = statements.CONSUMERS
PROJECTS = statements.PROJECTS
USERS = statements.USERS
CONSUMER_TYPES = statements.CONSUMER_TYPES

# Writers of one provider queue on its row. Where one that waited starts
# again (PostgreSQL when the write joined a transaction already begun, at
# REPEATABLE READ; a consumer or project created meanwhile, anywhere), a
# burst of N concurrent writers of one provider can need about N rounds.
WRITE_RETRIES = 60


class AllocationProviderNotFound(exception.NotFound):
    msg_fmt = ("Allocation for resource provider '%(uuid)s' that does not "
               "exist.")


class AllocationsNotFound(exception.NotFound):
    msg_fmt = "No allocations for consumer '%(uuid)s'"


class InvalidInventory(exception.PlacementError):
    msg_fmt = ("Inventory for '%(resource_class)s' on resource provider "
               "'%(resource_provider)s' invalid.")


class InvalidAllocationCapacityExceeded(InvalidInventory):
    msg_fmt = ("Unable to create allocation for '%(resource_class)s' on "
               "resource provider '%(resource_provider)s'. The requested "
               "amount would exceed the capacity.")


class InvalidAllocationConstraintsViolated(InvalidInventory):
    msg_fmt = ("Unable to create allocation for '%(resource_class)s' on "
               "resource provider '%(resource_provider)s'. The requested "
               "amount would violate inventory constraints.")


class ConsumerAllocations:
    """What a request says about one consumer: the complete new set of its
    allocations, ``{provider uuid: {class name: amount}}`` (empty: remove
    them all), and who it belongs to.

    ``project_id``/``user_id`` are external ids (None: keep the consumer's,
    or the incomplete owner for a new one); ``generation`` is what the
    client expects (an int, None for "new", or consumer.UNCHECKED);
    ``consumer_type`` a name, or UNCHECKED to leave it as it is.
    """

    __slots__ = ('uuid', 'allocations', 'project_id', 'user_id',
                 'generation', 'consumer_type')

    def __init__(self, uuid, allocations, project_id=None, user_id=None,
                 generation=consumer_obj.UNCHECKED,
                 consumer_type=consumer_obj.UNCHECKED):
        self.uuid = uuid
        self.allocations = allocations
        self.project_id = project_id
        self.user_id = user_id
        self.generation = generation
        self.consumer_type = consumer_type


class Demand:
    """What a write asks of one class on one provider: the amounts of the
    new allocations (one per consumer), and the total the same consumers
    held there before."""

    __slots__ = ('class_id', 'amounts', 'old_total')

    def __init__(self, class_id):
        self.class_id = class_id
        self.amounts = []
        self.old_total = 0

    @property
    def total(self):
        return sum(self.amounts)

    @property
    def grows(self):
        return self.total > self.old_total


class AllocationWriter:
    """Replaces the allocations of a set of consumers in one transaction
    (:meth:`write`, run inside one). ``POST /reshaper`` extends it with
    inventories (objects.placement.reshaper)."""

    # Whether the last provider's swap carries the rest of the write (step
    # 4, and the new consumers' records; see db.writes). An attempt after
    # such a swap missed makes them apart, to explain the miss.
    carry_writes = True

    def __init__(self, context, requests):
        self.context = context
        # Consumers are taken in uuid order and providers in id order, by
        # every writer, so two writers never wait for each other in a cycle.
        self.requests = sorted(requests, key=lambda r: r.uuid)
        self.consumer_uuids = [r.uuid for r in self.requests]
        # Providers in the order the request names them (the first unknown
        # one is reported).
        self.wanted_providers = list(dict.fromkeys(
            rp for r in requests for rp in r.allocations))
        # An unknown class is reported after the consumers' generations,
        # as Placement checks them first.
        self.class_ids, self.unknown_class = _class_ids(context, [
            name for r in requests for resources in r.allocations.values()
            for name in resources])
        self.class_names = {i: n for n, i in self.class_ids.items()}

    def write(self):
        ctx = self.context
        with session.writer.connection.using(ctx) as conn:
            # PostgreSQL: READ COMMITTED, with the providers named locked
            # by the first statement (see the module's docstring).
            seen = self._resolve(conn, session.read_committed(conn))
            self.check_before_consumers(conn)
            old = []
            if self.holding:
                old = conn.execute(
                    sa.select(ALLOCATIONS.c.id, ALLOCATIONS.c.consumer_id,
                              ALLOCATIONS.c.resource_provider_id,
                              ALLOCATIONS.c.resource_class_id,
                              ALLOCATIONS.c.used)
                    .where(ALLOCATIONS.c.consumer_id.in_(
                        self.consumer_uuids))).all()
            new_consumers = []
            for r in self.requests:
                record = consumer_obj.claim(
                    ctx, r.uuid, r.generation, seen.get(r.uuid),
                    self.owners.get(r.uuid),
                    self.types.get(r.uuid, consumer_obj.UNCHECKED),
                    self.new_owner)
                if record is not None:
                    new_consumers.append(record)
            # Placement's order: consumers, then providers, then classes.
            self.check_providers()
            if self.unknown_class is not None:
                raise self.unknown_class
            demands = self._demands(old)
            changes = {
                (provider_id, class_id): demand.total - demand.old_total
                for provider_id, per_class in demands.items()
                for class_id, demand in per_class.items()
                if demand.total != demand.old_total}
            writes = self._writes(new_consumers, changes, old)
            steps = self.generation_steps(old)
            # A provider whose allocated changes keeps its generation if
            # Placement's would, not its revision; swapped in the same
            # id order as the rest, so that writers queue, not deadlock.
            for provider_id, _ in changes:
                steps.setdefault(provider_id, 0)
            swaps = sorted(steps)
            carried = writes if swaps and self.carry_writes else ()
            try:
                for provider_id in swaps:
                    self.swap_provider(
                        provider_id, demands.get(provider_id, {}),
                        carried if provider_id == swaps[-1] else (),
                        steps[provider_id])
                if not carried:
                    self.before_allocations(conn)
                    db_writes.make(conn, writes)
            except db_exc.DBDuplicateEntry:
                # Another writer created one of our new consumers since
                # our snapshot.
                raise db_exc.RetryRequest(
                    exception.ConcurrentUpdateDetected())
            consumer_obj.delete_unused(
                ctx, [r.uuid for r in self.requests if not r.allocations])

    def _writes(self, new_consumers, changes, old):
        """The write's changes besides the swaps (db.writes), in order: the
        new consumers' records, the inventories' ``allocated`` (``changes``
        as allocated_changes takes them), the old allocations out and the
        new ones in."""
        writes = []
        if new_consumers:
            writes.append(db_writes.Insert(CONSUMERS, new_consumers,
                                           'consumer'))
        writes += statements.allocated_changes(changes)
        if old:
            writes.append(statements.delete_allocations(
                [row.id for row in old]))
        rows = self._new_rows()
        if rows:
            writes.append(db_writes.Insert(ALLOCATIONS, rows, 'allocation'))
        return writes

    def _resolve(self, conn, lock_providers):
        """Ids of the providers, projects, users and consumer types the
        request names, and the consumers' generations, with one query
        (which, with ``lock_providers``, locks the providers' rows);
        missing projects, users and types are created. Returns {consumer
        uuid: generation} for the consumers that have a record."""
        ctx = self.context
        projects = {r.project_id for r in self.requests if r.project_id}
        users = {r.user_id for r in self.requests if r.user_id}
        incomplete = None
        if any(r.project_id is None for r in self.requests):
            # The owner of consumers created without one.
            incomplete = consumer_obj.incomplete_owner(ctx)
            projects.add(incomplete[0])
            users.add(incomplete[1])
        types = {r.consumer_type for r in self.requests
                 if r.consumer_type is not consumer_obj.UNCHECKED}
        found = statements.lookup(conn, {
            'rp': self.providers_to_look_up(), 'project': projects,
            'user': users, 'type': types,
            'consumer': self.consumer_uuids,
            # Whether they hold anything (new consumers usually do not).
            'held': self.consumer_uuids}, lock_providers,
            # A consumer declared new holds nothing a successful write
            # replaces.
            lock_held=any(r.generation is not None for r in self.requests))
        self.holding = bool(found['held'])
        self.provider_ids = found['rp']
        self.provider_uuids = {i: u for u, i in self.provider_ids.items()}

        def ensure(kind, name, create):
            # Created (in this transaction) on first use.
            if name not in found[kind]:
                found[kind][name] = create(ctx, name)
            return found[kind][name]

        def owner(project, user):
            return (ensure('project', project, consumer_obj.ensure_project),
                    ensure('user', user, consumer_obj.ensure_user))

        self.owners = {r.uuid: owner(r.project_id, r.user_id)
                       for r in self.requests if r.project_id is not None}
        self.new_owner = owner(*incomplete) if incomplete else None
        self.types = {r.uuid: ensure('type', r.consumer_type,
                                     consumer_obj.ensure_consumer_type)
                      for r in self.requests
                      if r.consumer_type is not consumer_obj.UNCHECKED}
        return found['consumer']

    def providers_to_look_up(self):
        return self.wanted_providers

    def check_before_consumers(self, conn):
        """What is checked before the consumers' generations (the
        reshaper's providers)."""

    def check_providers(self):
        """Raise for the first provider named that does not exist."""
        for uuid in self.wanted_providers:
            if uuid not in self.provider_ids:
                raise AllocationProviderNotFound(uuid=uuid)

    def _demands(self, old):
        """{provider id: {class id: Demand}} for every provider touched."""
        demands = collections.defaultdict(dict)
        for r in self.requests:
            for rp_uuid, resources in r.allocations.items():
                per_class = demands[self.provider_ids[rp_uuid]]
                for name, amount in resources.items():
                    class_id = self.class_ids[name]
                    if class_id not in per_class:
                        per_class[class_id] = Demand(class_id)
                    per_class[class_id].amounts.append(amount)
        for row in old:
            per_class = demands[row.resource_provider_id]
            if row.resource_class_id not in per_class:
                per_class[row.resource_class_id] = Demand(
                    row.resource_class_id)
            per_class[row.resource_class_id].old_total += row.used
        return demands

    def _new_rows(self):
        now = timeutils.utcnow()
        return [{'resource_provider_id': self.provider_ids[rp_uuid],
                 'consumer_id': r.uuid,
                 'resource_class_id': self.class_ids[name],
                 'used': amount, 'created_at': now}
                for r in self.requests
                for rp_uuid, resources in r.allocations.items()
                for name, amount in resources.items()]

    def swap_provider(self, provider_id, demands, then=(), step=1):
        """Advance the provider's revision, and its generation by ``step``,
        on condition that what the write adds fits, with the writes
        ``then``; raise the precise reason if it does not fit."""
        values = {'revision': rp_obj.NEXT_REVISION}
        if step:
            values['generation'] = statements.GENERATION_PLUS[step]
        try:
            db_api.update_or_explain(
                self.context, models.ResourceProvider, provider_id, values,
                self.expected_provider_values(provider_id),
                self.requirements(provider_id, demands), then=then)
        except db_exceptions.SwapMissed as exc:
            raise self.missed(provider_id, exc)
        except db_exceptions.ConditionNotMet as exc:
            raise self.failure(provider_id, exc)
        except db_exceptions.NotFound:
            # Deleted since we resolved it: it no longer exists.
            raise AllocationProviderNotFound(
                uuid=self.provider_uuids.get(provider_id, provider_id))
        except db_exceptions.ConcurrentUpdate:
            # Every condition held when re-read, yet the update kept
            # missing: start again from a fresh view.
            raise db_exc.RetryRequest(
                exception.ResourceProviderConcurrentUpdateDetected())

    def missed(self, provider_id, exc):
        """The error to raise when the provider's swap carried the writes
        and missed: run again, writing apart, to learn why."""
        self.carry_writes = False
        return db_exc.RetryRequest(exc)

    @staticmethod
    def _growing(demands):
        """Ids of the classes the write allocates, in the order of their
        criteria's slots."""
        return [class_id for class_id in sorted(demands)
                if demands[class_id].amounts]

    def generation_steps(self, old):
        """{provider id: how much the write advances its generation}, as
        Placement's allocation write: each provider of the new allocations,
        and each provider of the old allocations of a consumer left with
        none, by one."""
        steps = {self.provider_ids[rp_uuid]: 1 for r in self.requests
                 for rp_uuid in r.allocations}
        emptied = {r.uuid for r in self.requests if not r.allocations}
        steps.update((row.resource_provider_id, 1) for row in old
                     if row.consumer_id in emptied)
        return steps

    def expected_provider_values(self, provider_id):
        """Expected column values of the provider (none: any generation)."""
        return {}

    def failure(self, provider_id, exc):
        """The error to raise when the provider's swap failed on
        ``exc.condition``."""
        return exc.condition.exception()

    def before_allocations(self, conn):
        """Runs after the providers' compare-and-swaps, before allocation
        rows change (the reshaper writes inventories here)."""

    def requirements(self, provider_id, demands):
        """The conditions the provider's compare-and-swap carries: one per
        class the write allocates (allocation_statements.fits), with its
        values and the refusal to raise if it does not fit."""
        rp_uuid = self.provider_uuids.get(provider_id)
        requirements = []
        for slot, class_id in enumerate(self._growing(demands)):
            demand = demands[class_id]
            steps = sorted(set(demand.amounts))
            prefix = 'fits%d_' % slot
            values = {prefix + 'class': class_id,
                      prefix + 'total': demand.total,
                      prefix + 'held': demand.old_total,
                      prefix + 'min': steps[0], prefix + 'max': steps[-1]}
            values.update(('%sstep%d' % (prefix, i), amount)
                          for i, amount in enumerate(steps))
            requirements.append(statements.fits(
                slot, len(steps), values, functools.partial(
                    self.refusal, provider_id, rp_uuid, class_id,
                    self.class_names[class_id], demand)))
        return requirements

    def refusal(self, provider_id, rp_uuid, class_id, name, demand):
        """Why the provider refused the class, in Placement's terms: no
        inventory, units, or capacity. Read in the same transaction after
        the compare-and-swap failed (with a locking read on MySQL, which
        sees what the UPDATE saw)."""
        query = sa.select(
            INVENTORIES.c.min_unit, INVENTORIES.c.max_unit,
            INVENTORIES.c.step_size).where(
                INVENTORIES.c.resource_provider_id == provider_id,
                INVENTORIES.c.resource_class_id == class_id)
        with session.reader.connection.using(self.context) as conn:
            if conn.dialect.name == 'mysql':
                query = query.with_for_update(read=True)
            inventory = conn.execute(query).first()
        if inventory is None:
            return InvalidInventory(resource_class=name,
                                    resource_provider=rp_uuid)
        if not all(inventory.min_unit <= amount <= inventory.max_unit and
                   amount % inventory.step_size == 0
                   for amount in demand.amounts):
            return InvalidAllocationConstraintsViolated(
                resource_class=name, resource_provider=rp_uuid)
        return InvalidAllocationCapacityExceeded(resource_class=name,
                                                 resource_provider=rp_uuid)


def _class_ids(context, names):
    """({name: id} of the known classes of ``names``, the
    ResourceClassNotFound of the first unknown one or None)."""
    try:
        return rc_obj.ids_from_names(context, names), None
    except exception.ResourceClassNotFound as exc:
        known = {}
        for name in dict.fromkeys(names):
            try:
                known.update(rc_obj.ids_from_names(context, [name]))
            except exception.ResourceClassNotFound:
                pass
        return known, exc


@db_api.retrying(max_retries=WRITE_RETRIES)
def run(context, writer):
    """Run ``writer.write()`` as one transaction, again from the start
    after a deadlock, a serialization failure or a lost race."""
    writer.write()


def replace_all(context, requests):
    """Replace the allocations of every consumer in ``requests`` (a list of
    ConsumerAllocations), all or nothing.

    Raises AllocationProviderNotFound, ResourceClassNotFound,
    consumer.ConsumerGenerationConflict, InvalidInventory and its
    subclasses (capacity, units).
    """
    run(context, AllocationWriter(context, requests))


# -- DELETE /allocations/{consumer} -------------------------------------------

@db_api.retrying(max_retries=WRITE_RETRIES)
def delete_for_consumer(context, uuid):
    """Remove all of a consumer's allocations and its record; the
    providers' generations stay as they are (as in Placement 16.0.0), not
    their revisions.
    AllocationsNotFound if it has none."""
    with session.writer.connection.using(context) as conn:
        # The inventories' ``allocated`` go down by relative UPDATEs, which
        # a waiting statement re-checks on the new row: READ COMMITTED lets
        # them wait instead of failing and starting again.
        session.read_committed(conn)
        # Deleting the record first keeps other writers of this consumer
        # off its allocations until we commit: this delete is the write's
        # compare-and-swap (no record, nothing to delete).
        conn.execute(CONSUMERS.delete().where(CONSUMERS.c.uuid == uuid))
        held = conn.execute(
            sa.select(ALLOCATIONS.c.id, ALLOCATIONS.c.resource_provider_id,
                      ALLOCATIONS.c.resource_class_id, ALLOCATIONS.c.used)
            .where(ALLOCATIONS.c.consumer_id == uuid)).all()
        if not held:
            raise AllocationsNotFound(uuid=uuid)
        freed = collections.Counter()
        for row in held:
            freed[row.resource_provider_id, row.resource_class_id] -= \
                row.used
        db_writes.make(conn, statements.next_revisions(
            provider_id for provider_id, _ in freed)
            + statements.allocated_changes(freed) + [
            statements.delete_allocations([r.id for r in held])])
