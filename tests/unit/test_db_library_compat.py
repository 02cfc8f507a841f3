"""What db/library_compat.py reads inside SQLAlchemy and oslo.db is still
there, on real engines of each dialect volapi supports."""
import sqlalchemy
from oslo_db.sqlalchemy import enginefacade

from db import library_compat
from tests import base


class LibraryCompatTest(base.TestCase):

    def test_pre_ping_switch(self):
        engine = sqlalchemy.create_engine('sqlite://', pool_pre_ping=True)
        self.addCleanup(engine.dispose)
        self.assertTrue(engine.pool._pre_ping)
        library_compat.stop_pre_ping(engine)
        self.assertFalse(engine.pool._pre_ping)

    def test_queue_pool_keeps_the_connect_hooks(self):
        engine = sqlalchemy.create_engine(
            'sqlite:///file::memory:?uri=true',
            poolclass=sqlalchemy.pool.NullPool)
        self.addCleanup(engine.dispose)
        connected = []
        sqlalchemy.event.listen(engine, 'connect',
                                lambda *args: connected.append(1))
        engine.pool = library_compat.queue_pool_like(engine.pool,
                                                     pool_size=1)
        with engine.connect() as conn:
            self.assertEqual(1, conn.exec_driver_sql('SELECT 1').scalar())
        self.assertEqual([1], connected)
        self.assertIsInstance(engine.pool, sqlalchemy.pool.QueuePool)

    def test_isolation_value(self):
        # Only PostgreSQL's (db.session.read_committed).
        dialect = sqlalchemy.create_engine('postgresql+psycopg://').dialect
        self.assertIsNotNone(
            library_compat.isolation_value(dialect, 'READ COMMITTED'))

    def test_engine_started(self):
        manager = enginefacade.transaction_context()
        manager.configure(connection='sqlite://')
        self.assertFalse(library_compat.engine_started(manager))
        manager.writer.get_engine()
        self.assertTrue(library_compat.engine_started(manager))
        manager.writer.get_engine().dispose()


class DriverRowsTest(base.DatabaseTestCase):
    """library_compat.driver_rows gives what SQLAlchemy's rows hold, on
    the backend under test."""

    def test_driver_rows_are_the_rows_as_tuples(self):
        from db import session
        query = sqlalchemy.select(
            sqlalchemy.literal(7, sqlalchemy.Integer),
            sqlalchemy.literal(1.5, sqlalchemy.Float),
            sqlalchemy.literal('a-b', sqlalchemy.String(36)))
        with session.get_engine().connect() as conn:
            expected = [tuple(row) for row in conn.execute(query).all()]
            result = conn.execute(query)
            rows = library_compat.driver_rows(result)
        self.assertEqual([(7, 1.5, 'a-b')], expected)
        self.assertEqual(expected, [tuple(row) for row in rows])
        self.assertEqual([int, float, str], [type(v) for v in rows[0]])
        self.assertTrue(result.closed)


class DriverExecuteTest(base.DatabaseTestCase):
    """library_compat.driver_execute runs a statement as Connection.execute
    would, on the backend under test: same rows, cursor events, and a lost
    connection is oslo.db's DBConnectionError with the connection
    invalidated."""

    query = sqlalchemy.select(
        sqlalchemy.literal(7, sqlalchemy.Integer),
        sqlalchemy.bindparam('name', type_=sqlalchemy.String(36)))

    def test_rows_and_events(self):
        from db import session
        from tests import fixtures as test_fixtures
        with session.get_engine().connect() as conn:
            expected = [tuple(row) for row in
                        conn.execute(self.query, {'name': 'a-b'}).all()]
            rows = []
            sent = test_fixtures.statements_sent(
                lambda: rows.extend(library_compat.driver_execute(
                    conn, self.query, {'name': 'a-b'})))
        self.assertEqual([(7, 'a-b')], expected)
        self.assertEqual(expected, [tuple(row) for row in rows])
        self.assertEqual(1, len(sent))

    def test_binary_rows_are_the_same(self):
        # Integers, a float and a string: the binary format (psycopg) gives
        # the values the text format does, of the same types.
        from db import session
        query = sqlalchemy.select(
            sqlalchemy.literal(7, sqlalchemy.Integer),
            sqlalchemy.literal(2 ** 40, sqlalchemy.BigInteger),
            sqlalchemy.literal(0.1, sqlalchemy.Float),
            sqlalchemy.null(),
            sqlalchemy.bindparam('name', type_=sqlalchemy.String(36)))
        with session.get_engine().connect() as conn:
            text = library_compat.driver_execute(conn, query, {'name': 'a'})
            binary = library_compat.driver_execute(conn, query, {'name': 'a'},
                                                   binary=True)
        self.assertEqual([(7, 2 ** 40, 0.1, None, 'a')],
                         [tuple(row) for row in text])
        self.assertEqual([tuple(row) for row in text],
                         [tuple(row) for row in binary])
        self.assertEqual([int, int, float, type(None), str],
                         [type(v) for v in binary[0]])

    def test_lost_connection(self):
        from oslo_db import exception as oslo_db_exc
        from db import session
        with session.get_engine().connect() as conn:
            conn.connection.driver_connection.close()
            self.assertRaises(oslo_db_exc.DBConnectionError,
                              library_compat.driver_execute, conn,
                              self.query, {'name': 'a'})
            self.assertTrue(conn.invalidated)
