"""Keep psycopg's prepared statements across read-only transactions.

psycopg (3) prepares a statement on the server once a connection has run
it ``prepare_threshold`` times (5), after which the server no longer
parses and plans it at each run: for volapi's statements, planning costs
the server three times what running them does. But psycopg forgets every
statement it prepared, and counted, whenever a transaction ends with
ROLLBACK (a rolled-back transaction might have changed what they refer
to), and enginefacade ends every reader transaction with a rollback: with
a read in most requests, nothing was ever prepared.

For a transaction that wrote nothing, COMMIT and ROLLBACK are the same to
the server. So a transaction whose statements were all reads is committed
just before SQLAlchemy rolls it back, which then has nothing left to do:
psycopg keeps its statements. A transaction that may have written (any
INSERT, UPDATE, DELETE or DDL, also inside a CTE; any statement not known
to be a read), or that failed, is rolled back as before.
"""
import re

import sqlalchemy

# In a pooled connection's info: the current transaction ran a statement
# that may have written.
_MAY_HAVE_WRITTEN = 'volapi_may_have_written'

# Writes inside a statement that starts with a CTE. A "FOR UPDATE" lock
# matches too: such a transaction is only rolled back, as before.
_WRITE_KEYWORD = re.compile(r'\b(?:INSERT|UPDATE|DELETE|MERGE)\b', re.I)


def keep_across_reads(engine):
    """Install the listeners on ``engine`` (psycopg 3 only: psycopg2 and
    the other drivers prepare nothing by themselves)."""
    if engine.dialect.driver != 'psycopg':
        return
    from psycopg import pq
    in_transaction = pq.TransactionStatus.INTRANS

    @sqlalchemy.event.listens_for(engine, 'begin')
    def _nothing_written_yet(conn):
        conn.info[_MAY_HAVE_WRITTEN] = False

    @sqlalchemy.event.listens_for(engine, 'before_cursor_execute')
    def _note_writes(conn, cursor, statement, parameters, context,
                     executemany):
        if not conn.info.get(_MAY_HAVE_WRITTEN) and \
                may_write(statement, context):
            conn.info[_MAY_HAVE_WRITTEN] = True

    @sqlalchemy.event.listens_for(engine, 'rollback')
    def _commit_what_only_read(conn):
        if conn.invalidated or conn.info.get(_MAY_HAVE_WRITTEN, True):
            return
        dbapi_connection = conn.connection.dbapi_connection
        # Not after an error: the server refuses a failed transaction's
        # COMMIT (it rolls back instead), and psycopg rightly forgets.
        if dbapi_connection is None or \
                dbapi_connection.info.transaction_status != in_transaction:
            return
        try:
            dbapi_connection.commit()
        except Exception:
            # The connection is lost: the rollback that follows fails as
            # it would have, and SQLAlchemy invalidates the connection.
            pass


def may_write(statement, context):
    """Whether ``statement`` (SQL text; ``context`` SQLAlchemy's execution
    context, or None for a statement run on the driver's cursor) may
    write: anything but a SELECT, or a CTE that names a write."""
    if context is not None and (context.isinsert or context.isupdate or
                                context.isdelete or context.isddl):
        return True
    head = statement.lstrip()[:6].upper()
    if head == 'SELECT':
        return False
    if head.startswith('WITH'):
        return _WRITE_KEYWORD.search(statement) is not None
    return True
