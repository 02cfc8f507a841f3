"""The volume manager with the file driver, on the backend under test:
each operation claims its workers row, does the storage work and ends the
transition; a lost claim or a resource that moved on changes nothing."""
import logging
import os

import fixtures

from db import models
import objects
from tests import base
from tests.functional import worker_fixtures as wf
from volapi.volume import cleanup
from volapi.volume.transitions import engine
from volapi.volume.drivers import base as driver_base
from volapi.volume.drivers import file as file_driver

GiB = driver_base.GiB


class ManagerTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(wf.Worker(self))
        self.manager = self.worker.manager

    def created_volume(self, size=1):
        volume = wf.make_volume(self.context, size=size)
        self.manager.create_volume(self.context, volume)
        volume.refresh()
        self.assertEqual('available', volume.status)
        return volume

    def assertNoWorkerRow(self, resource, resource_id):
        self.assertIsNone(wf.worker_row(self.context, resource, resource_id))

    # -- create ---------------------------------------------------------------
    def test_create(self):
        volume = wf.make_volume(self.context, size=2)
        self.manager.create_volume(self.context, volume)
        volume.refresh()
        self.assertEqual('available', volume.status)
        self.assertEqual('worker-1@file#file', volume.host)
        self.assertIsNotNone(volume.launched_at)
        self.assertEqual(2 * GiB, os.path.getsize(volume.provider_location))
        self.assertTrue(volume.provider_location.startswith(
            self.worker.driver.volumes_dir))
        self.assertNoWorkerRow('volume', volume.id)

    def test_an_operation_logs_one_info_line(self):
        logger = self.useFixture(fixtures.FakeLogger(
            name='volapi.volume.manager', level=logging.INFO))
        volume = wf.make_volume(self.context)
        self.manager.create_volume(self.context, volume)
        self.assertEqual(['create_done of %s applied' % volume.id],
                         logger.output.splitlines())

    def test_driver_failure_ends_in_error(self):
        source = self.created_volume()
        snapshot = wf.make_snapshot(self.context, source)
        self.manager.create_snapshot(self.context, snapshot)
        snapshot.refresh()
        os.unlink(snapshot.provider_location)  # lost underneath us
        volume = wf.make_volume(self.context, snapshot_id=snapshot.id)
        self.manager.create_volume(self.context, volume)
        volume.refresh()
        self.assertEqual('error', volume.status)
        self.assertNoWorkerRow('volume', volume.id)

    def test_create_from_snapshot_and_clone_copy_the_data(self):
        source = self.created_volume()
        with open(source.provider_location, 'r+b') as f:
            f.write(b'payload')
        snapshot = wf.make_snapshot(self.context, source)
        self.manager.create_snapshot(self.context, snapshot)
        from_snapshot = wf.make_volume(self.context, size=2,
                                       snapshot_id=snapshot.id)
        clone = wf.make_volume(self.context, source_volid=source.id)
        for volume in (from_snapshot, clone):
            self.manager.create_volume(self.context, volume)
            volume.refresh()
            self.assertEqual('available', volume.status)
            with open(volume.provider_location, 'rb') as f:
                self.assertEqual(b'payload', f.read(7))
        self.assertEqual(2 * GiB,
                         os.path.getsize(from_snapshot.provider_location))

    def test_operation_held_by_another_worker_is_left_alone(self):
        other = wf.make_service(self.context, 'worker-2@file')
        volume = wf.make_volume(self.context)
        self.assertTrue(objects.Worker.take(
            self.context, 'Volume', volume.id, 'creating', other.id))
        self.manager.create_volume(self.context, volume)
        volume.refresh()
        self.assertEqual('creating', volume.status)
        self.assertEqual([], os.listdir(self.worker.driver.volumes_dir))
        self.assertEqual(other.id, wf.worker_row(
            self.context, 'volume', volume.id).service_id)

    def test_redelivered_message_is_dropped(self):
        volume = self.created_volume()
        size_before = os.path.getsize(volume.provider_location)
        self.manager.create_volume(self.context, volume)
        self.manager.extend_volume(self.context, volume, 5)
        volume.refresh()
        self.assertEqual(('available', 1), (volume.status, volume.size))
        self.assertEqual(size_before,
                         os.path.getsize(volume.provider_location))

    def test_row_being_cleaned_is_not_claimed(self):
        volume = wf.make_volume(self.context)
        row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertTrue(row.claim_for_cleanup(
            models.Worker.__table__.c.id == row.id))
        self.assertFalse(objects.Worker.take(
            self.context, 'Volume', volume.id, 'creating',
            self.worker.service_id))

    # -- extend ---------------------------------------------------------------
    def test_extend(self):
        volume = self.created_volume()
        engine.apply(self.context, 'extend', volume, new_size=3)
        row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertEqual(('extending', None), (row.status, row.service_id))
        self.manager.extend_volume(self.context, volume, 3)
        volume.refresh()
        self.assertEqual(('available', 3), (volume.status, volume.size))
        self.assertEqual(3 * GiB, os.path.getsize(volume.provider_location))
        self.assertNoWorkerRow('volume', volume.id)

    def test_extend_failure(self):
        volume = self.created_volume()
        engine.apply(self.context, 'extend', volume, new_size=3)
        os.unlink(volume.provider_location)
        self.manager.extend_volume(self.context, volume, 3)
        volume.refresh()
        self.assertEqual(('error_extending', 1), (volume.status, volume.size))
        self.assertNoWorkerRow('volume', volume.id)

    def test_worker_thought_dead_loses_to_the_cleanup(self):
        # The cleanup repairs the operation while the driver is still at
        # work (the worker's heartbeat stalled): the repair stands and the
        # worker's late transition is refused.
        test = self

        class RacingDriver(file_driver.FileDriver):
            def extend_volume(self, volume, new_size):
                super().extend_volume(volume, new_size)
                test.racing.heartbeat.service.heartbeat(
                    now=wf.timeutils.utcnow() - wf.datetime.timedelta(
                        seconds=test.config.conf.service_down_time + 5))
                test.repaired = cleanup.clean_stale(test.context)

        worker = self.racing = self.useFixture(wf.Worker(
            self, host='worker-2', driver_class=RacingDriver))
        volume = wf.make_volume(self.context)
        worker.manager.create_volume(self.context, volume)
        volume.refresh()
        engine.apply(self.context, 'extend', volume, new_size=2)
        worker.manager.extend_volume(self.context, volume, 2)
        volume.refresh()
        self.assertEqual([volume.id], [w.resource_id for w in self.repaired])
        self.assertEqual(('error_extending', 1), (volume.status, volume.size))
        self.assertNoWorkerRow('volume', volume.id)

    def test_late_result_does_not_land_on_a_newer_operation(self):
        # While the driver works, the cleanup repairs the operation (the
        # worker was thought dead) and the admin starts a new extend. The
        # late 'extend_done' would match the new 'extending': it must not.
        test = self

        class RacingDriver(file_driver.FileDriver):
            def extend_volume(self, volume, new_size):
                super().extend_volume(volume, new_size)
                test.late.heartbeat.service.heartbeat(
                    now=wf.timeutils.utcnow() - wf.datetime.timedelta(
                        seconds=test.config.conf.service_down_time + 5))
                cleanup.clean_stale(test.context)
                again = objects.Volume.get_by_id(test.context, volume.id)
                engine.apply(test.context, 'reset_status', again,
                             status='available')
                engine.apply(test.context, 'extend', again, new_size=5)

        worker = self.late = self.useFixture(wf.Worker(
            self, host='worker-2', driver_class=RacingDriver))
        volume = wf.make_volume(self.context)
        worker.manager.create_volume(self.context, volume)
        volume.refresh()
        engine.apply(self.context, 'extend', volume, new_size=2)
        worker.manager.extend_volume(self.context, volume, 2)
        volume.refresh()
        self.assertEqual(('extending', 1), (volume.status, volume.size))
        row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertEqual(('extending', None), (row.status, row.service_id))
        # The new operation is intact: a worker can still do it.
        self.manager.extend_volume(self.context, volume, 5)
        volume.refresh()
        self.assertEqual(('available', 5), (volume.status, volume.size))

    def test_busy_while_working(self):
        test = self
        seen = []

        class WatchedDriver(file_driver.FileDriver):
            def extend_volume(self, volume, new_size):
                seen.append(test.watched.manager.busy())
                super().extend_volume(volume, new_size)

        worker = self.watched = self.useFixture(wf.Worker(
            self, host='worker-2', driver_class=WatchedDriver))
        volume = wf.make_volume(self.context)
        worker.manager.create_volume(self.context, volume)
        volume.refresh()
        engine.apply(self.context, 'extend', volume, new_size=2)
        worker.manager.extend_volume(self.context, volume, 2)
        self.assertEqual([{volume.id}], seen)
        self.assertEqual(set(), worker.manager.busy())

    # -- retype ---------------------------------------------------------------
    def test_retype(self):
        old_type = wf.make_volume_type(self.context)
        new_type = wf.make_volume_type(self.context)
        volume = wf.make_volume(self.context, volume_type_id=old_type)
        self.manager.create_volume(self.context, volume)
        volume.refresh()
        engine.apply(self.context, 'retype', volume,
                     new_type_id=new_type)
        self.manager.retype(self.context, volume, new_type)
        volume.refresh()
        self.assertEqual(('available', new_type),
                         (volume.status, volume.volume_type_id))
        self.assertNoWorkerRow('volume', volume.id)

    # -- delete ---------------------------------------------------------------
    def test_delete(self):
        volume = self.created_volume()
        path = volume.provider_location
        engine.apply(self.context, 'delete', volume)
        self.manager.delete_volume(self.context, volume)
        volume.refresh()
        self.assertTrue(volume.deleted)
        self.assertEqual('deleted', volume.status)
        self.assertFalse(os.path.exists(path))
        self.assertNoWorkerRow('volume', volume.id)

    def test_delete_of_a_volume_whose_create_failed(self):
        volume = wf.make_volume(self.context, status='error')
        engine.apply(self.context, 'delete', volume)
        self.manager.delete_volume(self.context, volume)
        volume.refresh()
        self.assertTrue(volume.deleted)

    # -- snapshots ------------------------------------------------------------
    def test_snapshot_create_and_delete(self):
        volume = self.created_volume()
        snapshot = wf.make_snapshot(self.context, volume)
        self.manager.create_snapshot(self.context, snapshot)
        snapshot.refresh()
        self.assertEqual(('available', '100%'),
                         (snapshot.status, snapshot.progress))
        self.assertEqual(GiB, os.path.getsize(snapshot.provider_location))
        self.assertNoWorkerRow('snapshot', snapshot.id)
        engine.apply(self.context, 'snapshot_delete', snapshot)
        self.manager.delete_snapshot(self.context, snapshot)
        snapshot.refresh()
        self.assertEqual(('deleted', True), (snapshot.status,
                                             snapshot.deleted))
        self.assertFalse(os.path.exists(snapshot.provider_location))
        self.assertNoWorkerRow('snapshot', snapshot.id)

    def test_snapshot_of_a_volume_without_file_fails(self):
        volume = self.created_volume()
        os.unlink(volume.provider_location)
        snapshot = wf.make_snapshot(self.context, volume)
        self.manager.create_snapshot(self.context, snapshot)
        snapshot.refresh()
        self.assertEqual('error', snapshot.status)
        self.assertNoWorkerRow('snapshot', snapshot.id)

    # -- connections ----------------------------------------------------------
    def test_initialize_and_terminate_connection(self):
        volume = self.created_volume()
        info = self.manager.initialize_connection(
            self.context, volume, {'host': 'compute-1'})
        self.assertEqual({'driver_volume_type': 'local',
                          'data': {'device_path': volume.provider_location}},
                         info)
        attachment = objects.VolumeAttachment(
            id=wf.uuid.uuid4().hex, volume_id=volume.id,
            attach_status='detached', connector='{"host": "compute-1"}')
        self.manager.terminate_connection(self.context, volume, attachment)
        self.assertTrue(os.path.exists(volume.provider_location))
