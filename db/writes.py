"""Writes that go with a compare-and-swap.

Some writes have nothing of their own to check: an INSERT, or an UPDATE or
DELETE whose only condition is a row's key. When they belong to a
compare-and-swap (a claim's allocations to the swap of its provider),
``db.api.update_or_explain(..., then=writes)`` makes them in the same
transaction, once the swap has matched:

- on PostgreSQL in the swap's own statement, as data-modifying CTEs
  (``WITH then_0 AS (INSERT ...) UPDATE ...``): one round trip for all of
  them (up to MAX_CARRIED statements; more are made apart, as below).
  Every part of one statement reads the same snapshot, so the swap's
  conditions do not see the writes, just as where they run after it (nor
  does one write see another here: writes that read each other's rows do
  not belong together). They are made whether or not the swap matches,
  so a swap that carries them and misses raises SwapMissed, and its
  transaction must be rolled back. Run it again without them to learn why
  it missed;
- elsewhere, after the swap, one statement each, only if it matched.

Writes that go with a swap whether or not it matches (``first=writes``:
a new volume's rows, inserted with its project's usage swap, whose
conditions do not read them) ride in its statement the same way on
PostgreSQL, and elsewhere are made just before it; a miss needs no
second run then: it is explained as any other.

Statements are built once per shape, with bind parameters only, named
apart across the writes of one swap: SQLAlchemy reuses their compiled
form, and db.statements, by their keys, the swap that carries them. They
name every column that
has a default (``created_at``, ``updated_at``): SQLAlchemy fills defaults
in only for the outermost statement.
"""
import functools

import sqlalchemy as sa

# Dialects whose UPDATE can carry data-modifying CTEs.
_CARRIED_BY = frozenset(['postgresql'])

# At most this many statements ride in one swap: a claim needs a handful,
# and a bulk write (a POST /allocations of thousands of rows) made apart
# keeps its executemany and stays clear of the server's limit on bind
# parameters (65535 on PostgreSQL).
MAX_CARRIED = 32


def carried_parts(dialect_name, writes):
    """The (cache key, statement, parameters) a swap on this dialect
    carries in its statement for ``writes``: all their parts, or none."""
    if dialect_name not in _CARRIED_BY or not writes or \
            sum(write.size() for write in writes) > MAX_CARRIED:
        return ()
    return [part for write in writes for part in write.parts()]


class Write:
    """One write: a statement built once, the values of its bind
    parameters, and the key naming the statement in the cache of the
    swaps that carry it (db.statements; None: such a swap is not cached)."""

    __slots__ = ('statement', 'params', 'key')

    def __init__(self, statement, params, key=None):
        self.statement = statement
        self.params = params
        self.key = key

    def size(self):
        """How many statements carrying it takes."""
        return 1

    def parts(self):
        """(cache key, statement, parameters) to carry, one CTE each."""
        return [(self.key, self.statement, self.params)]

    def make(self, conn):
        conn.execute(self.statement, self.params)


class Insert(Write):
    """The insert of ``rows`` (dicts with the same keys) into ``table``.
    Made apart, it is one executemany; carried, one CTE per row, with
    bind parameters ``<prefix><row>_<column>`` (SQLAlchemy caches no
    multi-row VALUES)."""

    __slots__ = ('table', 'columns', 'rows', 'prefix')

    def __init__(self, table, rows, prefix):
        self.table, self.rows, self.prefix = table, rows, prefix
        self.columns = tuple(rows[0])
        super().__init__(insert_statement(table, self.columns), rows,
                         ('insert', table.name, self.columns))

    def size(self):
        return len(self.rows)

    def parts(self):
        return [(('insert', self.table.name, self.columns, self.prefix, i),
                 insert_statement(self.table, self.columns, self.prefix, i),
                 dict(zip(_carried_names(self.columns, self.prefix, i),
                          map(row.__getitem__, self.columns))))
                for i, row in enumerate(self.rows)]


@functools.lru_cache(maxsize=256)
def _carried_names(columns, prefix, row):
    # Named as insert_statement names them; formatted once per shape.
    return tuple('%s%d_%s' % (prefix, row, column) for column in columns)


@functools.lru_cache(maxsize=256)
def insert_statement(table, columns, prefix='', row=None):
    """INSERT of one row of ``columns``; its parameters are named after
    the columns, or ``<prefix><row>_<column>``."""
    names = columns if row is None else _carried_names(columns, prefix, row)
    # Inline: no RETURNING of ids nobody reads.
    return table.insert().inline().values({
        column: sa.bindparam(name, type_=table.c[column].type)
        for column, name in zip(columns, names)})


def make(conn, writes):
    """Make ``writes`` in the caller's transaction, apart."""
    for write in writes:
        write.make(conn)


def upsert(conn, table, key, values, on_insert=None, increment=()):
    """Update the row of ``table`` whose columns equal ``key`` with
    ``values`` (and ``increment``'s columns + 1); if there is none, insert
    ``key`` + ``values`` + ``on_insert``. The caller holds what serialises
    writers of this row (the compare-and-swap of its owner, in the same
    transaction), so no concurrent insert of the same key can slip in
    between the two statements."""
    update, insert = _upsert_statements(
        table, tuple(key), tuple(values), tuple(increment),
        tuple(on_insert or ()))
    params = dict(values)
    params.update(('key_' + column, value) for column, value in key.items())
    if conn.execute(update, params).rowcount:
        return False
    conn.execute(insert, dict(key, **values, **(on_insert or {})))
    return True


@functools.lru_cache(maxsize=64)
def _upsert_statements(table, key, values, increment, on_insert):
    # Built once per shape, with bind parameters named after the columns
    # ('key_<column>' in the WHERE: SQLAlchemy reserves the plain names for
    # the SET): SQLAlchemy reuses the compiled forms.
    def bound(column, prefix=''):
        return sa.bindparam(prefix + column, type_=table.c[column].type)
    update = table.update().where(
        *[table.c[column] == bound(column, 'key_') for column in key]).values(
        {column: bound(column) for column in values})
    if increment:
        update = update.values({column: table.c[column] + 1
                                for column in increment})
    return update, insert_statement(table, key + values + on_insert)
