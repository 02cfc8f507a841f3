"""Real deadlocks, retried around the whole transaction by
db.api.retry_on_deadlock, and never inside a half-used one."""
import threading

import sqlalchemy as sa
from oslo_db import exception as db_exc

from db import api as db_api
from db import models
from db import session
from tests.unit import test_cas_base

Volume = models.Volume
WAIT = 30  # seconds; PostgreSQL needs deadlock_timeout (1 s) to notice

# MariaDB's ER_UNKNOWN_SYSTEM_VARIABLE: a server older than the variable.
UNKNOWN_SYSTEM_VARIABLE = 1193


class DeadlockTest(test_cas_base.CasTestCase):

    def setUp(self):
        super().setUp()
        if self.backend == 'sqlite':
            self.skipTest('SQLite serializes writers (BEGIN IMMEDIATE): '
                          'two transactions cannot deadlock')
        self.rows = (self.create_volume(size=10), self.create_volume(size=20))

    def test_deadlock_retries_the_whole_transaction(self):
        barrier = threading.Barrier(2, timeout=WAIT)
        attempts = {'forward': 0, 'backward': 0}
        grow_calls = {'forward': 0, 'backward': 0}
        seen = []  # errors that went through the inner, nested call
        errors = []

        def run(name, order):
            @db_api.retry_on_deadlock
            def grow(context, ident):
                # Also decorated, but called inside the open transaction:
                # it must not retry itself in the half-used session.
                grow_calls[name] += 1
                try:
                    return db_api.conditional_update(
                        context, Volume, {'size': Volume.size + 1},
                        {'id': ident})
                except Exception as e:
                    seen.append(e)
                    raise

            @db_api.retry_on_deadlock
            def transaction(context):
                attempts[name] += 1
                with session.writer.connection.using(context):
                    self.assertTrue(grow(context, order[0]))
                    if attempts[name] == 1:
                        # Both hold their first row: the second UPDATEs
                        # close the cycle.
                        barrier.wait()
                    self.assertTrue(grow(context, order[1]))

            try:
                transaction(self.make_context())
            except Exception as e:
                errors.append(e)

        threads = [
            threading.Thread(target=run, args=('forward', self.rows)),
            threading.Thread(target=run,
                             args=('backward', self.rows[::-1]))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        self.assertEqual([], errors)
        # Both finished: each row grew once per transaction.
        self.assertEqual([12, 22], [self.volume(r)['size'] for r in self.rows])
        # The deadlock happened and was retried.
        self.assertTrue(any(isinstance(e, db_exc.DBDeadlock) for e in seen),
                        seen)
        self.assertGreater(sum(attempts.values()), 2)
        # The nested call ran once per attempt of its transaction: it was
        # not retried inside, the error went up to the outer function.
        for name in attempts:
            self.assertEqual(2 * attempts[name], grow_calls[name],
                             (attempts, grow_calls))

    def test_mariadb_snapshot_isolation_conflict_is_retried(self):
        # MariaDB 11.6+ defaults innodb_snapshot_isolation=ON: writing a row
        # changed after the transaction's snapshot fails with error 1020
        # ("Record has changed since last read"). Retried like a deadlock.
        if self.backend != 'mysql':
            self.skipTest('innodb_snapshot_isolation is MariaDB')
        engine = self.fresh_engine_with(
            'SET SESSION innodb_snapshot_isolation = ON')
        if engine is None:
            self.skipTest('this server has no innodb_snapshot_isolation')
        ident = self.rows[0]
        attempts = []

        @db_api.retry_on_deadlock
        def transaction(context):
            attempts.append(1)
            with session.writer.connection.using(context) as conn:
                conn.execute(sa.select(Volume.size).where(Volume.id == ident))
                if len(attempts) == 1:
                    # Someone else changes the row after our snapshot.
                    self.change_row(test_cas_base.VOLUMES, ident, size=99)
                return db_api.conditional_update(
                    context, Volume, {'size': Volume.size + 1},
                    {'id': ident})

        self.assertTrue(transaction(self.make_context()))
        self.assertEqual(2, len(attempts))
        self.assertEqual(100, self.volume(ident)['size'])

    def fresh_engine_with(self, statement):
        """Reconfigure the session so every new connection runs
        ``statement`` first; None if the server refuses it."""
        session.configure(self.database.url)
        self.addCleanup(session.configure, self.database.url)
        engine = session.get_engine()
        with engine.connect() as conn:
            try:
                conn.exec_driver_sql(statement)
            except sa.exc.OperationalError as e:
                if getattr(e.orig, 'args', (None,))[0] != \
                        UNKNOWN_SYSTEM_VARIABLE:
                    raise
                return None
        engine.dispose()

        @sa.event.listens_for(engine, 'connect')
        def run(dbapi_connection, record):
            with dbapi_connection.cursor() as cursor:
                cursor.execute(statement)
        return engine


class NestedRetryTest(test_cas_base.CasTestCase):
    """The rule itself, on every backend, with the deadlock raised by the
    nested function (the real thing is above)."""

    def setUp(self):
        super().setUp()
        self.rows = (self.create_volume(size=10), self.create_volume(size=20))

    def test_error_inside_a_transaction_is_not_retried(self):
        # One thread, no race: the outermost function retries, the nested
        # one only passes the error on. A deadlock raised from the nested
        # call after the first UPDATE must not re-run the nested call alone.
        calls = {'outer': 0, 'inner': 0}

        @db_api.retrying(max_retries=3)
        def inner(context):
            calls['inner'] += 1
            db_api.conditional_update(context, Volume, {'size': 1},
                                      {'id': self.rows[0]})
            if calls['outer'] == 1:
                raise db_exc.DBDeadlock()

        @db_api.retrying(max_retries=3)
        def outer(context):
            calls['outer'] += 1
            with session.writer.connection.using(context):
                inner(context)
                db_api.conditional_update(context, Volume,
                                          {'size': Volume.size + 5},
                                          {'id': self.rows[1]})

        outer(self.make_context())
        self.assertEqual({'outer': 2, 'inner': 2}, calls)
        # The first attempt was rolled back whole: +5 once, not twice.
        self.assertEqual(25, self.volume(self.rows[1])['size'])
