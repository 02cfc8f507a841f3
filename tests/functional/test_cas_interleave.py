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
import uuid

import sqlalchemy as sa
from sqlalchemy import orm

from db import api as db_api
from db import models
from db import session
from tests.functional import interleaving
from tests.unit import test_cas_base

Volume = models.Volume


def no_snapshots():
    return ~sa.exists().where(models.Snapshot.volume_id == Volume.id,
                              models.Snapshot.deleted == sa.false())


def no_clones():
    clone = orm.aliased(Volume)
    return ~sa.exists().where(clone.source_volid == Volume.id,
                              clone.deleted == sa.false())


class InterleavingTest(interleaving.Interleaving,
                       test_cas_base.CasTestCase):

    def setUp(self):
        super().setUp()
        self.volume_id = self.create_volume(status='available')

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
