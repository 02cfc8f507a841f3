"""The compare-and-swap primitive and the transaction helpers around it.

Every state change in volapi goes through :func:`conditional_update`: one
``UPDATE ... SET ... WHERE <expected state>`` whose row count says whether the
caller's view of the row was still true. There is no SELECT before it and no
lock around it, so any number of processes can race on a row and exactly the
ones whose expectations hold will win.
"""
import collections
import functools
import threading

import sqlalchemy as sa
from oslo_db import api as oslo_db_api
from sqlalchemy.sql import visitors

from db import conditions as cond
from db import connectivity
from db import exceptions
from db import session
from db import writes as db_writes

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
    # The SQLSTATE: psycopg2 calls it pgcode, psycopg (3) sqlstate.
    if (getattr(inner, 'pgcode', None) or
            getattr(inner, 'sqlstate', None)) == '40001':
        return True
    args = getattr(inner, 'args', None) or (None,)
    return args[0] == 1020  # MySQL drivers: (errno, message)


def _retriable(exc):
    return _is_serialization_failure(exc) or connectivity.retry_is_safe(exc)


def retrying(max_retries=RETRY_MAX):
    """Decorator: run ``fn(context, ...)`` again when its transaction hits a
    deadlock or serialization failure, or could not reach the database
    before its COMMIT (db.connectivity), at most ``max_retries`` times,
    with a jittered, growing back-off.

    Galera reports a certification failure as a deadlock at COMMIT, which
    enginefacade issues when the outermost block exits, i.e. inside ``fn``,
    so it is retried too. A call made inside an already open transaction is
    not retried here: its session is half used, so the error goes up to the
    function that opened the transaction, which retries all of it.
    """
    def decorator(fn):
        def attempt(*args, **kwargs):
            sent = connectivity.commits()
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                if connectivity.commits() != sent and \
                        connectivity.is_connection_error(e):
                    raise connectivity.OutcomeUnknown(e) from e
                raise

        retried = oslo_db_api.wrap_db_retry(
            max_retries=max_retries, retry_on_deadlock=True, jitter=True,
            retry_interval=RETRY_INTERVAL, inc_retry_interval=True,
            max_retry_interval=RETRY_MAX_INTERVAL,
            exception_checker=_retriable)(attempt)

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


def _restricts_project(context, project_only):
    return bool(project_only) and not getattr(context, 'is_admin', False)


def _project_clause(context, table, project_only, project_id=None):
    """``project_id`` (default: the context's) may be a bind parameter."""
    if not _restricts_project(context, project_only):
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
    primary_key = _id_column_of(table)
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
    for extra in (_soft_delete_clause(table, include_deleted),
                  _project_clause(context, table, project_only, project_id)):
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
                             order=None, dialect=None, project_id=None):
    table = model.__table__
    where = _where(context, model, conditions, include_deleted,
                   project_only, dialect, project_id)
    return (sa.update(table).where(*where)
            .ordered_values(*ordered_set(model, values, order)))


# -- the statement, built once per shape -------------------------------------
#
# Building an UPDATE (coercing each clause) costs several times the CPU of
# running it. What the statement looks like depends on the model, the keys,
# which values and conditions are SQL expressions and the *shape* of each
# expected value (None, True/False, a collection's length, Not ...), but not
# on the literal values: those become bind parameters of a statement built
# once per shape, and each call only binds them. Constant statements also
# let SQLAlchemy reuse its compiled form.

MAX_CACHED_STATEMENTS = 512

_statements = collections.OrderedDict()
_statements_lock = threading.Lock()
_PARAM = '?'


class _Shape:
    """Walks a call's values and conditions: the cache key (literals
    replaced by _PARAM), the literals in order, and the SQL objects, which
    enter the key by identity and are kept alive with the statement."""

    __slots__ = ('key', 'params', 'kept')

    def __init__(self):
        self.key = []
        self.params = []
        self.kept = []

    def sql(self, value):
        self.kept.append(value)
        return ('sql', id(value))

    def expected(self, expected):
        if expected is None or isinstance(expected, bool):
            return expected  # constants of the SQL (IS NULL, = true)
        if isinstance(expected, cond.Not):
            return ('not', expected.auto_none, self.expected(expected.value))
        if cond.is_sql(expected):
            return self.sql(expected)
        if isinstance(expected, cond._COLLECTIONS):
            return ('in', tuple(self.member(v) for v in expected))
        self.params.append(expected)
        return _PARAM

    def member(self, value):
        if value is None:
            return None
        if cond.is_sql(value):
            return self.sql(value)
        self.params.append(value)
        return _PARAM


def _shape_of(context, model, values, conditions, include_deleted,
              project_only, order, dialect, then=()):
    shape = _Shape()
    key = shape.key
    key += (model, include_deleted, dialect, _names(model, order or ()))
    for name, value in values.items():
        if not isinstance(name, str):
            name = cond.column_of(model, name).key
        if cond.is_sql(value):
            key.append((name, shape.sql(value)))
        else:
            key.append((name, _PARAM))
            shape.params.append(value)
    key.append(None)  # the values end, the conditions begin
    for condition in conditions:
        if type(condition) is cond.Expect:
            key.append(('expect', condition.field,
                        shape.expected(condition.expected)))
        elif type(condition) is cond.Filter:
            key.append(shape.sql(condition.criterion))
        elif condition.shape() is not None and \
                not cond.is_sql(condition.expected):
            key.append(('shaped', condition.shape()))
            shape.params.append(condition.expected)
        else:
            key.append(shape.sql(condition))
    if _restricts_project(context, project_only):
        key.append('project_id')
        shape.params.append(context.project_id)
    if then:
        key.append(('then',) + tuple(shape.sql(s) for s in then))
    return shape


def _names(model, keys):
    return tuple(k if isinstance(k, str) else cond.column_of(model, k).key
                 for k in keys)


class _Binder:
    """Rebuilds the values and conditions of a shape with numbered bind
    parameters where its literals were (in the order _Shape met them)."""

    def __init__(self, kept):
        self.kept = iter(kept)
        self.names = []

    def param(self, type_=None):
        name = 'cas_%d' % len(self.names)
        self.names.append(name)
        return sa.bindparam(name, type_=type_)

    def expected(self, shape):
        if shape is None or isinstance(shape, bool):
            return shape
        if shape == _PARAM:
            return self.param()
        kind = shape[0]
        if kind == 'not':
            return cond.Not(self.expected(shape[2]), shape[1])
        if kind == 'sql':
            return next(self.kept)
        return tuple(self.expected(member) for member in shape[1])


def _build_for_shape(context, model, values, conditions, include_deleted,
                     project_only, order, dialect, shape, then):
    """The statement of ``shape`` and its bind parameters' names, in the
    order of ``shape.params``."""
    binder = _Binder(shape.kept)
    # The key: 4 entries, one per value, a separator, one per condition.
    entries = iter(shape.key[5 + len(values):])
    bound_values = {}
    for name, value in values.items():
        column = cond.column_of(model, name)
        bound_values[column.key] = next(binder.kept) if cond.is_sql(
            value) else binder.param(column.type)
    bound_conditions = []
    for condition in conditions:
        entry = next(entries)
        if type(condition) is cond.Expect:
            bound_conditions.append(cond.Expect(
                condition.field, binder.expected(entry[2])))
        elif entry[0] == 'shaped':
            bound_conditions.append(condition.with_expected(binder.param()))
        else:
            next(binder.kept)
            bound_conditions.append(condition)
    project_id = binder.param() if _restricts_project(
        context, project_only) else None
    statement = build_conditional_update(
        context, model, bound_values, bound_conditions, include_deleted,
        project_only, order, dialect, project_id)
    if then:
        statement = statement.add_cte(*[
            write.cte('then_%d' % i) for i, write in enumerate(then)])
    return statement, tuple(binder.names)


def cached_conditional_update(context, model, values, conditions,
                              include_deleted='no', project_only=False,
                              order=None, dialect=None, then=()):
    """(statement, parameters): build_conditional_update's statement for
    this call's shape, from the cache, and the call's literals by name.
    ``then``: statements the UPDATE carries as data-modifying CTEs (see
    db.writes), their parameters not included."""
    _soft_delete_clause(model.__table__, include_deleted)  # validates
    shape = _shape_of(context, model, values, conditions, include_deleted,
                      project_only, order, dialect, then)
    key = tuple(shape.key)
    with _statements_lock:
        cached = _statements.get(key)
        if cached is not None:
            _statements.move_to_end(key)
    if cached is None:
        statement, names = _build_for_shape(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect, shape, then)
        # The kept SQL objects stay alive with the entry, so no other
        # object can take their ids while the key is in use.
        cached = (statement, names, shape.kept)
        with _statements_lock:
            _statements[key] = cached
            while len(_statements) > MAX_CACHED_STATEMENTS:
                _statements.popitem(last=False)
    statement, names, _kept = cached
    return statement, dict(zip(names, shape.params))


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
             project_only=False, order=None, then=()):
    """Run the swap; ``then``: db.writes.Write to make with it (see there:
    a swap that carried them and missed raises SwapMissed)."""
    with session.writer.connection.using(context) as conn:
        dialect = conn.dialect.name
        carried = db_writes.carried_parts(dialect, then)
        statement, parameters = cached_conditional_update(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect,
            tuple(statement for statement, _ in carried))
        for _, params in carried:
            parameters.update(params)
        # MySQL counts matched rather than changed rows because SQLAlchemy's
        # MySQL dialects connect with CLIENT_FOUND_ROWS.
        matched = conn.execute(statement, parameters).rowcount > 0
        if carried and not matched:
            raise exceptions.SwapMissed(
                getattr(model, 'cas_name', model.__table__.name))
        if matched and then and not carried:
            db_writes.make(conn, then)
        return matched


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
    columns = sorted({f for c in python_checked for f in c.fields})
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
                      order=None, attempts=EXPLAIN_ATTEMPTS, attempt=None,
                      then=()):
    """Compare-and-swap row ``ident``, or say precisely why it cannot be done.

    Tries the update; if it fails, re-reads the row and checks every
    condition. One that fails is raised as ConditionNotMet ("volume status
    must be 'available', it is 'in-use'"). If all hold, the row changed
    between the two statements: try again, at most ``attempts`` times, then
    raise ConcurrentUpdate. A missing row raises NotFound, and so does
    another project's row when ``project_only`` applies.

    ``attempt``, if given, performs the update itself (a callable returning
    whether it matched); objects use it to read back what they wrote.

    ``then``: writes (db.writes.Write) made with the swap, in the caller's
    transaction, once it has matched. Where the swap carries them in its
    statement (PostgreSQL) a miss raises SwapMissed instead of being
    explained: roll back and run again without them to learn why.
    """
    what = getattr(model, 'cas_name', model.__table__.name)
    conditions = [cond.Expect(_id_column(model).key, ident)]
    conditions += cond.as_conditions(model, expected_values, filters)
    if attempt is not None and then:
        raise exceptions.InvalidUpdate('an attempt of its own cannot make '
                                       'the writes that go with the swap')
    if attempt is None:
        def attempt():
            return _retrying_execute(context, model, values, conditions,
                                     include_deleted, project_only, order,
                                     then)
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
                      project_only, order, then=()):
    return _execute(context, model, values, conditions, include_deleted,
                    project_only, order, then)
