"""Usages: sums of allocations, per provider or per project (and user,
and consumer type). Counted from the allocations themselves, so they
cannot drift from them."""
import sqlalchemy as sa

from db import models
from db import session
from objects.placement import resource_class as rc_obj

ALLOCATIONS = models.Allocation.__table__
INVENTORIES = models.Inventory.__table__
CONSUMERS = models.Consumer.__table__
CONSUMER_TYPES = models.ConsumerType.__table__
PROJECTS = models.Project.__table__
USERS = models.User.__table__

# consumer_type values of GET /usages that are not type names.
ALL_TYPES = 'all'
UNKNOWN_TYPE = 'unknown'


def get_for_provider(context, provider_id):
    """{class name: used} for every class the provider has inventory of
    (0 where nothing is allocated), as Placement reports it."""
    used = sa.func.coalesce(sa.func.sum(ALLOCATIONS.c.used), 0)
    query = sa.select(INVENTORIES.c.resource_class_id, used).select_from(
        INVENTORIES.outerjoin(ALLOCATIONS, sa.and_(
            ALLOCATIONS.c.resource_provider_id
            == INVENTORIES.c.resource_provider_id,
            ALLOCATIONS.c.resource_class_id
            == INVENTORIES.c.resource_class_id))
    ).where(INVENTORIES.c.resource_provider_id == provider_id).group_by(
        INVENTORIES.c.resource_class_id)
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(query).all()
    return _by_name(context, rows)


def _by_name(context, rows):
    names = rc_obj.names_from_ids(context, [r[0] for r in rows])
    return {names[r[0]]: int(r[1]) for r in rows if r[0] in names}


def _owned_by(query, project_id, user_id):
    query = query.join(PROJECTS, CONSUMERS.c.project_id == PROJECTS.c.id) \
        .where(PROJECTS.c.external_id == project_id)
    if user_id is not None:
        query = query.join(USERS, CONSUMERS.c.user_id == USERS.c.id) \
            .where(USERS.c.external_id == user_id)
    return query


def get_for_project(context, project_id, user_id=None):
    """{class name: used} over the consumers of a project (and user)."""
    query = sa.select(ALLOCATIONS.c.resource_class_id,
                      sa.func.sum(ALLOCATIONS.c.used)).select_from(
        ALLOCATIONS.join(CONSUMERS,
                         ALLOCATIONS.c.consumer_id == CONSUMERS.c.uuid))
    query = _owned_by(query, project_id, user_id).group_by(
        ALLOCATIONS.c.resource_class_id)
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(query).all()
    return _by_name(context, rows)


def get_for_project_by_type(context, project_id, user_id=None,
                            consumer_type=None):
    """Usages per consumer type (microversion 1.38):
    ``{type: {'consumer_count': n, class name: used, ...}}``.

    ``consumer_type``: one type's name, ``'unknown'`` (consumers without a
    type), ``'all'`` (every consumer, under the key ``'all'``), or None
    (every type, each under its own key). ``consumer_count`` counts the
    distinct consumers of the type that have allocations, over all classes.
    """
    type_name = CONSUMER_TYPES.c.name
    if consumer_type == ALL_TYPES:
        group = sa.literal(ALL_TYPES)
    else:
        group = sa.func.coalesce(type_name, UNKNOWN_TYPE)
    joined = ALLOCATIONS.join(
        CONSUMERS, ALLOCATIONS.c.consumer_id == CONSUMERS.c.uuid).outerjoin(
        CONSUMER_TYPES, CONSUMERS.c.consumer_type_id == CONSUMER_TYPES.c.id)

    def scoped(query):
        query = _owned_by(query.select_from(joined), project_id, user_id)
        if consumer_type == UNKNOWN_TYPE:
            query = query.where(CONSUMERS.c.consumer_type_id.is_(None))
        elif consumer_type not in (None, ALL_TYPES):
            query = query.where(type_name == consumer_type)
        return query

    # 'all' is one group: a constant, which PostgreSQL will not group by.
    grouping = () if consumer_type == ALL_TYPES else (group,)
    sums = scoped(sa.select(group.label('type'),
                            ALLOCATIONS.c.resource_class_id,
                            sa.func.sum(ALLOCATIONS.c.used))).group_by(
        *grouping, ALLOCATIONS.c.resource_class_id)
    counts = scoped(sa.select(
        group.label('type'),
        sa.func.count(sa.distinct(ALLOCATIONS.c.consumer_id)))).group_by(
        *grouping)
    with session.reader.connection.using(context) as conn:
        sum_rows = conn.execute(sums).all()
        count_rows = conn.execute(counts).all()
    names = rc_obj.names_from_ids(context, [r[1] for r in sum_rows])
    # An ungrouped count answers 0 where there is nothing: no group then.
    result = {kind: {'consumer_count': count} for kind, count in count_rows
              if count}
    for kind, class_id, used in sum_rows:
        if class_id in names:
            result[kind][names[class_id]] = int(used)
    return result
