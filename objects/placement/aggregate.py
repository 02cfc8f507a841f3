"""Aggregates a resource provider belongs to (uuids; Placement keeps no
other data about an aggregate)."""
import sqlalchemy as sa
from oslo_utils import timeutils
from sqlalchemy.dialects import mysql
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from db import api as db_api
from db import models
from db import session
from objects.placement import resource_provider as rp_obj

AGGREGATES = models.PlacementAggregate.__table__
RP_AGGREGATES = models.ResourceProviderAggregate.__table__


def get_for_provider(context, provider_id):
    """The aggregate uuids of a provider, sorted."""
    with session.reader.connection.using(context) as conn:
        query = sa.select(AGGREGATES.c.uuid).select_from(
            AGGREGATES.join(RP_AGGREGATES,
                            RP_AGGREGATES.c.aggregate_id == AGGREGATES.c.id)
        ).where(RP_AGGREGATES.c.resource_provider_id == provider_id).order_by(
            AGGREGATES.c.uuid)
        return conn.execute(query).scalars().all()


def _insert_ignoring_duplicates(conn, table, rows):
    """One INSERT that skips rows whose key exists (a concurrent writer may
    have made the same aggregate): no failed statement, no savepoint."""
    dialect = conn.dialect.name
    if dialect == 'postgresql':
        statement = postgresql.insert(table).on_conflict_do_nothing()
    elif dialect == 'sqlite':
        statement = sqlite.insert(table).on_conflict_do_nothing()
    elif dialect == 'mysql':
        statement = mysql.insert(table).prefix_with('IGNORE')
    else:
        raise NotImplementedError(dialect)
    conn.execute(statement, rows)


def _ensure_aggregates(conn, uuids):
    """{uuid: id}, creating the aggregates not seen before."""
    now = timeutils.utcnow()
    _insert_ignoring_duplicates(conn, AGGREGATES, [
        {'uuid': u, 'created_at': now} for u in uuids])
    return dict(conn.execute(sa.select(AGGREGATES.c.uuid, AGGREGATES.c.id)
                             .where(AGGREGATES.c.uuid.in_(uuids))).all())


def set_for_provider(context, provider, uuids, generation=None):
    """Make ``uuids`` the provider's aggregates.

    With ``generation`` (microversion 1.19 on) the provider's generation is
    compare-and-swapped from it, and the new one returned. Without (1.1 to
    1.18, where Placement leaves the generation alone) the provider row is
    held by a compare-and-swap of the generation as last read onto itself,
    retried with a fresh read if it moved.
    """
    uuids = sorted(set(uuids))
    if generation is not None:
        return _set(context, provider, uuids, generation, True)
    return rp_obj.retry_from_last_read(context, provider, lambda rp: _set(
        context, rp, uuids, rp.generation, False))


@db_api.retry_on_deadlock
def _set(context, provider, uuids, generation, bump):
    with session.writer.connection.using(context) as conn:
        if bump:
            generation = rp_obj.increment_generation(
                context, provider.id, generation)
        else:
            rp_obj.hold_at_generation(context, provider.id, generation)
        ids = _ensure_aggregates(conn, uuids) if uuids else {}
        where = [RP_AGGREGATES.c.resource_provider_id == provider.id]
        if ids:
            where.append(RP_AGGREGATES.c.aggregate_id.not_in(ids.values()))
        conn.execute(RP_AGGREGATES.delete().where(*where))
        if ids:
            now = timeutils.utcnow()
            _insert_ignoring_duplicates(conn, RP_AGGREGATES, [
                {'resource_provider_id': provider.id, 'aggregate_id': i,
                 'created_at': now} for i in ids.values()])
    return generation
