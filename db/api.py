"""The compare-and-swap primitive and the transaction helpers around it.

Every state change in volapi goes through :func:`conditional_update`: one
``UPDATE ... SET ... WHERE <expected state>`` whose row count says whether the
caller's view of the row was still true. There is no SELECT before it and no
lock around it, so any number of processes can race on a row and exactly the
ones whose expectations hold will win.
"""
import functools

import sqlalchemy as sa
from oslo_db import api as oslo_db_api
from sqlalchemy.sql import visitors

from db import conditions as cond
from db import exceptions
from db import session

# Deadlock retry: bounded, jittered, around the whole transaction.
RETRY_MAX = 8
RETRY_INTERVAL = 0.02
RETRY_MAX_INTERVAL = 0.5

# Bound of the precise-failure loop (update_or_explain).
EXPLAIN_ATTEMPTS = 5


def _is_serialization_failure(exc):
    """A transaction lost a race in a way oslo.db does not call a deadlock
    but that a fresh attempt resolves: PostgreSQL's "could not serialize
    access due to concurrent update" (SQLSTATE 40001, REPEATABLE READ), and
    MariaDB's "Record has changed since last read" (error 1020, REPEATABLE
    READ with innodb_snapshot_isolation, the default from 11.6)."""
    # oslo.db hands SQLAlchemy's error on, or wraps it in a DBError.
    inner = getattr(exc, 'inner_exception', exc)
    inner = getattr(inner, 'orig', None)
    if getattr(inner, 'pgcode', None) == '40001':
        return True
    args = getattr(inner, 'args', None) or (None,)
    return args[0] == 1020  # MySQL drivers: (errno, message)


def retrying(max_retries=RETRY_MAX):
    """Decorator: run ``fn(context, ...)`` again when its transaction hits a
    deadlock or serialization failure, at most ``max_retries`` times, with a
    jittered, growing back-off.

    Galera reports a certification failure as a deadlock at COMMIT, which
    enginefacade issues when the outermost block exits, i.e. inside ``fn``,
    so it is retried too. A call made inside an already open transaction is
    not retried here: its session is half used, so the error goes up to the
    function that opened the transaction, which retries all of it.
    """
    def decorator(fn):
        retried = oslo_db_api.wrap_db_retry(
            max_retries=max_retries, retry_on_deadlock=True, jitter=True,
            retry_interval=RETRY_INTERVAL, inc_retry_interval=True,
            max_retry_interval=RETRY_MAX_INTERVAL,
            exception_checker=_is_serialization_failure)(fn)

        @functools.wraps(fn)
        def wrapper(context, *args, **kwargs):
            if session.in_transaction(context):
                return fn(context, *args, **kwargs)
            return retried(context, *args, **kwargs)

        return wrapper
    return decorator


retry_on_deadlock = retrying()


# -- building the statement --------------------------------------------------

_INCLUDE_DELETED = {'no': sa.false(), 'only': sa.true(), 'yes': None}


def _soft_delete_clause(table, include_deleted):
    if not isinstance(include_deleted, str) or \
            include_deleted not in _INCLUDE_DELETED:
        raise exceptions.InvalidUpdate(
            "include_deleted must be 'yes', 'no' or 'only', not %r"
            % (include_deleted,))
    return _soft_delete_clause_of(table, include_deleted)


@functools.lru_cache(maxsize=None)
def _soft_delete_clause_of(table, include_deleted):
    # Cached: clauses are immutable and this one is in every statement.
    wanted = _INCLUDE_DELETED[include_deleted]
    if wanted is None or 'deleted' not in table.c:
        return None
    return table.c.deleted == wanted


def _project_clause(context, table, project_only):
    if not project_only or getattr(context, 'is_admin', False):
        return None
    if 'project_id' not in table.c:
        raise exceptions.InvalidUpdate(
            '%s has no project_id to restrict on' % table.name)
    return table.c.project_id == context.project_id


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
    primary_key = _id_column_of(table)
    matching = (sa.select(primary_key).where(*plain, *reading)
                .subquery('cas_self'))
    return plain + [
        primary_key.in_(sa.select(matching.c[primary_key.key]))]


def _where(context, model, conditions, include_deleted, project_only,
           dialect):
    table = model.__table__
    plain, reading = [], []
    for condition in conditions:
        clause = condition.clause(model)
        if (dialect == 'mysql' and _may_read_tables(condition)
                and _reads_table(clause, table)):
            reading.append(clause)
        else:
            plain.append(clause)
    for extra in (_soft_delete_clause(table, include_deleted),
                  _project_clause(context, table, project_only)):
        if extra is not None:
            plain.append(extra)
    if reading:
        return _through_derived_table(plain, reading, table)
    return plain


def _set_rank(value):
    # MySQL evaluates SET left to right with the values already assigned;
    # PostgreSQL and SQLite use the old row. Anything that reads a column
    # must therefore come before the literals that overwrite columns.
    if isinstance(value, cond.Case):
        return 1
    if cond.is_sql(value):
        return 0
    return 2


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

    return [(c, v.__clause_element__() if isinstance(v, cond.Case) else v)
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
                             order=None, dialect=None):
    table = model.__table__
    where = _where(context, model, conditions, include_deleted,
                   project_only, dialect)
    return (sa.update(table).where(*where)
            .ordered_values(*ordered_set(model, values, order)))


# -- the primitive -------------------------------------------------------------

@retry_on_deadlock
def conditional_update(context, model, values, expected_values, filters=(),
                       include_deleted='no', project_only=False, order=None):
    """Update ``model`` rows matching ``expected_values`` and ``filters``.

    Returns True if a row matched (even if no value actually changed).
    See db.conditions for the expected-value semantics.
    """
    conditions = cond.as_conditions(model, expected_values, filters)
    return _execute(context, model, values, conditions, include_deleted,
                    project_only, order)


def _execute(context, model, values, conditions, include_deleted='no',
             project_only=False, order=None):
    with session.writer.connection.using(context) as conn:
        statement = build_conditional_update(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect=conn.dialect.name)
        # MySQL counts matched rather than changed rows because SQLAlchemy's
        # MySQL dialects connect with CLIENT_FOUND_ROWS.
        return conn.execute(statement).rowcount > 0


def read_columns(context, model, ident, columns):
    """The named columns of one row, as a dict, or None if it is gone."""
    table = model.__table__
    with session.reader.connection.using(context) as conn:
        row = conn.execute(
            sa.select(*[table.c[c] for c in columns])
            .where(_id_column(model) == ident)).mappings().first()
        return dict(row) if row is not None else None


def _id_column(model):
    return _id_column_of(model.__table__)


def _id_column_of(table):
    return list(table.primary_key.columns)[0]


# -- precise failures --------------------------------------------------------

def _first_unmet(context, model, ident, conditions, include_deleted,
                 project_only):
    """Re-read the row and return (condition, actual) for the first condition
    that does not hold, (None, None) if all hold, or raise NotFound (also
    for another project's row under ``project_only``: its state is none of
    the caller's business)."""
    table = model.__table__
    python_checked = [c for c in conditions if c.checks_in_python]
    sql_checked = [c for c in conditions if not c.checks_in_python]
    columns = sorted({c.field for c in python_checked})
    selected = [table.c[name] for name in columns]
    selected += [sa.case((c.clause(model), sa.true()), else_=sa.false())
                 .label('cond_%d' % i) for i, c in enumerate(sql_checked)]
    if not selected:
        selected = [_id_column(model)]
    query = sa.select(*selected).where(_id_column(model) == ident)
    for scope in (_soft_delete_clause(table, include_deleted),
                  _project_clause(context, table, project_only)):
        if scope is not None:
            query = query.where(scope)
    with session.reader.connection.using(context) as conn:
        if conn.dialect.name == 'mysql':
            # Inside a transaction a plain SELECT reads InnoDB's snapshot,
            # but the UPDATE that failed read the latest committed row; a
            # locking read sees what the UPDATE saw.
            query = query.with_for_update(read=True)
        row = conn.execute(query).mappings().first()
    if row is None:
        raise exceptions.NotFound(getattr(model, 'cas_name', table.name),
                                  ident)
    for condition in python_checked:
        actual = condition.actual(row)
        if not condition.holds(actual):
            return condition, actual
    for i, condition in enumerate(sql_checked):
        actual = row['cond_%d' % i]
        if not condition.holds(actual):
            return condition, actual
    return None, None


def update_or_explain(context, model, ident, values, expected_values=None,
                      filters=(), include_deleted='no', project_only=False,
                      order=None, attempts=EXPLAIN_ATTEMPTS, attempt=None):
    """Compare-and-swap row ``ident``, or say precisely why it cannot be done.

    Tries the update; if it fails, re-reads the row and checks every
    condition. One that fails is raised as ConditionNotMet ("volume status
    must be 'available', it is 'in-use'"). If all hold, the row changed
    between the two statements: try again, at most ``attempts`` times, then
    raise ConcurrentUpdate. A missing row raises NotFound, and so does
    another project's row when ``project_only`` applies.

    ``attempt``, if given, performs the update itself (a callable returning
    whether it matched); objects use it to read back what they wrote.
    """
    what = getattr(model, 'cas_name', model.__table__.name)
    conditions = [cond.Expect(_id_column(model).key, ident)]
    conditions += cond.as_conditions(model, expected_values, filters)
    if attempt is None:
        def attempt():
            return _retrying_execute(context, model, values, conditions,
                                     include_deleted, project_only, order)
    for _ in range(attempts):
        if attempt():
            return
        condition, actual = _first_unmet(context, model, ident, conditions,
                                         include_deleted, project_only)
        if condition is not None:
            raise exceptions.ConditionNotMet(condition, actual, what)
    raise exceptions.ConcurrentUpdate(what, ident, attempts)


@retry_on_deadlock
def _retrying_execute(context, model, values, conditions, include_deleted,
                      project_only, order):
    return _execute(context, model, values, conditions, include_deleted,
                    project_only, order)
