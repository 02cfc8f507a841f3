"""The reconciler re-drives operations that their worker will not finish
(it died, its message was lost, its ending transition failed) on a live
member of the same cluster, and completes them: the file driver's
operations are idempotent, so work already done is found done."""
import datetime
import os
import threading

from oslo_utils import timeutils

from db import session
from db import models
import objects
from tests import base
from tests.functional import worker_fixtures as wf
from volapi.volume import cleanup
from volapi.volume import cluster
from volapi.volume import reconciler
from volapi.volume.drivers import base as driver_base
from volapi.volume.transitions import engine

GiB = driver_base.GiB
CLUSTER = 'c1@file'


class ReconcilerTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.config.set(service_down_time=20)
        self.config.set('volume', unclaimed_work_timeout=15)
        self.worker = self.useFixture(wf.Worker(self))
        self.manager = self.worker.manager
        self.manager.cluster_name = CLUSTER + '#file'
        self.reconciler = reconciler.Reconciler(
            self.context, self.manager,
            cluster.Membership(self.worker.server_name, CLUSTER),
            self.worker.heartbeat)
        self.dead = wf.make_service(self.context, 'dead@file', age=60)

    def volume_of_the_dead_peer(self, status='available', size=1):
        volume = wf.make_volume(self.context, status=status, size=size,
                                host='dead@file#file',
                                cluster_name=CLUSTER + '#file')
        if status == 'available':
            volume.conditional_update(
                self.worker.driver.create_volume(volume),
                expected_values={})
        return volume

    def held_by_the_dead(self, resource_type, resource_id, status):
        self.assertTrue(objects.Worker.take(
            self.context, resource_type, resource_id, status, self.dead.id))

    def age_row(self, resource_id, seconds):
        table = models.Worker.__table__
        past = timeutils.utcnow() - datetime.timedelta(seconds=seconds)
        with session.writer.connection.using(self.context) as conn:
            conn.execute(table.update().where(
                table.c.resource_id == resource_id).values(
                    created_at=past, updated_at=past))

    def assertNoWorkerRow(self, resource, resource_id):
        self.assertIsNone(wf.worker_row(self.context, resource, resource_id))

    def test_extend_the_dead_peer_had_done_is_finished(self):
        # Finding: a worker killed during an extend left the file at the
        # new size and the database at the old one.
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=3)
        self.held_by_the_dead('Volume', volume.id, 'extending')
        os.truncate(volume.provider_location, 3 * GiB)
        self.assertEqual(1, len(self.reconciler.reconcile()))
        volume.refresh()
        self.assertEqual(('available', 3), (volume.status, volume.size))
        self.assertEqual(3 * GiB, os.path.getsize(volume.provider_location))
        self.assertNoWorkerRow('volume', volume.id)

    def test_extend_the_dead_peer_had_not_started_is_done(self):
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.held_by_the_dead('Volume', volume.id, 'extending')
        self.reconciler.reconcile()
        volume.refresh()
        self.assertEqual(('available', 2), (volume.status, volume.size))
        self.assertEqual(2 * GiB, os.path.getsize(volume.provider_location))

    def test_lost_create_message_is_re_driven_after_the_timeout(self):
        volume = wf.make_volume(self.context, size=2)
        self.assertEqual([], self.reconciler.reconcile())
        self.age_row(volume.id, 16)
        self.assertEqual(1, len(self.reconciler.reconcile()))
        volume.refresh()
        self.assertEqual('available', volume.status)
        self.assertEqual(CLUSTER + '#file', volume.cluster_name)
        self.assertEqual(2 * GiB, os.path.getsize(volume.provider_location))
        self.assertNoWorkerRow('volume', volume.id)

    def test_copied_snapshot_whose_transition_failed_is_finished(self):
        # Finding: a snapshot fully copied failed its final transition on
        # a database error and was later marked 'error'. Here the row is
        # still ours, claimed long ago, and the manager is not busy with it.
        volume = self.volume_of_the_dead_peer()
        snapshot = wf.make_snapshot(self.context, volume)
        self.assertTrue(objects.Worker.take(
            self.context, 'Snapshot', snapshot.id, 'creating',
            self.worker.service_id))
        self.worker.driver.create_snapshot(snapshot, volume)
        self.age_row(snapshot.id, 21)
        self.assertEqual(1, len(self.reconciler.reconcile()))
        snapshot.refresh()
        self.assertEqual('available', snapshot.status)
        self.assertTrue(os.path.exists(snapshot.provider_location))
        self.assertNoWorkerRow('snapshot', snapshot.id)

    def test_delete_of_the_dead_peer_is_completed(self):
        volume = self.volume_of_the_dead_peer()
        path = volume.provider_location
        engine.apply(self.context, 'delete', volume)
        self.held_by_the_dead('Volume', volume.id, 'deleting')
        self.reconciler.reconcile()
        volume = objects.Volume.get_by_id(self.context, volume.id,
                                          include_deleted=True)
        self.assertEqual('deleted', volume.status)
        self.assertFalse(os.path.exists(path))

    def test_manage_the_dead_peer_had_done_is_finished(self):
        # The file was taken (renamed) before the peer died: found done.
        volume = wf.make_volume(self.context, status='managing', size=1,
                                host='dead@file#file',
                                cluster_name=CLUSTER + '#file')
        reference = {'source-name': 'legacy'}
        engine.run(self.context, lambda ctx: objects.Worker.track(
            ctx, 'volume', volume.id, 'managing', {'reference': reference}))
        self.held_by_the_dead('Volume', volume.id, 'managing')
        path = os.path.join(self.worker.driver.pool_dir('file'),
                            'volume-%s' % volume.id)
        open(path, 'wb').close()
        self.assertEqual(1, len(self.reconciler.reconcile()))
        volume.refresh()
        self.assertEqual(('available', path),
                         (volume.status, volume.provider_location))
        self.assertEqual(GiB, os.path.getsize(path))
        self.assertNoWorkerRow('volume', volume.id)

    def test_unmanage_of_the_dead_peer_is_completed(self):
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'unmanage', volume)
        self.held_by_the_dead('Volume', volume.id, 'unmanaging')
        self.reconciler.reconcile()
        volume = objects.Volume.get_by_id(self.context, volume.id,
                                          include_deleted=True)
        self.assertEqual('deleted', volume.status)
        self.assertTrue(os.path.exists(volume.provider_location))

    def test_snapshot_manage_of_the_dead_peer_is_re_driven(self):
        # A managed snapshot is 'creating', its workers row 'managing': the
        # manage is re-driven (the file taken), not a create (a copy).
        volume = self.volume_of_the_dead_peer()
        snapshot = wf.make_snapshot(self.context, volume, status='creating',
                                    tracked=False)
        reference = {'source-name': 'legacy'}
        engine.run(self.context, lambda ctx: objects.Worker.track(
            ctx, 'snapshot', snapshot.id, 'managing',
            {'reference': reference}))
        self.held_by_the_dead('Snapshot', snapshot.id, 'managing')
        legacy = os.path.join(self.worker.driver.pool_dir('file'), 'legacy')
        with open(legacy, 'wb') as f:
            f.truncate(GiB // 2)
        self.assertEqual(1, len(self.reconciler.reconcile()))
        snapshot.refresh()
        path = os.path.join(self.worker.driver.pool_dir('file'),
                            'snapshot-%s' % snapshot.id)
        self.assertEqual(('available', path),
                         (snapshot.status, snapshot.provider_location))
        self.assertEqual(GiB // 2, os.path.getsize(path))
        self.assertFalse(os.path.exists(legacy))
        self.assertNoWorkerRow('snapshot', snapshot.id)

    def test_snapshot_unmanage_of_the_dead_peer_is_completed(self):
        volume = self.volume_of_the_dead_peer()
        snapshot = wf.make_snapshot(self.context, volume, status='available')
        engine.apply(self.context, 'snapshot_unmanage', snapshot)
        self.held_by_the_dead('Snapshot', snapshot.id, 'unmanaging')
        self.reconciler.reconcile()
        snapshot = objects.Snapshot.get_by_id(self.context, snapshot.id,
                                              include_deleted=True)
        self.assertEqual('deleted', snapshot.status)
        self.assertNoWorkerRow('snapshot', snapshot.id)

    def test_operations_of_another_cluster_are_left_alone(self):
        volume = wf.make_volume(self.context, status='available',
                                host='other@file#file',
                                cluster_name='c2@file#file')
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.held_by_the_dead('Volume', volume.id, 'extending')
        self.assertEqual([], self.reconciler.reconcile())
        volume.refresh()
        self.assertEqual(('extending', 1), (volume.status, volume.size))
        self.assertEqual(self.dead.id, wf.worker_row(
            self.context, 'volume', volume.id).service_id)

    def test_operation_of_a_live_peer_is_left_alone(self):
        live = wf.make_service(self.context, 'live@file')
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.assertTrue(objects.Worker.take(
            self.context, 'Volume', volume.id, 'extending', live.id))
        self.assertEqual([], self.reconciler.reconcile())

    def test_one_of_two_peers_takes_an_operation_over(self):
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.held_by_the_dead('Volume', volume.id, 'extending')
        stale = cleanup.stale()
        first, = objects.Worker.get_stale(self.context, stale)
        second, = objects.Worker.get_stale(self.context, stale)
        peer = wf.make_service(self.context, 'peer@file')
        results = []
        threads = [threading.Thread(target=lambda w, s: results.append(
            w.take_over(stale, s)), args=(w, s))
            for w, s in ((first, self.worker.service_id),
                         (second, peer.id))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual([False, True], sorted(results))

    def extend_taken_over_from_the_dead(self):
        """A volume whose extend, held by the dead peer, this worker has
        taken over."""
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.held_by_the_dead('Volume', volume.id, 'extending')
        row, = objects.Worker.get_stale(self.context, cleanup.stale())
        self.assertTrue(row.take_over(cleanup.stale(),
                                      self.worker.service_id))
        return volume

    def test_late_result_of_the_first_holder_is_refused(self):
        # The holder was thought dead and its operation taken over; its
        # ending transition, arriving late, must not land.
        volume = self.extend_taken_over_from_the_dead()
        self.assertFalse(objects.Worker.still_held(
            self.context, 'Volume', volume.id, self.dead.id))

    def test_only_the_holder_ends_the_operation(self):
        # What a worker's ending transition does first: the delete of the
        # row proves it still holds the operation.
        volume = self.extend_taken_over_from_the_dead()
        self.assertFalse(objects.Worker.finish_held(
            self.context, 'Volume', volume.id, self.dead.id))
        self.assertIsNotNone(objects.Worker.get_by_resource(
            self.context, 'Volume', volume.id))
        self.assertTrue(objects.Worker.finish_held(
            self.context, 'Volume', volume.id, self.worker.service_id))
        self.assertNoWorkerRow('volume', volume.id)

    def test_row_without_its_arguments_is_repaired(self):
        volume = self.volume_of_the_dead_peer()
        engine.apply(self.context, 'extend', volume, new_size=2)
        table = models.Worker.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(table.update().where(
                table.c.resource_id == volume.id).values(arguments=None))
        self.held_by_the_dead('Volume', volume.id, 'extending')
        self.assertEqual(1, len(self.reconciler.reconcile()))
        volume.refresh()
        self.assertEqual(('error_extending', 1), (volume.status, volume.size))
        self.assertNoWorkerRow('volume', volume.id)
