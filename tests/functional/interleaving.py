"""Forcing the order of two transactions: one holds a row, the other's
UPDATE of that row starts and waits for it, then the first goes on."""
import threading
import time

from db import api as db_api
from db import session

WAIT = 15  # seconds; generous, the tests normally take a fraction of one


class Interleaving:
    """Mixin for a DatabaseTestCase. ``contended_table``: the table whose
    row the contender's UPDATE waits for."""

    contended_table = 'volumes'

    def _update_waiting(self):
        """True once another connection's UPDATE of the contended table
        is executing in this database (so, while we hold the row, waiting
        for it)."""
        like = 'UPDATE %s %%' % self.contended_table
        with self.database.engine.connect() as conn:
            if self.backend == 'postgresql':
                return conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND state = 'active' "
                    "AND wait_event_type = 'Lock' "
                    "AND query LIKE %(like)s", {'like': like}).scalar() > 0
            # MariaDB: waiting for the row lock shows in the process list
            # (during optimisation, as "Statistics", for a primary-key
            # lookup), not always in innodb_trx.
            return conn.exec_driver_sql(
                "SELECT count(*) FROM information_schema.processlist "
                "WHERE db = database() AND id <> connection_id() "
                "AND command = 'Query' "
                "AND info LIKE %(like)s", {'like': like}).scalar() > 0

    def wait_for_contender(self, contender_done):
        """Return once the contender's UPDATE waits on us (or it finished
        without needing the row)."""
        if self.backend == 'sqlite':
            # BEGIN IMMEDIATE: the contender queues for the write lock before
            # its UPDATE; nothing in SQLite shows it, so give it time.
            time.sleep(0.3)
            return
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if contender_done.is_set() or self._update_waiting():
                return
            time.sleep(0.01)
        self.fail('the contending UPDATE never reached the database')

    def interleave(self, holder, contender):
        """Run ``holder(hold)`` and ``contender()`` in two threads; the
        contender starts when the holder calls ``hold()``, which returns once
        the contender waits for the holder (or is done)."""
        held, contender_done = threading.Event(), threading.Event()
        results, errors = {}, []

        def hold():
            held.set()
            self.wait_for_contender(contender_done)

        def run(name, fn, *args):
            try:
                results[name] = fn(*args)
            except BaseException as e:  # reported by the main thread
                errors.append(e)
                held.set()
            finally:
                if name == 'contender':
                    contender_done.set()

        def contend():
            held.wait(WAIT)
            run('contender', contender)

        threads = [threading.Thread(target=run, args=('holder', holder, hold)),
                   threading.Thread(target=contend)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        if errors:
            raise errors[0]
        return results['holder'], results['contender']


def outcome(context, change, refused, hold=None, read_committed=False):
    """True if ``change(ctx)`` committed, in one transaction retried whole
    on deadlocks; False if it raised ``refused``. ``hold()`` runs after the
    change, before the commit, on the first attempt only (a holder's
    ``hold`` of :meth:`Interleaving.interleave`). ``read_committed``: the
    transaction runs at READ COMMITTED (PostgreSQL), as claims do."""
    attempts = []

    @db_api.retry_on_deadlock
    def transaction(ctx):
        with session.writer.using(ctx):
            if read_committed:
                with session.writer.connection.using(ctx) as conn:
                    session.read_committed(conn)
            change(ctx)
            if hold and not attempts:
                attempts.append(1)
                hold()

    try:
        transaction(context)
        return True
    except refused:
        return False
