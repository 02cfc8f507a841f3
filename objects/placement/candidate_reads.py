"""The reads behind allocation candidates: each one set-based statement
whose size follows the request (classes, traits, aggregates named) and the
providers that can serve it, never one statement per provider.

Each statement is built once per backend and shape and then only bound
(building one costs more CPU than running it); all take an open
connection, so that one candidates query reads one snapshot.
"""
import collections
import itertools

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from db import library_compat
from db import models
from objects.placement import provider_cache

PROVIDERS = models.ResourceProvider.__table__
INVENTORIES = models.Inventory.__table__
TRAITS = models.Trait.__table__
RP_TRAITS = models.ResourceProviderTrait.__table__
AGGREGATES = models.PlacementAggregate.__table__
RP_AGGREGATES = models.ResourceProviderAggregate.__table__

_BUILT = {}
_chain = itertools.chain.from_iterable


def _statement(conn, build, *shape):
    """``build(dialect name, *shape)``, built once per dialect and shape."""
    key = (conn.dialect.name, build) + shape
    statement = _BUILT.get(key)
    if statement is None:
        statement = _BUILT[key] = build(conn.dialect.name, *shape)
    return statement


def _in(dialect, column, name):
    """``column IN`` the list bound as ``name`` (see _values). On
    PostgreSQL one array parameter: an IN list of hundreds of parameters
    costs the driver more to prepare than the database to run, and is a
    new statement each time its length changes. Ids go as the array's
    text (the driver converts a list element by element), unnested once
    in a subquery: compared with ``= ANY(CAST(...))`` instead, the server
    would parse the text again for every row."""
    if dialect != 'postgresql':
        return column.in_(sa.bindparam(name, expanding=True))
    if isinstance(column.type, sa.Integer):
        return column.in_(sa.select(sa.func.unnest(sa.cast(
            sa.bindparam(name, type_=sa.Text),
            postgresql.ARRAY(column.type)))))
    return column == sa.any_(sa.bindparam(
        name, type_=postgresql.ARRAY(column.type)))


def _values(conn, values, ids=True):
    """The value to bind for _in: ids (integers) or strings."""
    values = sorted(values)
    if ids and conn.dialect.name == 'postgresql':
        return '{%s}' % ','.join(map(str, values))
    return values


def _rows(conn, statement, **params):
    """All the rows of ``statement`` as plain tuples, fetched at once
    (thousands of rows one by one, or as Row objects, cost more than the
    statement). Every column read here is an integer, a float or a
    string, which the drivers give as SQLAlchemy would. On PostgreSQL,
    whose binds here are all plain values (no expanding IN list), the
    statement goes straight to the driver's cursor: SQLAlchemy's cache
    look-up and result set-up cost more than a small read itself, and
    its rows come in the binary format (thousands of values parsed from
    text cost more than the statement's execution)."""
    if conn.dialect.name == 'postgresql':
        return library_compat.driver_execute(conn, statement, params,
                                             binary=True)
    return library_compat.driver_rows(conn.execute(statement, params))


def _hashed_providers(dialect):
    """The providers (id, root_provider_id) to join many rows to. PostgreSQL
    expects a row or two from the other side's filter and looks each
    provider up by its key, hundreds of times (half a statement's time);
    behind OFFSET 0 the providers are one scan, hashed."""
    if dialect != 'postgresql':
        return PROVIDERS
    return sa.select(PROVIDERS.c.id, PROVIDERS.c.root_provider_id
                     ).offset(0).subquery('providers')


def _providers_with_room(dialect, pairs, with_inventory):
    """The inventories with room for one of the (class, amount) pairs
    bound as class<i>, amount<i>: the pairs are a derived table joined to
    one scan of the inventories. Their ``allocated`` is the sum of their
    allocations."""
    wanted = [sa.select(sa.bindparam('class%d' % i, type_=sa.Integer)
                        .label('class_id'),
                        sa.bindparam('amount%d' % i, type_=sa.Integer)
                        .label('amount')) for i in range(pairs)]
    wanted = (wanted[0] if pairs == 1 else sa.union_all(*wanted)).subquery(
        'wanted')
    providers = _hashed_providers(dialect)
    columns = [INVENTORIES.c.resource_provider_id,
               providers.c.root_provider_id, wanted.c.class_id,
               wanted.c.amount]
    if with_inventory:
        columns += [INVENTORIES.c.total, INVENTORIES.c.reserved,
                    INVENTORIES.c.allocation_ratio, INVENTORIES.c.allocated,
                    INVENTORIES.c.max_unit]
    return sa.select(*columns).select_from(wanted.join(
        INVENTORIES, INVENTORIES.c.resource_class_id == wanted.c.class_id
    ).join(
        providers, providers.c.id == INVENTORIES.c.resource_provider_id)
    ).where(
        INVENTORIES.c.allocated + wanted.c.amount
        <= (INVENTORIES.c.total - INVENTORIES.c.reserved)
        * INVENTORIES.c.allocation_ratio,
        INVENTORIES.c.min_unit <= wanted.c.amount,
        INVENTORIES.c.max_unit >= wanted.c.amount,
        wanted.c.amount % INVENTORIES.c.step_size == 0)


def _room_and_traits(dialect, pairs, with_inventory):
    # The rows of _providers_with_room with a null name, then one for each
    # (trait named ``names``, provider having it or null) with a null
    # amount: one round trip where there were two.
    room = _providers_with_room(dialect, pairs, with_inventory)
    room = room.add_columns(sa.cast(sa.null(), TRAITS.c.name.type))
    padding = [sa.null()] * (len(room.selected_columns) - 4)
    return sa.union_all(room, sa.select(
        RP_TRAITS.c.resource_provider_id, sa.null(), TRAITS.c.id, *padding,
        TRAITS.c.name,
    ).select_from(TRAITS.outerjoin(
        RP_TRAITS, RP_TRAITS.c.trait_id == TRAITS.c.id)
    ).where(_in(dialect, TRAITS.c.name, 'names')))


def room_and_traits(conn, wanted, trait_names, with_inventory=True):
    """Every provider with room for one of ``wanted`` (a non-empty set of
    (class id, amount)) and the traits of ``trait_names`` that exist, in
    one statement, as rows in any order: (provider id, root id, class
    id, amount[, total, reserved, allocation_ratio, allocated, max_unit],
    None) for each provider with room, with its root and, if
    ``with_inventory``, the inventory row; (provider id or None, None,
    trait id, None[, None x 5], name) for each provider having one of
    the traits (None: no provider has it)."""
    params = {'names': _values(conn, trait_names, ids=False)}
    for i, (class_id, amount) in enumerate(sorted(wanted)):
        params['class%d' % i] = class_id
        params['amount%d' % i] = amount
    return _rows(conn, _statement(conn, _room_and_traits, len(wanted),
                                  bool(with_inventory)), **params)


def capacity(total, reserved, ratio):
    """An inventory's capacity as Placement reports it: rounded down."""
    return int((total - reserved) * ratio)


def _roots_of(dialect):
    return sa.select(PROVIDERS.c.uuid, PROVIDERS.c.root_provider_id).where(
        _in(dialect, PROVIDERS.c.uuid, 'uuids'))


def roots_of(conn, uuids):
    """{provider uuid: its root's id} for those of ``uuids`` that exist."""
    if not uuids:
        return {}
    return dict(_rows(conn, _statement(conn, _roots_of),
                      uuids=_values(conn, uuids, ids=False)))


def _aggregate_members(dialect):
    return sa.select(
        AGGREGATES.c.uuid, RP_AGGREGATES.c.resource_provider_id).select_from(
        AGGREGATES.join(RP_AGGREGATES,
                        RP_AGGREGATES.c.aggregate_id == AGGREGATES.c.id)
    ).where(_in(dialect, AGGREGATES.c.uuid, 'uuids'))


def aggregate_members(conn, aggregate_uuids):
    """{aggregate uuid: set of provider ids in it}."""
    members = collections.defaultdict(set)
    if aggregate_uuids:
        for uuid, provider_id in _rows(
                conn, _statement(conn, _aggregate_members),
                uuids=_values(conn, aggregate_uuids, ids=False)):
            members[uuid].add(provider_id)
    return members


def _traits_and_holders(dialect):
    return sa.select(
        TRAITS.c.id, TRAITS.c.name, RP_TRAITS.c.resource_provider_id
    ).select_from(TRAITS.outerjoin(
        RP_TRAITS, RP_TRAITS.c.trait_id == TRAITS.c.id)
    ).where(_in(dialect, TRAITS.c.name, 'names'))


def traits_and_holders(conn, names):
    """({name: id} of those trait ``names`` that exist, {provider id: set
    of the ids of them it has})."""
    ids, holders = {}, collections.defaultdict(set)
    if names:
        for trait_id, name, provider_id in _rows(
                conn, _statement(conn, _traits_and_holders),
                names=_values(conn, names, ids=False)):
            ids[name] = trait_id
            if provider_id is not None:
                holders[provider_id].add(trait_id)
    return ids, holders


def roots_with_traits(conn, required_ids, forbidden_ids):
    """Ids of the root providers that have every trait of
    ``required_ids`` and none of ``forbidden_ids``."""
    query = sa.select(PROVIDERS.c.id).where(
        PROVIDERS.c.parent_provider_id.is_(None))
    for trait_id in required_ids:
        query = query.where(sa.exists().where(
            RP_TRAITS.c.resource_provider_id == PROVIDERS.c.id,
            RP_TRAITS.c.trait_id == trait_id))
    if forbidden_ids:
        query = query.where(~sa.exists().where(
            RP_TRAITS.c.resource_provider_id == PROVIDERS.c.id,
            RP_TRAITS.c.trait_id.in_(sorted(forbidden_ids))))
    return set(conn.execute(query).scalars())


def _roots_by_id(dialect):
    return sa.select(PROVIDERS.c.id, PROVIDERS.c.root_provider_id).where(
        _in(dialect, PROVIDERS.c.id, 'ids'))


def roots_by_id(conn, provider_ids):
    """{provider id: its root's id} for ``provider_ids``."""
    if not provider_ids:
        return {}
    return dict(_rows(conn, _statement(conn, _roots_by_id),
                      ids=_values(conn, provider_ids)))


def _sharing_anchors(dialect):
    # Not DISTINCT: the caller makes sets of the roots (sorting or hashing
    # the rows on the server costs more than sending the repeats).
    mine = RP_AGGREGATES.alias('mine')
    theirs = RP_AGGREGATES.alias('theirs')
    providers = _hashed_providers(dialect)
    return sa.select(mine.c.resource_provider_id,
                     providers.c.root_provider_id).select_from(
        mine.join(theirs, theirs.c.aggregate_id == mine.c.aggregate_id)
        .join(providers, providers.c.id == theirs.c.resource_provider_id)
    ).where(_in(dialect, mine.c.resource_provider_id, 'ids'))


def sharing_anchors(conn, sharing_ids):
    """{sharing provider id: ids of the roots of every tree with a provider
    in one of its aggregates (its own tree's included)}."""
    anchors = collections.defaultdict(set)
    if sharing_ids:
        for sharing_id, root_id in _rows(
                conn, _statement(conn, _sharing_anchors),
                ids=_values(conn, sharing_ids)):
            anchors[sharing_id].add(root_id)
    return anchors


def _revisions(dialect):
    # In id order: the order the summaries are written in, which would
    # otherwise follow the plan (PostgreSQL's changes once the statement
    # is prepared).
    return sa.select(PROVIDERS.c.id, PROVIDERS.c.revision).where(
        _in(dialect, PROVIDERS.c.root_provider_id, 'ids')).order_by(
        PROVIDERS.c.id)


def _providers(dialect):
    # One UNION ALL, one round trip: the providers with their inventories
    # (usable = total - reserved: an integer either way, so the capacity
    # computed from it is the same), then their traits, told apart by a
    # null root. The providers are found once, in a common table
    # expression both halves read.
    wanted = sa.select(
        PROVIDERS.c.id, PROVIDERS.c.uuid,
        PROVIDERS.c.parent_provider_id.label('parent_id'),
        PROVIDERS.c.root_provider_id.label('root_id'), PROVIDERS.c.revision,
    ).where(_in(dialect, PROVIDERS.c.id, 'ids')).cte('wanted')
    null = sa.null()
    return sa.union_all(sa.select(
        wanted.c.id, wanted.c.uuid, wanted.c.parent_id, wanted.c.root_id,
        wanted.c.revision, INVENTORIES.c.resource_class_id,
        INVENTORIES.c.total - INVENTORIES.c.reserved,
        INVENTORIES.c.allocation_ratio, INVENTORIES.c.allocated,
    ).select_from(wanted.outerjoin(
        INVENTORIES, INVENTORIES.c.resource_provider_id == wanted.c.id)),
        sa.select(
        RP_TRAITS.c.resource_provider_id, TRAITS.c.name, null, null, null,
        null, null, null, null,
    ).select_from(
        wanted.join(RP_TRAITS, RP_TRAITS.c.resource_provider_id == wanted.c.id)
        .join(TRAITS, TRAITS.c.id == RP_TRAITS.c.trait_id)))


def _read_providers(conn, provider_ids):
    """{id: provider_cache.Provider} of those of ``provider_ids`` that
    exist."""
    rows = _rows(conn, _statement(conn, _providers),
                 ids=_values(conn, provider_ids))
    trees = {}
    inventories = collections.defaultdict(list)
    traits = collections.defaultdict(set)
    for (provider_id, name, parent_id, root_id, revision, class_id, usable,
         ratio, allocated) in rows:
        if root_id is None:
            traits[provider_id].add(name)
            continue
        trees[provider_id] = (revision, name, parent_id, root_id)
        if class_id is not None:
            inventories[provider_id].append(
                (class_id, int(usable * ratio), allocated))
    # Inventories by class id: a summary lists them in the same order
    # whichever read found the provider.
    return {provider_id: provider_cache.Provider(
        *tree, tuple(_chain(sorted(inventories.get(provider_id, ())))),
        frozenset(traits.get(provider_id, ())))
        for provider_id, tree in trees.items()}


def trees(conn, root_ids):
    """{id: provider_cache.Provider} of every provider in the trees of
    ``root_ids``. Only the providers' revisions are read each time, then
    those of the providers not cached at their revision."""
    if not root_ids:
        return {}
    revisions = _rows(conn, _statement(conn, _revisions),
                      ids=_values(conn, root_ids))
    return provider_cache.providers(
        revisions, lambda ids: _read_providers(conn, ids))


def has_nested_providers(conn):
    return conn.execute(sa.select(PROVIDERS.c.id).where(
        PROVIDERS.c.parent_provider_id.is_not(None)).limit(1)).first() \
        is not None
