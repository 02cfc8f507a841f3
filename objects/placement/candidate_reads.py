"""The reads behind allocation candidates: each one set-based statement
whose size follows the request (classes, traits, aggregates named) and the
providers that can serve it, never one statement per provider.

All take an open connection, so that one candidates query reads one
snapshot.
"""
import collections

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from db import models

PROVIDERS = models.ResourceProvider.__table__
INVENTORIES = models.Inventory.__table__
TRAITS = models.Trait.__table__
RP_TRAITS = models.ResourceProviderTrait.__table__
AGGREGATES = models.PlacementAggregate.__table__
RP_AGGREGATES = models.ResourceProviderAggregate.__table__


def _in(conn, column, values):
    """``column IN values``. On PostgreSQL one array parameter (``=
    ANY(...)``): an IN list of hundreds of parameters costs the driver more
    to prepare than the database to run, and is a new statement each time
    its length changes."""
    values = sorted(values)
    if conn.dialect.name == 'postgresql':
        return column == sa.any_(sa.bindparam(
            None, values, type_=postgresql.ARRAY(column.type)))
    return column.in_(values)


def _rows(conn, query):
    """All the rows of ``query``, fetched at once (thousands of rows one
    by one cost more than the statement)."""
    return conn.execute(query).all()


def _fits(class_id, amount):
    """Inventory of ``class_id`` that can take ``amount`` more. The
    inventory row's ``allocated`` is the sum of its allocations."""
    return sa.and_(
        INVENTORIES.c.resource_class_id == class_id,
        INVENTORIES.c.allocated + amount
        <= (INVENTORIES.c.total - INVENTORIES.c.reserved)
        * INVENTORIES.c.allocation_ratio,
        INVENTORIES.c.min_unit <= amount,
        INVENTORIES.c.max_unit >= amount,
        sa.literal(amount) % INVENTORIES.c.step_size == 0)


def providers_with_room(conn, wanted):
    """Rows (provider_id, root_id, class_id, amount, total, reserved,
    allocation_ratio, allocated, max_unit): every provider with room for
    one of ``wanted``, a set of (class id, amount), with its root and the
    inventory row. One UNION ALL of one indexed select per pair."""
    selects = [sa.select(
        INVENTORIES.c.resource_provider_id.label('provider_id'),
        PROVIDERS.c.root_provider_id.label('root_id'),
        sa.literal(class_id).label('class_id'),
        sa.literal(amount).label('amount'),
        INVENTORIES.c.total, INVENTORIES.c.reserved,
        INVENTORIES.c.allocation_ratio, INVENTORIES.c.allocated,
        INVENTORIES.c.max_unit,
    ).select_from(INVENTORIES.join(
        PROVIDERS, PROVIDERS.c.id == INVENTORIES.c.resource_provider_id)
    ).where(_fits(class_id, amount)) for class_id, amount in sorted(wanted)]
    if not selects:
        return []
    return _rows(conn, selects[0] if len(selects) == 1
                 else sa.union_all(*selects))


def capacity(total, reserved, ratio):
    """An inventory's capacity as Placement reports it: rounded down."""
    return int((total - reserved) * ratio)


def roots_of(conn, uuids):
    """{provider uuid: its root's id} for those of ``uuids`` that exist."""
    if not uuids:
        return {}
    return dict(conn.execute(sa.select(
        PROVIDERS.c.uuid, PROVIDERS.c.root_provider_id).where(
            _in(conn, PROVIDERS.c.uuid, uuids))).all())


def aggregate_members(conn, aggregate_uuids):
    """{aggregate uuid: set of provider ids in it}."""
    members = collections.defaultdict(set)
    if aggregate_uuids:
        for uuid, provider_id in _rows(conn, sa.select(
                AGGREGATES.c.uuid, RP_AGGREGATES.c.resource_provider_id)
                .select_from(AGGREGATES.join(
                    RP_AGGREGATES,
                    RP_AGGREGATES.c.aggregate_id == AGGREGATES.c.id))
                .where(_in(conn, AGGREGATES.c.uuid, aggregate_uuids))):
            members[uuid].add(provider_id)
    return members


def traits_and_holders(conn, names):
    """({name: id} of those trait ``names`` that exist, {provider id: set
    of the ids of them it has})."""
    ids, holders = {}, collections.defaultdict(set)
    if names:
        for trait_id, name, provider_id in _rows(conn, sa.select(
                TRAITS.c.id, TRAITS.c.name,
                RP_TRAITS.c.resource_provider_id).select_from(
                TRAITS.outerjoin(RP_TRAITS,
                                 RP_TRAITS.c.trait_id == TRAITS.c.id))
                .where(_in(conn, TRAITS.c.name, names))):
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
            _in(conn, RP_TRAITS.c.trait_id, forbidden_ids)))
    return set(conn.execute(query).scalars())


def roots_by_id(conn, provider_ids):
    """{provider id: its root's id} for ``provider_ids``."""
    if not provider_ids:
        return {}
    return dict(conn.execute(sa.select(
        PROVIDERS.c.id, PROVIDERS.c.root_provider_id).where(
            _in(conn, PROVIDERS.c.id, provider_ids))).all())


def sharing_anchors(conn, sharing_ids):
    """{sharing provider id: ids of the roots of every tree with a provider
    in one of its aggregates (its own tree's included)}."""
    anchors = collections.defaultdict(set)
    if not sharing_ids:
        return anchors
    mine = RP_AGGREGATES.alias('mine')
    theirs = RP_AGGREGATES.alias('theirs')
    query = sa.select(mine.c.resource_provider_id,
                      PROVIDERS.c.root_provider_id).distinct().select_from(
        mine.join(theirs, theirs.c.aggregate_id == mine.c.aggregate_id)
        .join(PROVIDERS, PROVIDERS.c.id == theirs.c.resource_provider_id)
    ).where(_in(conn, mine.c.resource_provider_id, sharing_ids))
    for sharing_id, root_id in _rows(conn, query):
        anchors[sharing_id].add(root_id)
    return anchors


def trees(conn, root_ids):
    """({id: row (id, uuid, parent_id, root_id)}, {id: [(class id,
    capacity, used)]}): every provider in the trees of ``root_ids`` and its
    inventories."""
    providers, inventories = {}, collections.defaultdict(list)
    if not root_ids:
        return providers, inventories
    for row in _rows(conn, sa.select(
            PROVIDERS.c.id, PROVIDERS.c.uuid,
            PROVIDERS.c.parent_provider_id.label('parent_id'),
            PROVIDERS.c.root_provider_id.label('root_id'),
            INVENTORIES.c.resource_class_id, INVENTORIES.c.total,
            INVENTORIES.c.reserved, INVENTORIES.c.allocation_ratio,
            INVENTORIES.c.allocated).select_from(PROVIDERS.outerjoin(
                INVENTORIES,
                INVENTORIES.c.resource_provider_id == PROVIDERS.c.id))
            .where(_in(conn, PROVIDERS.c.root_provider_id, root_ids))):
        providers[row.id] = row
        if row.resource_class_id is not None:
            inventories[row.id].append((
                row.resource_class_id,
                capacity(row.total, row.reserved, row.allocation_ratio),
                int(row.allocated)))
    return providers, inventories


def traits_in_trees(conn, root_ids):
    """{provider id: set of trait names} over the trees of ``root_ids``
    (providers without traits left out)."""
    traits = collections.defaultdict(set)
    if root_ids:
        for provider_id, name in _rows(conn, sa.select(
                RP_TRAITS.c.resource_provider_id, TRAITS.c.name).select_from(
                RP_TRAITS.join(TRAITS, TRAITS.c.id == RP_TRAITS.c.trait_id)
                .join(PROVIDERS,
                      PROVIDERS.c.id == RP_TRAITS.c.resource_provider_id))
                .where(_in(conn, PROVIDERS.c.root_provider_id, root_ids))):
            traits[provider_id].add(name)
    return traits


def has_nested_providers(conn):
    return conn.execute(sa.select(PROVIDERS.c.id).where(
        PROVIDERS.c.parent_provider_id.is_not(None)).limit(1)).first() \
        is not None
