"""db.session.lone_read: one statement with no transaction around it on
psycopg; inside a transaction, that transaction's connection."""
import sqlalchemy as sa

from db import session
from tests import base


class LoneReadTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        if self.backend != 'postgresql':
            self.skipTest('only psycopg reads without a transaction')
        from psycopg import pq
        self.idle = pq.TransactionStatus.IDLE
        self.in_transaction = pq.TransactionStatus.INTRANS

    def _status(self, conn):
        return conn.connection.dbapi_connection.info.transaction_status

    def test_no_transaction_then_transactions_as_before(self):
        with session.lone_read(self.context) as conn:
            self.assertEqual(1, conn.execute(sa.text('SELECT 1')).scalar())
            # Autocommit: the statement ended its own transaction.
            self.assertEqual(self.idle, self._status(conn))
            dbapi_connection = conn.connection.dbapi_connection
        self.assertFalse(dbapi_connection.autocommit)
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual('repeatable read', conn.execute(
                sa.text('SHOW transaction_isolation')).scalar())
            self.assertEqual(self.in_transaction, self._status(conn))

    def test_inside_a_transaction_joins_it(self):
        with session.reader.connection.using(self.context) as outer:
            outer.execute(sa.text('SELECT 1'))
            with session.lone_read(self.context) as conn:
                self.assertIs(outer.connection.dbapi_connection,
                              conn.connection.dbapi_connection)
                self.assertEqual(self.in_transaction, self._status(conn))

    def test_an_error_leaves_the_connection_usable(self):
        from oslo_db import exception as db_exc
        with session.lone_read(self.context) as conn:
            self.assertRaises(db_exc.DBError, conn.execute,
                              sa.text('SELECT 1/0'))
        with session.lone_read(self.context) as conn:
            self.assertEqual(2, conn.execute(sa.text('SELECT 2')).scalar())
