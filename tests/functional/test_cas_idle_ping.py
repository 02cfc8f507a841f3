"""Pooled connections are pinged only after sitting idle (db.session's
_ping_only_idle_connections): a connection used moments ago goes straight
to work, one left idle is pinged and, if its server side is gone, replaced
before the transaction starts."""
import sqlalchemy as sa
from oslo_db import exception as db_exc

from db import session
from tests import base
from tests import fixtures as volapi_fixtures

_BACKEND_ID = {'postgresql': 'SELECT pg_backend_pid()',
               'mysql': 'SELECT CONNECTION_ID()'}
_KILL = {'postgresql': 'SELECT pg_terminate_backend(%d)',
         'mysql': 'KILL %d'}


class IdlePingTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        if self.backend == 'sqlite':
            self.skipTest('a SQLite file has no server connection to lose')
        self.engine = session.get_engine()
        self.engine.dispose()  # one pooled connection from here on
        self.pings = []
        ping = self.engine.dialect.do_ping

        def counted(dbapi_con):
            self.pings.append(dbapi_con)
            return ping(dbapi_con)

        self.patch(self.engine.dialect, 'do_ping', counted)

    def server_id(self):
        """The server's id of the connection a transaction gets."""
        with session.writer.connection.using(self.context) as conn:
            return conn.exec_driver_sql(_BACKEND_ID[self.backend]).scalar()

    def kill(self, server_id):
        other = sa.create_engine(volapi_fixtures.prepared_url(),
                                 poolclass=sa.pool.NullPool)
        try:
            with other.connect() as conn:
                conn.exec_driver_sql(_KILL[self.backend] % server_id)
                conn.commit()
        finally:
            other.dispose()

    def test_a_connection_used_moments_ago_is_not_pinged(self):
        first = self.server_id()
        self.assertEqual(first, self.server_id())
        self.assertEqual([], self.pings)

    def test_an_idle_connection_is_pinged_and_replaced_if_dead(self):
        self.patch(session, 'IDLE_PING_AFTER', 0)
        first = self.server_id()
        self.assertEqual([], self.pings)  # a new connection is not pinged
        self.kill(first)
        self.assertNotEqual(first, self.server_id())
        self.assertTrue(self.pings)

    def test_a_busy_connection_killed_fails_once_then_the_pool_recovers(self):
        # What not pinging a hot connection costs: a server lost between
        # two transactions fails the next statement once.
        first = self.server_id()
        self.kill(first)
        self.assertRaises((db_exc.DBConnectionError, sa.exc.OperationalError),
                          self.server_id)
        self.assertNotEqual(first, self.server_id())
        self.assertEqual([], self.pings)
