"""Isolation levels (db.session): PostgreSQL transactions run REPEATABLE
READ; a writer may run one transaction at READ COMMITTED with
read_committed() before its first statement, and the connection goes back
to REPEATABLE READ when it returns to the pool."""
from db import session
from tests import base

SHOW = 'SHOW TRANSACTION ISOLATION LEVEL'


class ReadCommittedTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        session.get_engine().dispose()  # one pooled connection from here on

    def level(self):
        with session.writer.connection.using(self.context) as conn:
            return conn.exec_driver_sql(SHOW).scalar()

    def test_one_transaction_then_back_to_repeatable_read(self):
        if self.backend != 'postgresql':
            self.skipTest('isolation is switched on PostgreSQL only')
        self.assertEqual('repeatable read', self.level())
        with session.writer.connection.using(self.context) as conn:
            self.assertTrue(session.read_committed(conn))
            self.assertEqual('read committed',
                             conn.exec_driver_sql(SHOW).scalar())
        self.assertEqual('repeatable read', self.level())

    def test_refused_once_the_transaction_has_begun(self):
        if self.backend != 'postgresql':
            self.skipTest('isolation is switched on PostgreSQL only')
        with session.writer.connection.using(self.context) as conn:
            conn.exec_driver_sql('SELECT 1')
            self.assertFalse(session.read_committed(conn))
            self.assertEqual('repeatable read',
                             conn.exec_driver_sql(SHOW).scalar())

    def test_other_backends_keep_their_isolation(self):
        if self.backend == 'postgresql':
            self.skipTest('PostgreSQL switches')
        with session.writer.connection.using(self.context) as conn:
            self.assertFalse(session.read_committed(conn))
