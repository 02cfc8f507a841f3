"""The statements of an allocation write (see objects.placement.allocation),
each built once per shape with bind parameters only, so that a claim binds
values into statements SQLAlchemy (and db.statements' cache, by their
keys) already hold: the lookup of what a request names, the capacity criteria of
a provider's compare-and-swap, and the writes that go with it."""
import collections
import functools

import sqlalchemy as sa

from db import conditions as cond
from db import models
from db import writes as db_writes
from objects.placement import inventory as inv_obj
from objects.placement import resource_provider as rp_obj

ALLOCATIONS = models.Allocation.__table__
PROVIDERS = models.ResourceProvider.__table__
INVENTORIES = models.Inventory.__table__
CONSUMERS = models.Consumer.__table__
PROJECTS = models.Project.__table__
USERS = models.User.__table__
CONSUMER_TYPES = models.ConsumerType.__table__

_DELETE_ALLOCATIONS = ALLOCATIONS.delete().where(ALLOCATIONS.c.id.in_(
    sa.bindparam('old_allocations', expanding=True)))


# Up to this many names of a kind are bound one parameter each, in a
# statement built for that count: an "expanding" IN list is rewritten at
# every execution, which costs a claim (one provider, one consumer) more
# CPU than the rest of its lookup.
FEW = 4


def _bound_names(kind, count):
    """The bound parameters of ``count`` names of ``kind`` (see lookup)."""
    if count is None:
        return sa.bindparam(kind, expanding=True)
    return [sa.bindparam('%s_%d' % (kind, i)) for i in range(count)]


def _lookup_part(kind, count, lock, held_count=None):
    """SQL for one kind of lookup: (kind, name, integer) rows for the
    names in the bound parameters ``<kind>_0`` ... (``count`` of them), or
    in the list ``kind`` if ``count`` is None. With ``lock``, the rows of
    providers are locked, in id order (PostgreSQL); unless
    ``held_count`` is None, with those of the providers where the 'held'
    consumers (``held_count`` of them, as ``count``) have allocations."""
    names = _bound_names(kind, count)
    # The kind is a constant of the SQL, not one more parameter to bind.
    label = sa.literal_column("'%s'" % kind, sa.String)
    if kind == 'held':
        # How many allocations each consumer holds.
        return sa.select(label, ALLOCATIONS.c.consumer_id,
                         sa.func.count()).where(
            ALLOCATIONS.c.consumer_id.in_(names)).group_by(
            ALLOCATIONS.c.consumer_id)
    column, value = _LOOKUP_COLUMNS[kind]
    if kind == 'rp' and lock:
        if held_count is None:
            wanted = column.in_(names)
        else:
            # Each found by its own index (an OR of the two would scan).
            wanted = PROVIDERS.c.id.in_(sa.union_all(
                sa.select(PROVIDERS.c.id).where(column.in_(names)),
                sa.select(ALLOCATIONS.c.resource_provider_id).where(
                    ALLOCATIONS.c.consumer_id.in_(
                        _bound_names('held', held_count)))))
        # FOR UPDATE is refused in a UNION's parts, not in a WITH.
        locked = sa.select(column, value).where(wanted).order_by(
            PROVIDERS.c.id).with_for_update().cte('locked_providers')
        return sa.select(label, sa.cast(locked.c.uuid, sa.String(255)),
                         locked.c.id)
    return sa.select(label, sa.cast(column, sa.String(255)),
                     value).where(column.in_(names))


_LOOKUP_COLUMNS = {
    'rp': (PROVIDERS.c.uuid, PROVIDERS.c.id),
    'project': (PROJECTS.c.external_id, PROJECTS.c.id),
    'user': (USERS.c.external_id, USERS.c.id),
    'type': (CONSUMER_TYPES.c.name, CONSUMER_TYPES.c.id),
    'consumer': (CONSUMERS.c.uuid, CONSUMERS.c.generation),
}
_LOOKUP_KINDS = tuple(_LOOKUP_COLUMNS) + ('held',)
# One statement per combination of kinds asked for (and of counts up to
# FEW), built once.
_LOOKUPS = {}


def lookup(conn, names, lock_providers=False, lock_held=False):
    """Ids (generations for consumers, allocation counts for 'held') of
    rows named by a unique column, several tables in one query: ``names``
    is {kind: names}, the result {kind: {name: integer}}, names with no
    row left out. With ``lock_providers`` the providers' rows are locked
    (FOR UPDATE, in id order) before the query returns; with
    ``lock_held`` too, with those the 'held' consumers have allocations
    on ({uuid: id} of those too). A write that replaces allocations swaps
    each provider it changes; with all of them held in one order, two
    writers moving allocations past each other queue instead of each
    holding a provider the other needs."""
    shape, params = [], {}
    for kind in _LOOKUP_KINDS:
        if not names.get(kind):
            continue
        wanted = sorted(names[kind])
        if len(wanted) > FEW:
            shape.append((kind, None))
            params[kind] = wanted
        else:
            shape.append((kind, len(wanted)))
            params.update(('%s_%d' % (kind, i), name)
                          for i, name in enumerate(wanted))
    found = collections.defaultdict(dict)
    if not shape:
        return found
    key = (lock_providers, lock_held) + tuple(shape)
    statement = _LOOKUPS.get(key)
    if statement is None:
        held_count = dict(shape).get('held', 0) if lock_held else None
        statement = _LOOKUPS[key] = sa.union_all(
            *[_lookup_part(kind, count, lock_providers, held_count)
              for kind, count in shape])
    for kind, name, value in conn.execute(statement, params):
        found[kind][name] = value
    return found


def fits(slot, distinct_amounts, values, refusal):
    """The requirement of class slot ``slot`` (with ``distinct_amounts``
    distinct amounts), keyed by that shape so that db.statements builds the
    whole UPDATE once per shape; ``values`` are its bind parameters'
    (``fits<slot>_class``, ``_total``, ``_held``, ``_min``, ``_max``,
    ``_step<i>``) and ``refusal`` makes its error. Its SQL is correlated to
    the provider row being updated (not naming its id: MySQL then reads the
    inventory after it has locked the provider's row): it has inventory of
    class ``fits<slot>_class`` whose units allow the amounts (min, max and
    each distinct one's step) and whose capacity holds what is allocated
    there, less the ``fits<slot>_held`` the consumers written hold there
    now, plus ``fits<slot>_total`` (or, as Placement allows, no more than
    they held, for a provider left over capacity by a shrunk inventory)."""
    return rp_obj.Requirement(
        cond.Sql(('fits', slot, distinct_amounts),
                 lambda: _fits_criterion(slot, distinct_amounts), values),
        'must have inventory of the class in slot %d whose units and '
        'capacity allow the amounts' % slot, refusal)


def _fits_criterion(slot, distinct_amounts):
    def param(what, type_=sa.BigInteger):
        return sa.bindparam('fits%d_%s' % (slot, what), type_=type_)
    total, held = param('total'), param('held')
    return sa.exists().where(
        INVENTORIES.c.resource_provider_id == PROVIDERS.c.id,
        INVENTORIES.c.resource_class_id == param('class', sa.Integer),
        INVENTORIES.c.min_unit <= param('min', sa.Integer),
        INVENTORIES.c.max_unit >= param('max', sa.Integer),
        *[param('step%d' % i, sa.Integer) % INVENTORIES.c.step_size == 0
          for i in range(distinct_amounts)],
        sa.or_(INVENTORIES.c.allocated - held + total
               <= inv_obj.capacity(INVENTORIES.c),
               total <= held))


def allocated_changes(changes):
    """Writes (db.writes) that add to the ``allocated`` of inventories,
    ``changes`` being {(provider id, class id): change}, for a transaction
    that holds the providers' rows (a row gone with its inventory is left
    alone). The rows keep their ``updated_at``: it says when the inventory
    last changed, which allocations do not do."""
    return [db_writes.Write(_allocated_change(i), {
        'allocated%d_provider' % i: provider_id,
        'allocated%d_class' % i: class_id,
        'allocated%d_change' % i: change}, ('allocated_change', i))
        for i, ((provider_id, class_id), change)
        in enumerate(sorted(changes.items()))]


@functools.lru_cache(maxsize=64)
def _allocated_change(i):
    def param(what, type_=sa.Integer):
        return sa.bindparam('allocated%d_%s' % (i, what), type_=type_)
    return INVENTORIES.update().where(
        INVENTORIES.c.resource_provider_id == param('provider'),
        INVENTORIES.c.resource_class_id == param('class')).values(
        allocated=INVENTORIES.c.allocated + param('change', sa.BigInteger),
        updated_at=INVENTORIES.c.updated_at)


def next_revisions(provider_ids):
    """Writes that advance the revision of each of ``provider_ids``
    (resource_provider.revisions_advanced), in id order as every writer
    holds providers, for a write that changes their ``allocated`` without
    swapping their rows."""
    return [db_writes.Write(_NEXT_REVISION, {'revised': provider_id},
                            ('next_revision',))
            for provider_id in sorted(set(provider_ids))]


_NEXT_REVISION = rp_obj.revisions_advanced(
    PROVIDERS.c.id == sa.bindparam('revised', type_=sa.Integer))


# The provider's next generation, keyed for db.statements' cache.
NEXT_GENERATION = cond.Sql(('next_generation',),
                           lambda: models.ResourceProvider.generation + 1)
# generation + n, for the n a write adds (a reshape adds up to 3, as
# Placement's does).
GENERATION_PLUS = {1: NEXT_GENERATION}
GENERATION_PLUS.update(
    (n, cond.Sql(('generation_plus', n),
                 lambda n=n: models.ResourceProvider.generation + n))
    for n in (2, 3))


def delete_allocations(ids):
    """The write that deletes the allocations ``ids``."""
    return db_writes.Write(_DELETE_ALLOCATIONS, {'old_allocations': ids},
                           ('delete_allocations',))
