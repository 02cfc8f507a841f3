"""The cleanup on the backend under test: which workers rows are stale, the
compare-and-swap that takes one over, the repair, and the admin entry point
(POST /workers/cleanup)."""
import threading

import fixtures

import objects
from objects import worker as worker_obj
from tests import base
from tests import volume_rows as rows
from tests.functional import worker_fixtures as wf
from volapi.volume import cleanup
from volapi.volume.transitions import engine

DEAD = 1000  # seconds since the last heartbeat of a dead service


class CleanupTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.config.set(service_down_time=60)
        self.config.set('volume', unclaimed_work_timeout=300)

    def extending_volume(self, holder=None):
        """A volume being extended, its operation held by ``holder``."""
        volume = wf.make_volume(self.context, status='available')
        engine.apply(self.context, 'extend', volume, new_size=2)
        if holder is not None:
            self.assertTrue(objects.Worker.take(
                self.context, 'Volume', volume.id, 'extending', holder.id))
        return volume

    def status(self, volume):
        volume.refresh()
        return volume.status

    def age_row(self, resource, resource_id, seconds):
        row = wf.worker_row(self.context, resource, resource_id)
        self.assertTrue(row.conditional_update(
            {'updated_at': wf.timeutils.utcnow() -
             wf.datetime.timedelta(seconds=seconds)}))

    def test_work_of_a_dead_service_is_repaired(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        cleaner = wf.make_service(self.context, 'alive@file')
        volume = self.extending_volume(holder=dead)
        repaired = cleanup.clean_stale(self.context, cleaner_id=cleaner.id)
        self.assertEqual([volume.id], [w.resource_id for w in repaired])
        self.assertEqual('error_extending', self.status(volume))
        self.assertEqual(1, volume.size)
        self.assertIsNone(wf.worker_row(self.context, 'volume', volume.id))

    def test_work_of_a_live_service_is_left_alone(self):
        alive = wf.make_service(self.context, 'alive@file', age=30)
        volume = self.extending_volume(holder=alive)
        self.assertEqual([], cleanup.clean_stale(self.context))
        self.assertEqual('extending', self.status(volume))

    def test_unclaimed_work_is_repaired_only_after_the_timeout(self):
        volume = self.extending_volume()
        self.assertEqual([], cleanup.clean_stale(self.context))
        self.age_row('volume', volume.id, 301)
        repaired = cleanup.clean_stale(self.context)
        self.assertEqual([volume.id], [w.resource_id for w in repaired])
        self.assertEqual('error_extending', self.status(volume))

    def test_a_starting_service_takes_back_its_previous_life(self):
        me = wf.make_service(self.context, 'me@file')
        volume = self.extending_volume(holder=me)
        self.assertEqual([], cleanup.clean_stale(self.context,
                                                 cleaner_id=me.id))
        repaired = cleanup.clean_stale(self.context, cleaner_id=me.id,
                                       own_service_id=me.id)
        self.assertEqual([volume.id], [w.resource_id for w in repaired])
        self.assertEqual('error_extending', self.status(volume))

    def test_a_live_service_takes_back_rows_it_lost_track_of(self):
        me = wf.make_service(self.context, 'me@file')
        lost, working, recent = [self.extending_volume(holder=me)
                                 for _ in range(3)]
        for volume in (lost, working):
            self.age_row('volume', volume.id, 61)  # > service_down_time
        repaired = cleanup.clean_stale(self.context, cleaner_id=me.id,
                                       busy=(me.id, {working.id}))
        self.assertEqual([lost.id], [w.resource_id for w in repaired])
        self.assertEqual(['error_extending', 'extending', 'extending'],
                         [self.status(v) for v in (lost, working, recent)])

    def test_every_cleanup_repair(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        creating = wf.make_volume(self.context)
        deleting = wf.make_volume(self.context, status='available')
        engine.apply(self.context, 'delete', deleting)
        retyping = wf.make_volume(
            self.context, status='available',
            volume_type_id=wf.make_volume_type(self.context))
        engine.apply(self.context, 'retype', retyping,
                     new_type_id=wf.make_volume_type(self.context))
        extending = wf.make_volume(self.context, status='available')
        engine.apply(self.context, 'extend', extending, new_size=5)
        snapshot_volume = wf.make_volume(self.context, status='available',
                                         host='dead@file#file')
        snap_creating = wf.make_snapshot(self.context, snapshot_volume)
        snap_deleting = wf.make_snapshot(self.context, snapshot_volume,
                                         status='available')
        engine.apply(self.context, 'snapshot_delete', snap_deleting)
        expected = {
            ('Volume', creating.id): 'error',
            ('Volume', deleting.id): 'error_deleting',
            ('Volume', retyping.id): 'available',
            ('Volume', extending.id): 'error_extending',
            ('Snapshot', snap_creating.id): 'error',
            ('Snapshot', snap_deleting.id): 'error_deleting',
        }
        for resource_type, resource_id in expected:
            self.assertTrue(objects.Worker.take(
                self.context, resource_type, resource_id,
                wf.worker_row(self.context, resource_type.lower(),
                              resource_id).status, dead.id))
        repaired = cleanup.clean_stale(self.context)
        self.assertEqual(set(expected),
                         {(w.resource_type, w.resource_id) for w in repaired})
        for (resource_type, resource_id), status in expected.items():
            obj = getattr(objects, resource_type).get_by_id(
                self.context, resource_id)
            self.assertEqual(status, obj.status, resource_type)
        self.assertEqual([], objects.Worker.get_stale(
            self.context, worker_obj.stale_criterion(
                wf.timeutils.utcnow(), wf.timeutils.utcnow(), dead.id)))

    def test_an_unfinished_termination_is_dropped_with_a_warning(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volume = wf.make_volume(self.context, status='in-use',
                                attach_status='attached')
        attachment = rows.attachment(self.context, volume,
                                     connector='{"host": "compute-1"}')
        engine.run(self.context,
                   engine.prepare(self.context, 'attachment_delete', volume,
                                  attachment_id=attachment.id),
                   engine.prepare(self.context, 'attachment_disconnect',
                                  attachment))
        self.assertTrue(objects.Worker.take(
            self.context, 'VolumeAttachment', attachment.id, 'terminating',
            dead.id))
        log = self.useFixture(fixtures.FakeLogger(
            name='volapi.volume.cleanup', format='%(message)s'))
        repaired = cleanup.clean_stale(self.context)
        self.assertEqual([attachment.id], [w.resource_id for w in repaired])
        self.assertIsNone(wf.worker_row(self.context, 'attachment',
                                        attachment.id))
        self.assertIn('the backend may still export the volume to its host',
                      log.output)
        self.assertEqual(('available', 'detached'),
                         (self.status(volume), volume.attach_status))

    def test_row_whose_resource_moved_on_is_just_deleted(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volume = self.extending_volume(holder=dead)
        engine.apply(self.context, 'reset_status', volume,
                     status='available')
        # reset_status finished the row; leave one behind as a crash would.
        wf.track(self.context, 'volume', volume.id, 'extending')
        self.assertTrue(objects.Worker.take(
            self.context, 'Volume', volume.id, 'extending', dead.id))
        self.assertEqual(1, len(cleanup.clean_stale(self.context)))
        self.assertEqual('available', self.status(volume))
        self.assertIsNone(wf.worker_row(self.context, 'volume', volume.id))

    def test_repair_after_the_row_changed_since_the_claim_does_nothing(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volume = self.extending_volume(holder=dead)
        stale = cleanup.stale()
        claimed, = objects.Worker.get_stale(self.context, stale)
        self.assertTrue(claimed.claim_for_cleanup(stale))
        # Between the claim and the repair: an admin resets the volume and a
        # new extend begins.
        engine.apply(self.context, 'reset_status', volume,
                     status='available')
        volume.refresh()
        engine.apply(self.context, 'extend', volume, new_size=3)
        new_row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertFalse(cleanup.repair_claimed(self.context, claimed))
        self.assertEqual('extending', self.status(volume))
        kept = wf.worker_row(self.context, 'volume', volume.id)
        self.assertEqual((new_row.id, new_row.race_preventer, False),
                         (kept.id, kept.race_preventer, kept.cleaning))

    # -- the take-over is a compare-and-swap ----------------------------------
    def test_second_cleaner_with_the_same_view_loses(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volume = self.extending_volume(holder=dead)
        stale = cleanup.stale()
        first, = objects.Worker.get_stale(self.context, stale)
        second, = objects.Worker.get_stale(self.context, stale)
        self.assertTrue(first.claim_for_cleanup(stale))
        self.assertFalse(second.claim_for_cleanup(stale))
        self.assertFalse(cleanup.repair(self.context, second, stale))
        self.assertEqual('extending', self.status(volume))

    def test_holder_back_to_life_keeps_its_work(self):
        holder = wf.make_service(self.context, 'slow@file', age=DEAD)
        volume = self.extending_volume(holder=holder)
        stale = cleanup.stale()
        candidate, = objects.Worker.get_stale(self.context, stale)
        self.assertTrue(holder.heartbeat())  # between SELECT and claim
        self.assertFalse(cleanup.repair(self.context, candidate, stale))
        self.assertEqual('extending', self.status(volume))
        self.assertEqual(holder.id, wf.worker_row(
            self.context, 'volume', volume.id).service_id)

    def test_concurrent_cleaners_repair_each_row_once(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volumes = [self.extending_volume(holder=dead) for _ in range(6)]
        cleaners = [wf.make_service(self.context, 'cleaner-%d@file' % i)
                    for i in range(4)]
        results, errors = [], []
        barrier = threading.Barrier(len(cleaners))

        def run(cleaner):
            try:
                barrier.wait()
                results.extend(cleanup.clean_stale(
                    self.context.elevated(), cleaner_id=cleaner.id))
            except Exception as e:  # reported below, with the others
                errors.append(e)

        threads = [threading.Thread(target=run, args=(c,)) for c in cleaners]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual([], errors)
        self.assertEqual(sorted(v.id for v in volumes),
                         sorted(w.resource_id for w in results))
        for volume in volumes:
            self.assertEqual('error_extending', self.status(volume))

    # -- POST /workers/cleanup ------------------------------------------------
    def test_admin_cleanup_repairs_down_services_only(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        alive = wf.make_service(self.context, 'alive@file')
        of_dead = self.extending_volume(holder=dead)
        of_alive = self.extending_volume(holder=alive)
        cleaning, unavailable = cleanup.cleanup(self.context, {})
        self.assertEqual([dead.id], [s.id for s in cleaning])
        self.assertEqual([alive.id], [s.id for s in unavailable])
        self.assertEqual('error_extending', self.status(of_dead))
        self.assertEqual('extending', self.status(of_alive))

    def test_admin_cleanup_filters(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        other = wf.make_service(self.context, 'other@file', age=DEAD)
        first = self.extending_volume(holder=dead)
        second = self.extending_volume(holder=dead)
        unclaimed = self.extending_volume()
        self.age_row('volume', unclaimed.id, 301)
        cleaning, unavailable = cleanup.cleanup(
            self.context, {'host': 'dead@file', 'resource_id': second.id})
        self.assertEqual(([dead.id], []),
                         ([s.id for s in cleaning], unavailable))
        self.assertEqual(['extending', 'error_extending', 'extending'],
                         [self.status(v) for v in (first, second, unclaimed)])
        cleaning, _ = cleanup.cleanup(self.context, {'is_up': False,
                                                     'service_id': other.id})
        self.assertEqual([other.id], [s.id for s in cleaning])
        self.assertEqual('extending', self.status(unclaimed))
        cleanup.cleanup(self.context, {'resource_type': 'Volume'})
        self.assertEqual('error_extending', self.status(unclaimed))
        self.assertEqual('error_extending', self.status(first))
        self.assertEqual(([], []), cleanup.cleanup(
            self.context, {'cluster_name': 'c1'}))

    def test_admin_cleanup_refuses_unknown_filters(self):
        e = self.assertRaises(ValueError, cleanup.cleanup, self.context,
                              {'hots': 'x'})
        self.assertIn('unknown cleanup filters: hots', str(e))
