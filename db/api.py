"""The compare-and-swap primitive and the transaction helpers around it.

Every state change in volapi goes through :func:`conditional_update`: one
``UPDATE ... SET ... WHERE <expected state>`` whose row count says whether the
caller's view of the row was still true. There is no SELECT before it and no
lock around it, so any number of processes can race on a row and exactly the
ones whose expectations hold will win. Its statement is built (and
cached) by db.statements.
"""
import functools

import sqlalchemy as sa
from oslo_db import api as oslo_db_api
from oslo_db import exception as oslo_db_exc

from db import conditions as cond
from db import connectivity
from db import exceptions
from db import session
from db import statements
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


def is_contention(exc):
    """A deadlock or serialization failure: what :func:`retrying` retries,
    and what still escapes when every retry lost (a database restarting,
    a row under heavy contention)."""
    return isinstance(exc, oslo_db_exc.DBDeadlock) or \
        _is_serialization_failure(exc)


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
             project_only=False, order=None, then=(), first=()):
    """Run the swap; ``then``: db.writes.Write to make with it (see there:
    a swap that carried them and missed raises SwapMissed); ``first``:
    writes made whether it matches or not (see update_or_explain)."""
    with session.writer.connection.using(context) as conn:
        dialect = conn.dialect.name
        carried = db_writes.carried_parts(dialect, then or first)
        if first and not carried:
            db_writes.make(conn, first)
        statement, parameters = statements.cached_conditional_update(
            context, model, values, conditions, include_deleted,
            project_only, order, dialect,
            tuple((key, statement) for key, statement, _ in carried))
        for _, _, params in carried:
            parameters.update(params)
        # MySQL counts matched rather than changed rows because SQLAlchemy's
        # MySQL dialects connect with CLIENT_FOUND_ROWS.
        matched = conn.execute(statement, parameters).rowcount > 0
        if carried and not matched and then:
            raise exceptions.SwapMissed(
                getattr(model, 'cas_name', model.__table__.name))
        if matched and then and not carried:
            db_writes.make(conn, then)
        return matched


def as_swaps_see(conn, query):
    """``query``, made to read rows as the compare-and-swaps of ``conn``'s
    transaction see them. On MySQL/MariaDB a plain read inside a
    transaction shows its snapshot, taken at its first read, while an
    UPDATE reads the latest rows: a locking read (LOCK IN SHARE MODE) sees
    what the UPDATE saw. PostgreSQL (REPEATABLE READ: a swap whose row
    changed after the snapshot fails and the transaction runs again) and
    SQLite (one writer at a time) read as they are."""
    if conn.dialect.name == 'mysql':
        return query.with_for_update(read=True)
    return query


def read_columns(context, model, ident, columns):
    """The named columns of one row, as a dict, or None if it is gone."""
    table = model.__table__
    with session.reader.connection.using(context) as conn:
        row = conn.execute(
            sa.select(*[table.c[c] for c in columns])
            .where(_id_column(model) == ident)).mappings().first()
        return dict(row) if row is not None else None


def _id_column(model):
    return statements.id_column_of(model.__table__)


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
    for scope in (statements.soft_delete_clause(table, include_deleted),
                  statements.project_clause(context, table, project_only)):
        if scope is not None:
            query = query.where(scope)
    # The values of the bind parameters the conditions' Sql name.
    params = {}
    for condition in sql_checked:
        params.update(condition.named_params())
    with session.reader.connection.using(context) as conn:
        if conn.dialect.name == 'mysql':
            # Inside a transaction a plain SELECT reads InnoDB's snapshot,
            # but the UPDATE that failed read the latest committed row; a
            # locking read sees what the UPDATE saw.
            query = query.with_for_update(read=True)
        row = conn.execute(query, params).mappings().first()
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
                      then=(), first=()):
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

    ``first``: writes of rows that the swap's conditions do not read (the
    inserts of a new volume, to its project's usage swap), made in the
    caller's transaction once, whether or not the swap matches: carried
    in the statement of its first attempt where it can be (PostgreSQL,
    as ``then``'s are: one round trip less each), else just before it.
    Either way the swap reads as if they were not there, so a miss is
    explained as any other.
    """
    what = getattr(model, 'cas_name', model.__table__.name)
    conditions = [cond.Expect(_id_column(model).key, ident)]
    conditions += cond.as_conditions(model, expected_values, filters)
    if (attempt is not None and (then or first)) or (then and first):
        raise exceptions.InvalidUpdate('an attempt of its own cannot make '
                                       'the writes that go with the swap, '
                                       'nor can a swap make them both first '
                                       'and after')
    if attempt is None:
        unmade = [first]

        def attempt():
            # ``first`` goes with the first attempt alone.
            return _retrying_execute(context, model, values, conditions,
                                     include_deleted, project_only, order,
                                     then, unmade.pop() if unmade else ())
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
                      project_only, order, then=(), first=()):
    return _execute(context, model, values, conditions, include_deleted,
                    project_only, order, then, first)
