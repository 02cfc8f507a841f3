"""The file driver on a real filesystem: sparse files, extend, snapshots
(reflink or sparse copy), clones, delete, connection info, capacity."""
import os
import uuid

import fixtures

import objects
from tests import base
from volapi.volume.drivers import base as driver_base
from volapi.volume.drivers import file as file_driver
from volapi.volume.drivers import sparse

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
            sparse._sparse_copy(src.fileno(), dst.fileno())
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


class FilePoolsTest(base.TestCase):
    """Pools are directories: where a file is says which pool holds it."""

    def setUp(self):
        super().setUp()
        objects.register_all()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.config.set('volume', volumes_dir=self.dir,
                        file_pools=['gold:10', 'silver:20'])
        self.driver = file_driver.FileDriver(self.config.conf)
        self.driver.do_setup()

    def volume(self, host, size=1):
        volume = objects.Volume(id=str(uuid.uuid4()), size=size, host=host,
                                provider_location=None)
        volume.provider_location = \
            self.driver.create_volume(volume)['provider_location']
        return volume

    def test_a_volume_is_made_in_its_pools_directory(self):
        volume = self.volume('h@b#silver')
        self.assertEqual(os.path.join(self.dir, 'silver',
                                      'volume-%s' % volume.id),
                         volume.provider_location)
        self.assertEqual(('silver', volume.provider_location),
                         self.driver.locate('volume', volume))

    def test_capacity_is_counted_per_pool(self):
        self.volume('h@b#gold', size=3)
        pools = {p['pool_name']: p for p in self.driver.get_pools()}
        self.assertEqual((10, 3), (pools['gold']['total_gb'],
                                   pools['gold']['provisioned_gb']))
        self.assertEqual((20, 0), (pools['silver']['total_gb'],
                                   pools['silver']['provisioned_gb']))

    def test_a_file_moved_to_another_pool_is_found_there(self):
        volume = self.volume('h@b#gold')
        moved = os.path.join(self.dir, 'silver', 'volume-%s' % volume.id)
        os.rename(volume.provider_location, moved)
        self.assertEqual(('silver', moved),
                         self.driver.locate('volume', volume))
        self.assertEqual(moved, self.driver.volume_path(volume))

    def test_the_flat_layout_of_before_pools_is_the_first_pool(self):
        volume = objects.Volume(id=str(uuid.uuid4()), size=1, host=None,
                                provider_location=None)
        path = os.path.join(self.dir, 'volume-%s' % volume.id)
        open(path, 'wb').close()
        self.assertEqual(('gold', path), self.driver.locate('volume', volume))

    def test_snapshot_is_made_next_to_its_volume(self):
        volume = self.volume('h@b#silver')
        snapshot = objects.Snapshot(id=str(uuid.uuid4()), volume_id=volume.id,
                                    volume_size=1, provider_location=None)
        path = self.driver.create_snapshot(snapshot, volume)[
            'provider_location']
        self.assertEqual(os.path.join(self.dir, 'silver'),
                         os.path.dirname(path))
        self.assertEqual('silver', self.driver.locate('snapshot',
                                                      snapshot)[0])

    def test_no_file_is_located_nowhere(self):
        volume = objects.Volume(id=str(uuid.uuid4()), size=1, host='h@b#gold',
                                provider_location=None)
        self.assertIsNone(self.driver.locate('volume', volume))

    def test_migrate_copies_into_the_target_pool_once(self):
        volume = self.volume('h@b#gold')
        with open(volume.provider_location, 'r+b') as f:
            f.write(b'data')
        name_id = str(uuid.uuid4())
        target = self.driver.migrate_volume(volume, 'h@b#silver', name_id)[
            'provider_location']
        self.assertEqual(os.path.join(self.dir, 'silver',
                                      'volume-%s' % name_id), target)
        with open(target, 'rb') as f:
            self.assertEqual(b'data', f.read(4))
        # Again (a re-driven migration): the copy made is kept as it is.
        with open(target, 'r+b') as f:
            f.write(b'kept')
        self.driver.migrate_volume(volume, 'h@b#silver', name_id)
        with open(target, 'rb') as f:
            self.assertEqual(b'kept', f.read(4))
        self.assertTrue(os.path.exists(volume.provider_location))

    def test_a_failed_copy_leaves_no_partial_file(self):
        volume = objects.Volume(id=str(uuid.uuid4()), size=1, host='h@b#gold',
                                provider_location=None)
        self.assertRaises(FileNotFoundError, self.driver.migrate_volume,
                          volume, 'h@b#silver', str(uuid.uuid4()))
        self.assertEqual([], os.listdir(os.path.join(self.dir, 'silver')))

    def test_a_bad_pool_entry_refuses_setup(self):
        self.config.set('volume', file_pools=['a#b'])
        self.assertRaises(ValueError, self.driver.do_setup)
