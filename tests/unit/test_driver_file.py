"""The file driver on a real filesystem: sparse files, extend, snapshots
(reflink or sparse copy), clones, delete, connection info, capacity."""
import os
import uuid

import fixtures

import objects
from tests import base
from volapi.volume.drivers import base as driver_base
from volapi.volume.drivers import file as file_driver

GiB = driver_base.GiB


def allocated(path):
    return os.stat(path).st_blocks * 512


class FileDriverTest(base.TestCase):

    def setUp(self):
        super().setUp()
        objects.register_all()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.config.set('volume', volumes_dir=os.path.join(self.dir, 'vols'))
        self.driver = file_driver.FileDriver(self.config.conf)
        self.driver.do_setup()

    def volume(self, size=1, **kwargs):
        return objects.Volume(id=str(uuid.uuid4()), size=size,
                              provider_location=None, **kwargs)

    def snapshot(self, volume):
        return objects.Snapshot(id=str(uuid.uuid4()), volume_id=volume.id,
                                volume_size=volume.size,
                                provider_location=None)

    def created(self, size=1):
        volume = self.volume(size)
        volume.provider_location = \
            self.driver.create_volume(volume)['provider_location']
        return volume

    def write(self, path, offset, data):
        with open(path, 'r+b') as f:
            f.seek(offset)
            f.write(data)

    def read(self, path, offset, length):
        with open(path, 'rb') as f:
            f.seek(offset)
            return f.read(length)

    def test_setup_creates_the_directory(self):
        self.assertTrue(os.path.isdir(self.driver.volumes_dir))

    def test_create_volume_is_a_sparse_file_of_its_size(self):
        volume = self.volume(size=2)
        values = self.driver.create_volume(volume)
        path = values['provider_location']
        self.assertEqual(os.path.join(self.driver.volumes_dir,
                                      'volume-%s' % volume.id), path)
        self.assertEqual(2 * GiB, os.path.getsize(path))
        self.assertLess(allocated(path), 1024 * 1024)
        self.assertEqual(0o600, os.stat(path).st_mode & 0o777)

    def test_create_again_reuses_the_file(self):
        volume = self.created()
        self.write(volume.provider_location, 4096, b'kept')
        self.driver.create_volume(volume)
        self.assertEqual(b'kept', self.read(volume.provider_location,
                                            4096, 4))

    def test_extend_keeps_data_and_stays_sparse(self):
        volume = self.created()
        self.write(volume.provider_location, GiB - 4, b'tail')
        self.driver.extend_volume(volume, 3)
        self.assertEqual(3 * GiB, os.path.getsize(volume.provider_location))
        self.assertEqual(b'tail', self.read(volume.provider_location,
                                            GiB - 4, 4))
        self.assertLess(allocated(volume.provider_location), 1024 * 1024)

    def test_extend_refuses_to_shrink(self):
        volume = self.created(size=2)
        e = self.assertRaises(driver_base.VolumeDriverError,
                              self.driver.extend_volume, volume, 1)
        self.assertIn('volumes only grow', str(e))
        self.assertEqual(2 * GiB, os.path.getsize(volume.provider_location))

    def test_snapshot_is_a_sparse_point_in_time_copy(self):
        volume = self.created()
        self.write(volume.provider_location, 0, b'before')
        self.write(volume.provider_location, GiB // 2, b'middle')
        snapshot = self.snapshot(volume)
        path = self.driver.create_snapshot(snapshot, volume)[
            'provider_location']
        self.assertEqual(os.path.join(self.driver.volumes_dir,
                                      'snapshot-%s' % snapshot.id), path)
        self.write(volume.provider_location, 0, b'after!')
        self.assertEqual(b'before', self.read(path, 0, 6))
        self.assertEqual(b'middle', self.read(path, GiB // 2, 6))
        self.assertEqual(GiB, os.path.getsize(path))
        self.assertLess(allocated(path), 1024 * 1024)
        self.assertEqual([], [n for n in os.listdir(self.driver.volumes_dir)
                              if n.endswith('.partial')])

    def test_sparse_copy_without_reflink(self):
        # The fallback on its own, whatever this filesystem supports.
        source = os.path.join(self.dir, 'source')
        with open(source, 'wb') as f:
            f.truncate(64 * 1024 * 1024)
            f.seek(10 * 1024 * 1024)
            f.write(b'x' * 5000)
            f.seek(20 * 1024 * 1024)
            f.write(bytes(2 * 1024 * 1024))  # written zeros
        dest = os.path.join(self.dir, 'dest')
        with open(source, 'rb') as src, open(dest, 'wb') as dst:
            file_driver._sparse_copy(src.fileno(), dst.fileno())
        with open(source, 'rb') as a, open(dest, 'rb') as b:
            self.assertEqual(a.read(), b.read())
        self.assertLess(allocated(dest), 1024 * 1024)

    def test_volume_from_snapshot_and_clone(self):
        volume = self.created()
        self.write(volume.provider_location, 123, b'data')
        snapshot = self.snapshot(volume)
        snapshot.provider_location = self.driver.create_snapshot(
            snapshot, volume)['provider_location']
        from_snapshot = self.volume(size=2)
        path = self.driver.create_volume_from_snapshot(
            from_snapshot, snapshot)['provider_location']
        self.assertEqual(2 * GiB, os.path.getsize(path))
        self.assertEqual(b'data', self.read(path, 123, 4))
        clone = self.volume(size=1)
        path = self.driver.create_cloned_volume(clone, volume)[
            'provider_location']
        self.assertEqual(b'data', self.read(path, 123, 4))

    def test_volume_smaller_than_its_source_is_refused(self):
        volume = self.created(size=2)
        e = self.assertRaises(driver_base.VolumeDriverError,
                              self.driver.create_cloned_volume,
                              self.volume(size=1), volume)
        self.assertIn('smaller than its source', str(e))

    def test_delete_is_idempotent(self):
        volume = self.created()
        snapshot = self.snapshot(volume)
        snapshot.provider_location = self.driver.create_snapshot(
            snapshot, volume)['provider_location']
        for _ in range(2):
            self.driver.delete_snapshot(snapshot)
            self.driver.delete_volume(volume)
        self.assertEqual([], os.listdir(self.driver.volumes_dir))

    def test_provider_location_wins_over_volumes_dir(self):
        volume = self.created()
        self.config.set('volume', volumes_dir=os.path.join(self.dir, 'new'))
        self.driver.extend_volume(volume, 2)
        self.assertEqual(2 * GiB, os.path.getsize(volume.provider_location))

    def test_initialize_connection_gives_the_local_path(self):
        volume = self.created()
        info = self.driver.initialize_connection(volume, {'host': 'h1'})
        self.assertEqual({'driver_volume_type': 'local',
                          'data': {'device_path': volume.provider_location}},
                         info)
        self.driver.terminate_connection(volume, {'host': 'h1'})
        self.assertTrue(os.path.exists(volume.provider_location))

    def test_initialize_connection_of_a_missing_file_fails(self):
        e = self.assertRaises(driver_base.VolumeDriverError,
                              self.driver.initialize_connection,
                              self.volume(), {})
        self.assertIn('has no file', str(e))

    def test_capacity(self):
        self.created(size=3)
        self.created(size=2)
        capacity = self.driver.get_capacity()
        self.assertEqual('file', capacity['pool_name'])
        self.assertEqual(5, capacity['provisioned_gb'])
        self.assertGreater(capacity['total_gb'], 0)
        self.assertLessEqual(capacity['free_gb'], capacity['total_gb'])

    def test_retype_in_place(self):
        self.assertTrue(self.driver.retype(self.created(), str(uuid.uuid4())))
