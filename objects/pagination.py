"""Keyset pagination shared by the list queries (volumes, types ...).

``paginate`` orders a Core SELECT by the requested keys (``id`` is always
the last one, so the order is total) and, given a marker, keeps the rows
that come after the marker's row in that order. Nullable columns sort
NULLs first ascending (last descending) on every backend.
"""
import sqlalchemy as sa

from db import exceptions
from db import session


class MarkerNotFound(exceptions.NotFound):
    def __init__(self, marker):
        super().__init__('marker', marker)
        self.args = ('Marker %s could not be found.' % marker,)

    def __str__(self):
        return self.args[0]


def _keys(table, sort_keys, sort_dirs):
    """[(expression, column, direction, is_null_flag)], id last."""
    keys = list(zip(sort_keys, sort_dirs))
    if 'id' not in sort_keys:
        keys.append(('id', sort_dirs[-1] if sort_dirs else 'asc'))
    result = []
    for name, direction in keys:
        column = table.c[name]
        if column.nullable:
            flag = sa.case((column.is_(None), 0), else_=1)
            result.append((flag, column, direction, True))
        result.append((column, column, direction, False))
    return result


def _after(keys, marker_row):
    """Rows strictly after ``marker_row`` in the order of ``keys``."""
    alternatives = []
    equal_so_far = []
    for expression, column, direction, is_flag in keys:
        value = marker_row[column.key]
        if is_flag:
            value = 0 if value is None else 1
        if value is None:
            beyond = sa.false()
            same = expression.is_(None)
        else:
            beyond = expression > value if direction == 'asc' \
                else expression < value
            same = expression == value
        alternatives.append(sa.and_(*equal_so_far, beyond))
        equal_so_far.append(same)
    return sa.or_(*alternatives)


def paginate(context, table, query, limit=None, marker=None,
             sort_keys=('created_at',), sort_dirs=('desc',), offset=None,
             marker_scope=()):
    """``query`` ordered and cut to the page after ``marker``.

    The marker is looked up within ``marker_scope`` (conditions on
    ``table``: the caller's project), as Cinder does: a row outside it is
    a marker not found, exactly like an unknown id, so that a marker
    cannot tell whether another tenant's id exists, nor where it sorts.
    """
    keys = _keys(table, list(sort_keys), list(sort_dirs))
    if marker is not None:
        with session.reader.connection.using(context) as conn:
            marker_row = conn.execute(
                sa.select(table).where(table.c.id == marker, *marker_scope)
            ).mappings().first()
        if marker_row is None:
            raise MarkerNotFound(marker)
        query = query.where(_after(keys, marker_row))
    query = query.order_by(*[
        expression.asc() if direction == 'asc' else expression.desc()
        for expression, _column, direction, _flag in keys])
    if limit is not None:
        query = query.limit(limit)
    if offset:
        query = query.offset(offset)
    return query


def live_rows(context, table, scope=(), filters=None, limit=None,
              marker=None, sort_keys=('created_at',), sort_dirs=('desc',),
              offset=None):
    """One page of ``table``'s rows not deleted, within ``scope`` (clauses
    on ``table``: the caller's project; the marker is looked up within it
    too), whose columns equal ``filters`` ({column: value})."""
    query = sa.select(table).where(table.c.deleted == sa.false(), *scope)
    for column, value in (filters or {}).items():
        query = query.where(table.c[column] == value)
    query = paginate(context, table, query, limit, marker, sort_keys,
                     sort_dirs, offset, marker_scope=scope)
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).mappings().all()
