"""The conditional UPDATE of a compare-and-swap (db.api), and its cache.

Building an UPDATE (coercing each clause) costs several times the CPU of
running it. What the statement looks like depends on the model, the keys,
the conditions' and SQL values' cache keys (db.conditions: an Expect's is
the *shape* of its expected value, a Filter's or an SQL value's the key of
its ``Sql``), but not on the literal values: those become bind parameters
of a statement built once per key, and each call only binds them.
Constant statements also let SQLAlchemy reuse their compiled form.

A condition or SQL value without a key (a plain SQLAlchemy expression) is
not cached: its statement is built for that call (``cache_stats()`` counts
those as ``uncached``). Hot paths give every part a key; the test
tests/functional/test_cas_cache_hits.py proves they hit.
"""
import collections
import threading

import sqlalchemy as sa
from sqlalchemy.sql import visitors

from db import conditions as cond
from db import exceptions

# -- building the statement ---------------------------------------------------

_INCLUDE_DELETED = {'no': sa.false(), 'only': sa.true(), 'yes': None}


def check_include_deleted(include_deleted):
    if not isinstance(include_deleted, str) or \
            include_deleted not in _INCLUDE_DELETED:
        raise exceptions.InvalidUpdate(
            "include_deleted must be 'yes', 'no' or 'only', not %r"
            % (include_deleted,))


def soft_delete_clause(table, include_deleted):
    check_include_deleted(include_deleted)
    wanted = _INCLUDE_DELETED[include_deleted]
    if wanted is None or 'deleted' not in table.c:
        return None
    return table.c.deleted == wanted


def restricts_project(context, project_only):
    return bool(project_only) and not getattr(context, 'is_admin', False)


def project_clause(context, table, project_only, project_id=None):
    """``project_id`` (default: the context's) may be a bind parameter."""
    if not restricts_project(context, project_only):
        return None
    if 'project_id' not in table.c:
        raise exceptions.InvalidUpdate(
            '%s has no project_id to restrict on' % table.name)
    if project_id is None:
        project_id = context.project_id
    return table.c.project_id == project_id


def _reads_table(criterion, table):
    """True if ``criterion`` holds a subquery that reads ``table`` itself
    (through an alias): MySQL refuses those in an UPDATE of ``table``.
    A plain reference to ``table`` inside a subquery is a correlation to
    the row being updated, not a read."""
    for element in visitors.iterate(criterion):
        if isinstance(element, sa.Select):
            for from_ in element.get_final_froms():
                if from_ is not table and from_.is_derived_from(table):
                    return True
    return False


def _may_read_tables(condition):
    # Only a criterion or an SQL expected value can hold a subquery.
    return not isinstance(condition, cond.Expect) or cond.is_sql(
        condition.expected)


def _through_derived_table(plain, reading, table):
    """MySQL refuses an UPDATE whose WHERE reads the table being updated
    (error 1093), but allows a derived table, which it materialises first.
    Clauses that read the table (``reading``) move into one; the others
    stay in the UPDATE's own WHERE, which MySQL checks against the latest
    row version under the row lock, and are repeated in the derived table
    so that it only looks at the rows they allow (by primary key, usually
    one)."""
    primary_key = id_column_of(table)
    matching = (sa.select(primary_key).where(*plain, *reading)
                .subquery('cas_self'))
    return plain + [
        primary_key.in_(sa.select(matching.c[primary_key.key]))]


def _where(context, model, conditions, include_deleted, project_only,
           dialect, project_id=None):
    table = model.__table__
    plain, reading = [], []
    for condition in conditions:
        clause = condition.clause(model)
        if (dialect == 'mysql' and _may_read_tables(condition)
                and _reads_table(clause, table)):
            reading.append(clause)
        else:
            plain.append(clause)
    for extra in (soft_delete_clause(table, include_deleted),
                  project_clause(context, table, project_only, project_id)):
        if extra is not None:
            plain.append(extra)
    if reading:
        return _through_derived_table(plain, reading, table)
    return plain


def _set_rank(value):
    # MySQL evaluates SET left to right with the values already assigned;
    # PostgreSQL and SQLite use the old row. Anything that reads a column
    # must therefore come before the literals that overwrite columns.
    if isinstance(value, cond.Sql):
        value = value.sql()
    if isinstance(value, cond.Case):
        return 1
    if cond.is_sql(value) and not isinstance(value, sa.BindParameter):
        return 0
    return 2  # literals, bound ones too


def ordered_set(model, values, order=None):
    """The (column, value) pairs of the SET clause, in a safe order:
    the keys named in ``order``, then values that read columns, then
    ``Case`` values, then literals."""
    if not values:
        raise exceptions.InvalidUpdate('a conditional update needs values')
    pairs = []
    for key, value in values.items():
        column = cond.column_of(model, key)
        if cond.is_sql(value):
            _refuse_foreign_columns(model, value)
        pairs.append((column, value))
    first = [cond.column_of(model, key).key for key in (order or ())]
    unknown = set(first) - {c.key for c, _ in pairs}
    if unknown:
        raise exceptions.InvalidUpdate(
            'order names keys that are not being updated: %s'
            % ', '.join(sorted(unknown)))

    def rank(pair):
        column, value = pair
        if column.key in first:
            return (-1, first.index(column.key))
        return (_set_rank(value), 0)

    return [(c, v.__clause_element__()
             if isinstance(v, (cond.Case, cond.Sql)) else v)
            for c, v in sorted(pairs, key=rank)]


def _columns_outside_subqueries(expression):
    """The columns ``expression`` reads directly; a subquery's own columns
    are its business (it may read any table)."""
    pending = [expression]
    while pending:
        element = pending.pop()
        if isinstance(element, (sa.sql.Select, sa.sql.selectable.ScalarSelect)):
            continue
        if isinstance(element, sa.Column):
            yield element
        pending.extend(element.get_children())


def _refuse_foreign_columns(model, value):
    table = model.__table__
    expression = value.__clause_element__() if hasattr(
        value, '__clause_element__') else value
    for column in _columns_outside_subqueries(expression):
        if column.table is not table:
            raise exceptions.InvalidUpdate(
                'conditional update of %s cannot set a value from %s.%s: '
                'an update may only touch one model' % (
                    table.name, column.table.name, column.key))


def build_conditional_update(context, model, values, conditions,
                             include_deleted='no', project_only=False,
                             order=None, dialect=None, project_id=None):
    table = model.__table__
    where = _where(context, model, conditions, include_deleted,
                   project_only, dialect, project_id)
    return (sa.update(table).where(*where)
            .ordered_values(*ordered_set(model, values, order)))


def id_column_of(table):
    return list(table.primary_key.columns)[0]


# -- the cache ---------------------------------------------------------------

MAX_CACHED_STATEMENTS = 512

_PLAIN = frozenset([str, int, float, bool])
_statements = collections.OrderedDict()
_lock = threading.Lock()
_stats = collections.Counter()


def cache_stats():
    """{'hits', 'misses', 'uncached', 'size'} since the process started:
    calls served by a cached statement, calls that built one and cached
    it, calls whose statement had no key and was built for them alone."""
    with _lock:
        return dict(hits=_stats['hits'], misses=_stats['misses'],
                    uncached=_stats['uncached'], size=len(_statements))


class _Parts:
    """A call's values and conditions walked once: the cache key (None if
    a part has none), the literals in the order they are bound, and the
    named parameters of its Sql parts."""

    def __init__(self, context, model, values, conditions, include_deleted,
                 project_only, order, dialect, then):
        self.literals = []
        self.named = {}
        keyed = True
        key = [model.__table__.name, include_deleted, dialect,
               _names(model, order) if order else ()]
        for name, value in values.items():
            if not isinstance(name, str):
                name = cond.column_of(model, name).key
            if value is None or type(value) in _PLAIN:
                key.append((name, cond.PARAM))
                self.literals.append(value)
            elif isinstance(value, cond.Sql):
                key.append((name, 'sql', value.key))
                self.named.update(value.params)
            elif cond.is_sql(value):
                keyed = False
            else:
                key.append((name, cond.PARAM))
                self.literals.append(value)
        for condition in conditions:
            part, literals, named = condition.cache_parts()
            keyed = keyed and part is not None
            key.append(part)
            self.literals.extend(literals)
            if named:
                self.named.update(named)
        if restricts_project(context, project_only):
            key.append('project_id')
            self.literals.append(context.project_id)
        carried = tuple(part_key for part_key, _ in then)
        key.append(carried)
        self.key = tuple(key) if keyed and None not in carried else None


def _names(model, keys):
    return tuple(k if isinstance(k, str) else cond.column_of(model, k).key
                 for k in keys)


def _build_bound(context, model, values, conditions, include_deleted,
                 project_only, order, dialect):
    """The statement with numbered bind parameters in the place of the
    literals (in the order _Parts met them), and their names."""
    names = []

    def param(type_=None):
        names.append('cas_%d' % len(names))
        return sa.bindparam(names[-1], type_=type_)

    bound_values = {}
    for name, value in values.items():
        column = cond.column_of(model, name)
        bound_values[column.key] = value if cond.is_sql(value) else param(
            column.type)
    bound_conditions = [c.bound(param) for c in conditions]
    project_id = param() if restricts_project(context, project_only) \
        else None
    statement = build_conditional_update(
        context, model, bound_values, bound_conditions, include_deleted,
        project_only, order, dialect, project_id)
    return statement, tuple(names)


def _with_writes(statement, then):
    if then:
        statement = statement.add_cte(*[
            write.cte('then_%d' % i) for i, (_, write) in enumerate(then)])
    return statement


def cached_conditional_update(context, model, values, conditions,
                              include_deleted='no', project_only=False,
                              order=None, dialect=None, then=()):
    """(statement, parameters): build_conditional_update's statement for
    this call, from the cache when every part has a key, and the call's
    values by parameter name. ``then``: (cache key, statement) of writes
    the UPDATE carries as data-modifying CTEs (see db.writes), their
    parameters not included."""
    check_include_deleted(include_deleted)
    parts = _Parts(context, model, values, conditions, include_deleted,
                   project_only, order, dialect, then)
    if parts.key is None:
        with _lock:
            _stats['uncached'] += 1
        statement = build_conditional_update(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect)
        return _with_writes(statement, then), dict(parts.named)
    with _lock:
        cached = _statements.get(parts.key)
        if cached is not None:
            _statements.move_to_end(parts.key)
            _stats['hits'] += 1
    if cached is None:
        statement, names = _build_bound(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect)
        cached = (_with_writes(statement, then), names)
        with _lock:
            _stats['misses'] += 1
            _statements[parts.key] = cached
            while len(_statements) > MAX_CACHED_STATEMENTS:
                _statements.popitem(last=False)
    statement, names = cached
    parameters = dict(zip(names, parts.literals))
    parameters.update(parts.named)
    return statement, parameters
