"""Every private attribute of SQLAlchemy and oslo.db that volapi uses, in
one place; tests/unit/test_db_library_compat.py fails when one changes.

- A pool's ``_pre_ping``: oslo.db always creates engines with
  pool_pre_ping, and SQLAlchemy has no public switch once the engine
  exists (db.session pings only idle connections instead).
- A pool's ``_creator``, ``_dialect`` and the ``_dispatch`` argument of a
  new pool: to replace oslo.db's NullPool of a SQLite file by a QueuePool
  that keeps the connect hooks (SQLAlchemy's own Pool.recreate() does the
  same internally, but keeps the pool class).
- A dialect's ``_isolation_lookup`` (PostgreSQL's): the driver's value for
  an isolation level, to set on a DBAPI connection before its transaction
  begins.
- enginefacade's ``_factory._started``: whether a transaction context has
  made its engine (dispose() must not make one just to dispose of it).
- A CursorResult's ``cursor``: the driver's rows as the driver made them
  (tuples), for reads of thousands of rows where making a Row of each
  costs as much as the driver's own fetch. The statement still runs
  through Connection.execute (its events and error handling).
- A Connection's ``_has_events``, ``dispatch`` and
  ``_handle_dbapi_exception``: to run a statement on the DBAPI cursor
  (driver_execute) with SQLAlchemy's cursor events and its handling of a
  driver's error (oslo.db's translation, invalidation of a lost
  connection), without its statement cache look-up and result setup.
"""
import sqlalchemy


def stop_pre_ping(engine):
    engine.pool._pre_ping = False


def queue_pool_like(pool, **kwargs):
    """A QueuePool making connections as ``pool`` does, with its hooks."""
    return sqlalchemy.pool.QueuePool(pool._creator, _dispatch=pool.dispatch,
                                     dialect=pool._dialect, **kwargs)


def isolation_value(dialect, level):
    """The driver's value for isolation ``level`` ('READ COMMITTED')."""
    return dialect._isolation_lookup[level]


def engine_started(context_manager):
    """Whether an enginefacade transaction context has made its engine."""
    return context_manager._factory._started


def driver_rows(result):
    """Every row of ``result`` (a CursorResult of a SELECT whose columns
    need no result processing: integers, floats, strings) as the driver's
    tuples; the result is closed."""
    try:
        return result.cursor.fetchall()
    finally:
        result.close()


_COMPILED = {}


def _compiled(conn, statement, params):
    """(SQL text, parameters in the driver's form) of ``statement``."""
    key = (conn.dialect.name, statement)
    compiled = _COMPILED.get(key)
    if compiled is None:
        compiled = statement.compile(dialect=conn.dialect)
        compiled = _COMPILED[key] = (
            str(compiled), dict(compiled.params),
            tuple(compiled.positiontup) if compiled.positional else None)
    sql, defaults, positions = compiled
    params = dict(defaults, **params)
    if positions is not None:
        params = tuple(params[name] for name in positions)
    return sql, params


def _cursor(conn, binary):
    dbapi_connection = conn.connection
    if binary and conn.dialect.driver == 'psycopg':
        return dbapi_connection.cursor(binary=True)
    return dbapi_connection.cursor()


def _before(conn, cursor, sql, params):
    if conn._has_events or conn.engine._has_events:
        for listener in conn.dispatch.before_cursor_execute:
            sql, params = listener(conn, cursor, sql, params, None, False)
    return sql, params


def _after(conn, cursor, sql, params):
    if conn._has_events or conn.engine._has_events:
        conn.dispatch.after_cursor_execute(conn, cursor, sql, params, None,
                                           False)


def driver_execute(conn, statement, params, binary=False):
    """Every row of ``statement`` (a SELECT whose binds and columns need no
    processing on this dialect) with ``params`` (by name), as the driver's
    tuples, run on ``conn``'s DBAPI cursor. On psycopg this spares reading
    the cursor's description, which builds an object per column.
    ``binary``: on psycopg, the rows in PostgreSQL's binary format, which
    the driver reads faster than text (an integer or a float is copied
    instead of parsed); the values are the same. Other drivers have one
    format."""
    sql, params = _compiled(conn, statement, params)
    cursor = None
    try:
        cursor = _cursor(conn, binary)
        sql, params = _before(conn, cursor, sql, params)
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        _after(conn, cursor, sql, params)
        return rows
    except Exception as error:
        conn._handle_dbapi_exception(error, sql, params, cursor, None)
    finally:
        if cursor is not None:
            cursor.close()
