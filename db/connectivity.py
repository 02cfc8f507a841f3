"""Is the database reachable? Which errors mean "it is not", and whether the
transaction that met one may simply run again.

oslo.db wraps the errors of a lost connection in ``DBConnectionError`` only
when SQLAlchemy's dialect calls them a disconnect or its own patterns match
the message; psycopg 3's "connection refused" and PostgreSQL's
``AdminShutdown`` (a server restart ending the session) pass through as plain
``OperationalError``s. :func:`is_connection_error` recognises all of them, so
that the APIs answer 503 rather than 500 and :mod:`db.api` can retry.

A transaction that lost its connection before COMMIT was rolled back by the
server: running it again cannot apply it twice. One that lost it during
COMMIT may have been applied; it is not retried (the caller gets the 503 and
reads the outcome). :func:`track_commits` counts, per thread, the COMMITs
sent, so a caller can tell.
"""
import threading

import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc

# PostgreSQL SQLSTATE classes of a lost or refused connection: 08
# (connection exception) and 57P01-57P03 (admin/crash shutdown, cannot
# connect now: the server is starting or stopping).
_PG_STATES = ('08', '57P01', '57P02', '57P03')
# MySQL/MariaDB client and server errors of a lost or refused connection:
# can't connect (2002, 2003), server gone away (2006), lost during query
# (2013), unknown command (1047, Galera non-primary), shutdown in progress
# (1053), connection killed (1927).
_MYSQL_ERRNOS = frozenset((1047, 1053, 1927, 2002, 2003, 2006, 2013))


def _causes(exc):
    """``exc`` and what it wraps: oslo.db's inner_exception, SQLAlchemy's
    orig, and the exceptions raised ``from`` another."""
    seen = set()
    pending = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend((getattr(current, 'inner_exception', None),
                        getattr(current, 'orig', None),
                        current.__cause__))


def _driver_says_disconnected(error):
    module = type(error).__module__ or ''
    if module.startswith('psycopg'):
        state = getattr(error, 'sqlstate', None) or \
            getattr(error, 'pgcode', None)
        if state is None:
            # psycopg raises OperationalError without a SQLSTATE only when
            # the client could not reach the server or lost it.
            return any(c.__name__ == 'OperationalError'
                       for c in type(error).__mro__)
        return state.startswith(_PG_STATES)
    if module.startswith(('pymysql', 'MySQLdb')):
        args = getattr(error, 'args', ()) or (None,)
        return args[0] in _MYSQL_ERRNOS
    return False


def is_connection_error(exc):
    """True if ``exc`` says the database could not be reached or the
    connection was lost (not that a statement was wrong)."""
    for error in _causes(exc):
        if isinstance(error, (oslo_db_exc.DBConnectionError,
                              sa.exc.DisconnectionError)):
            return True
        if isinstance(error, sa.exc.DBAPIError) and \
                error.connection_invalidated:
            return True
        if _driver_says_disconnected(error):
            return True
    return False


_commits = threading.local()


def commits():
    """How many COMMITs this thread has sent (a counter to compare)."""
    return getattr(_commits, 'count', 0)


def track_commits(engine):
    """Count every COMMIT ``engine`` sends, for commits()."""
    @sa.event.listens_for(engine, 'commit')
    def _sending_commit(conn):
        _commits.count = commits() + 1


class OutcomeUnknown(oslo_db_exc.DBConnectionError):
    """The connection was lost after a COMMIT was sent: the transaction may
    have been applied, so it must not simply run again."""


def retry_is_safe(exc):
    """A transaction that failed with ``exc`` may run again: the database
    was unreachable, and no COMMIT was sent (see db.api.retrying)."""
    return not isinstance(exc, OutcomeUnknown) and is_connection_error(exc)
