"""The database engine: one enginefacade transaction context for the process.

``configure()`` points it at a connection URL; ``reader``/``writer`` are what
callers use (``with writer.using(context) as session``). PostgreSQL runs
REPEATABLE READ (see _tune_postgresql), except the transactions a writer
runs at READ COMMITTED with ``read_committed()``. SQLite gets WAL,
a busy timeout and ``BEGIN IMMEDIATE`` so concurrent writers queue for the
write lock instead of failing with "database is locked" half-way through a
transaction.
"""
import contextlib
import threading
import time

import sqlalchemy
from oslo_db.sqlalchemy import enginefacade

from db import connectivity
from db import library_compat
from db import prepared_statements

_lock = threading.Lock()
_context_manager = None

# A pooled connection unused for longer than this is pinged when checked
# out (see _ping_only_idle_connections).
IDLE_PING_AFTER = 5.0  # seconds


class _Proxy:
    """Stands in for ``_context_manager.writer`` etc., so a reconfiguration
    (tests switch databases) reaches callers holding module-level names.

    What it hands out is remembered per context manager: enginefacade
    builds a new transaction context manager at each ``writer.connection``
    (some 3% of an os-reserve's CPU), and they never change."""

    def __init__(self, attr):
        self._attr = attr
        self._remembered = (None, {})  # (context manager, {name: value})

    def __getattr__(self, name):
        manager = get_context_manager()
        owner, values = self._remembered
        if owner is not manager:
            values = {}
            self._remembered = (manager, values)
        value = values.get(name)
        if value is None:
            value = values[name] = getattr(getattr(manager, self._attr), name)
        return value

    def __call__(self, *args, **kwargs):
        return getattr(get_context_manager(), self._attr)(*args, **kwargs)


reader = _Proxy('reader')
writer = _Proxy('writer')


def _tune_engine(engine):
    if engine.dialect.name == 'postgresql':
        _tune_postgresql(engine)
    elif engine.dialect.name == 'sqlite':
        _tune_sqlite(engine)
    _ping_only_idle_connections(engine)
    connectivity.track_commits(engine)
    # oslo.db connects once, to test the URL, before this runs: without
    # this, that pooled connection would never get the settings above (and
    # a single-threaded process would run READ COMMITTED for ever).
    engine.dispose()


def _ping_only_idle_connections(engine):
    """oslo.db hard-wires SQLAlchemy's pool_pre_ping: one more round trip
    at every checkout, i.e. in every transaction, about a tenth of what an
    os-reserve costs. A connection checked in moments ago is alive unless
    the server went away since; the dead connections a pool keeps are the
    ones left idle across a database restart or an idle timeout. So only a
    connection idle for IDLE_PING_AFTER seconds is pinged (the pattern of
    SQLAlchemy's "pessimistic disconnect handling": a failed ping makes
    the pool connect afresh). A server lost under load is noticed by the
    first statement instead, and SQLAlchemy then recycles every older
    connection of the pool."""
    library_compat.stop_pre_ping(engine)
    dialect = engine.dialect

    @sqlalchemy.event.listens_for(engine, 'checkin')
    def _idle_from_now(dbapi_con, record):
        record.info['idle_since'] = time.monotonic()

    @sqlalchemy.event.listens_for(engine, 'checkout')
    def _ping_if_idle(dbapi_con, record, proxy):
        idle_since = record.info.get('idle_since')
        if idle_since is None or \
                time.monotonic() - idle_since < IDLE_PING_AFTER:
            return  # new, or used moments ago
        try:
            dialect.do_ping(dbapi_con)
        except dialect.loaded_dbapi.Error as e:
            if dialect.is_disconnect(e, dbapi_con, None):
                raise sqlalchemy.exc.DisconnectionError(str(e)) from e
            raise


# Marks, in a pooled connection's info, a transaction run at READ
# COMMITTED by read_committed(); the connection is set back at check-in.
_READ_COMMITTED = 'volapi_read_committed'


def _tune_postgresql(engine):
    # READ COMMITTED re-checks a blocked UPDATE's WHERE against the new row
    # but runs its subqueries in the old snapshot, so "no snapshots exist"
    # could pass against a snapshot committed meanwhile. Under REPEATABLE
    # READ the blocked UPDATE fails with a serialization error instead, and
    # db.api.retry_on_deadlock runs the whole transaction again, afresh.
    @sqlalchemy.event.listens_for(engine, 'connect')
    def _repeatable_read(dbapi_con, record):
        engine.dialect.set_isolation_level(dbapi_con, 'REPEATABLE READ')

    @sqlalchemy.event.listens_for(engine, 'checkin')
    def _back_to_repeatable_read(dbapi_con, record):
        if record.info.pop(_READ_COMMITTED, False) and dbapi_con is not None:
            engine.dialect.set_isolation_level(dbapi_con, 'REPEATABLE READ')

    prepared_statements.keep_across_reads(engine)


def read_committed(conn):
    """Run the transaction ``conn`` (a writer connection) is in at READ
    COMMITTED, on PostgreSQL, if it has sent no statement yet. Returns
    whether the transaction runs at READ COMMITTED (set now, or by an
    earlier call in it); elsewhere, or once a statement has run, the
    transaction keeps its isolation.

    For a writer that takes the row locks its compare-and-swaps depend on
    before those run: each statement then reads what was committed before
    it started, so a writer that waited for a lock sees everything its
    predecessor wrote instead of failing with a serialization error and
    starting again (see objects.placement.allocation). The connection goes
    back to REPEATABLE READ when it returns to the pool.
    """
    if conn.dialect.name != 'postgresql':
        return False
    pooled = conn.connection
    if pooled.info.get(_READ_COMMITTED):
        # Set for this transaction already: it has kept it since.
        return True
    try:
        # The attribute, in both drivers, is sent with the BEGIN of the
        # next statement and refused inside a transaction (psycopg2's
        # set_isolation_level() would roll that transaction back).
        pooled.dbapi_connection.isolation_level = \
            library_compat.isolation_value(conn.dialect, 'READ COMMITTED')
    except conn.dialect.loaded_dbapi.Error:
        return False
    pooled.info[_READ_COMMITTED] = True
    return True


def _tune_sqlite(engine):
    if engine.url.database not in (None, '', ':memory:') and isinstance(
            engine.pool, sqlalchemy.pool.NullPool):
        # oslo.db gives a file database a NullPool: a new connection for
        # every transaction, and closing the last one checkpoints the WAL
        # (an fsync). Kept connections make a one-statement transaction
        # 4-5 times faster. The new pool keeps oslo.db's connect hooks.
        old = engine.pool
        engine.pool = library_compat.queue_pool_like(
            old, pool_size=5, max_overflow=-1)
        old.dispose()

    @sqlalchemy.event.listens_for(engine, 'connect')
    def _pragmas(dbapi_con, record):
        dbapi_con.execute('PRAGMA busy_timeout = 30000')
        if engine.url.database not in (None, '', ':memory:'):
            dbapi_con.execute('PRAGMA journal_mode = WAL')

    # oslo.db's "begin" hook emits a plain (deferred) BEGIN, and a listener
    # cannot reliably run before it (SQLAlchemy 2.1 appends even with
    # insert=True): make that statement take the write lock at once.
    @sqlalchemy.event.listens_for(engine, 'before_cursor_execute',
                                  retval=True)
    def _begin_immediate(conn, cursor, statement, parameters, context,
                         executemany):
        if statement == 'BEGIN':
            statement = 'BEGIN IMMEDIATE'
        return statement, parameters


def configure(connection, **options):
    """(Re)build the transaction context for ``connection``."""
    global _context_manager
    # oslo.db's thread_checkin sleeps (yields) at every connection check-in
    # for eventlet's sake; volapi runs plain threads, where it only costs a
    # system call per transaction.
    options.setdefault('thread_checkin', False)
    manager = enginefacade.transaction_context()
    manager.configure(connection=connection, sqlite_fk=True, **options)
    manager.append_on_engine_create(_tune_engine)
    with _lock:
        old, _context_manager = _context_manager, manager
    if old is not None:
        dispose(old)
    return manager


def configure_from_conf(conf):
    options = {k: v for k, v in conf.database.items()
               if k not in ('connection', 'backend', 'use_db_reconnect',
                            'db_retry_interval', 'db_inc_retry_interval',
                            'db_max_retry_interval', 'db_max_retries',
                            'mysql_enable_ndb', 'use_tpool')
               and v is not None}
    return configure(conf.database.connection, **options)


def get_context_manager():
    if _context_manager is None:
        raise RuntimeError('db.session.configure() has not been called')
    return _context_manager


def get_engine():
    return get_context_manager().writer.get_engine()


def dispose(manager=None):
    manager = manager or _context_manager
    if manager is not None and library_compat.engine_started(manager):
        manager.writer.get_engine().dispose()


def in_transaction(context):
    """True while ``context`` holds an open enginefacade transaction."""
    by_thread = getattr(context, '_enginefacade_context', None)
    return by_thread is not None and getattr(by_thread, 'current', None) is not None


@contextlib.contextmanager
def lone_read(context):
    """A connection for a read of one statement. Inside a transaction of
    ``context``, that transaction's. Else, on psycopg, a pooled connection
    in autocommit, whose statement is its own transaction with its own
    snapshot: the driver sends neither BEGIN nor COMMIT, two of the three
    round trips of a lone read in a transaction. Elsewhere (autocommit is
    a round trip of its own there) a reader transaction."""
    engine = get_engine()
    if in_transaction(context) or engine.dialect.driver != 'psycopg':
        with reader.connection.using(context) as conn:
            yield conn
        return
    with engine.connect() as conn:
        dbapi_connection = conn.connection.dbapi_connection
        # Taken from the pool between transactions: the driver allows the
        # switch, and SQLAlchemy's transaction here sends nothing.
        dbapi_connection.autocommit = True
        try:
            yield conn
        finally:
            if not conn.invalidated:
                dbapi_connection.autocommit = False
