"""Forced interleavings of two transactions on one volume, on every backend.

The invariant under test: never a 'deleting' volume with a live snapshot
(or a live clone). One transaction creates the child under a compare-and-
swap of the volume row; the other deletes by compare-and-swap with a
"has no children" subquery. Each test forces the dangerous order: the
second UPDATE is issued while the first transaction holds the volume row,
then the first commits. PostgreSQL's READ COMMITTED would let the blocked
UPDATE pass on a stale subquery; db/session.py runs REPEATABLE READ so it
fails with a serialization error and db.api retries it afresh.
"""
import threading
import time
import uuid

import sqlalchemy as sa
from sqlalchemy import orm

from db import api as db_api
from db import models
from db import session
from tests.unit import test_cas_base

Volume = models.Volume
WAIT = 15  # seconds; generous, the tests normally take a fraction of one


def no_snapshots():
    return ~sa.exists().where(models.Snapshot.volume_id == Volume.id,
                              models.Snapshot.deleted == sa.false())


def no_clones():
    clone = orm.aliased(Volume)
    return ~sa.exists().where(clone.source_volid == Volume.id,
                              clone.deleted == sa.false())


class InterleavingTest(test_cas_base.CasTestCase):

    def setUp(self):
        super().setUp()
        self.volume_id = self.create_volume(status='available')

    # -- seeing the other transaction wait -----------------------------------
    def _update_waiting(self):
        """True once another connection's UPDATE of volumes is executing in
        this database (so, while we hold the row, waiting for it)."""
        with self.database.engine.connect() as conn:
            if self.backend == 'postgresql':
                return conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND state = 'active' "
                    "AND wait_event_type = 'Lock' "
                    "AND query LIKE 'UPDATE volumes%%'").scalar() > 0
            # MariaDB: waiting for the row lock shows in the process list
            # (during optimisation, as "Statistics", for a primary-key
            # lookup), not always in innodb_trx.
            return conn.exec_driver_sql(
                "SELECT count(*) FROM information_schema.processlist "
                "WHERE db = database() AND id <> connection_id() "
                "AND command = 'Query' "
                "AND info LIKE 'UPDATE volumes%%'").scalar() > 0

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

    # -- the transactions ---------------------------------------------------
    def delete_volume(self, children=no_snapshots, context=None):
        return db_api.conditional_update(
            context or self.make_context(), Volume, {'status': 'deleting'},
            {'id': self.volume_id, 'status': 'available'}, [children()])

    def create_snapshot_cas_first(self, hold):
        """CAS the volume (it must stay 'available'), insert a snapshot,
        then hold the transaction open."""
        @db_api.retry_on_deadlock
        def transaction(context):
            with session.writer.connection.using(context) as conn:
                if not db_api.conditional_update(
                        context, Volume, {'status': 'available'},
                        {'id': self.volume_id, 'status': 'available'}):
                    return False
                conn.execute(sa.insert(models.Snapshot.__table__).values(
                    id=str(uuid.uuid4()), volume_id=self.volume_id,
                    status='creating', deleted=False))
                hold()
                return True
        return transaction(self.make_context())

    def create_snapshot_insert_first(self, hold):
        """Insert the snapshot, hold, then CAS the volume: the CAS is what
        must notice a delete that slipped in between."""
        @db_api.retry_on_deadlock
        def transaction(context):
            with session.writer.connection.using(context) as conn:
                conn.execute(sa.insert(models.Snapshot.__table__).values(
                    id=str(uuid.uuid4()), volume_id=self.volume_id,
                    status='creating', deleted=False))
                if not attempts:
                    hold()
                attempts.append(1)
                if not db_api.conditional_update(
                        context, Volume, {'status': 'available'},
                        {'id': self.volume_id, 'status': 'available'}):
                    # Abandon the transaction: the snapshot insert goes too.
                    raise _Refused()
                return True
        attempts = []
        try:
            return transaction(self.make_context())
        except _Refused:
            return False

    def create_clone(self, hold):
        @db_api.retry_on_deadlock
        def transaction(context):
            with session.writer.connection.using(context) as conn:
                if not db_api.conditional_update(
                        context, Volume, {'status': 'available'},
                        {'id': self.volume_id, 'status': 'available'}):
                    return False
                conn.execute(sa.insert(Volume.__table__).values(
                    id=str(uuid.uuid4()), source_volid=self.volume_id,
                    size=1, status='creating', attach_status='detached',
                    bootable=False, multiattach=False, deleted=False))
                hold()
                return True
        return transaction(self.make_context())

    def delete_holding(self, hold):
        @db_api.retry_on_deadlock
        def transaction(context):
            with session.writer.connection.using(context):
                deleted = self.delete_volume(context=context)
                hold()
                return deleted
        return transaction(self.make_context())

    # -- the invariant ------------------------------------------------------
    def live_children(self):
        snapshots, clones = models.Snapshot.__table__, Volume.__table__
        with self.database.engine.connect() as conn:
            return (conn.execute(sa.select(sa.func.count()).where(
                        snapshots.c.volume_id == self.volume_id,
                        snapshots.c.deleted == sa.false())).scalar()
                    + conn.execute(sa.select(sa.func.count()).where(
                        clones.c.source_volid == self.volume_id,
                        clones.c.deleted == sa.false())).scalar())

    def assert_invariant(self, created, deleted):
        status = self.volume(self.volume_id)['status']
        children = self.live_children()
        self.assertFalse(status == 'deleting' and children,
                         'volume is deleting with %d live children' % children)
        # And the two outcomes are those of some serial order.
        self.assertEqual(1, int(created) + int(deleted))
        self.assertEqual((created, deleted),
                         (children == 1, status == 'deleting'))

    # -- the tests --------------------------------------------------------------
    def test_delete_waits_for_snapshot_create(self):
        created, deleted = self.interleave(self.create_snapshot_cas_first,
                                           self.delete_volume)
        self.assert_invariant(created, deleted)
        self.assertEqual((True, False), (created, deleted))

    def test_snapshot_create_waits_for_delete(self):
        deleted, created = self.interleave(
            self.delete_holding,
            lambda: self.create_snapshot_cas_first(lambda: None))
        self.assert_invariant(created, deleted)
        self.assertEqual((False, True), (created, deleted))

    def test_delete_slips_between_insert_and_cas(self):
        created, deleted = self.interleave(self.create_snapshot_insert_first,
                                           self.delete_volume)
        self.assert_invariant(created, deleted)

    def test_delete_waits_for_clone_create(self):
        # The "no clones" subquery reads the table being updated (MySQL
        # runs it through a derived table).
        created, deleted = self.interleave(
            self.create_clone, lambda: self.delete_volume(no_clones))
        self.assert_invariant(created, deleted)
        self.assertEqual((True, False), (created, deleted))


class _Refused(Exception):
    pass
