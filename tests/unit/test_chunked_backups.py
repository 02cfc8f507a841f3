"""The file driver's chunked backups on a real filesystem, where the API
cannot reach: a chunk that no longer holds what its manifest says, data
larger than the volume restored to, a chain whose chunk size changed, a
failed create, a delete repeated."""
import os
import uuid
import zlib

import fixtures

import objects
from tests import base
from volapi.volume.drivers import base as driver_base
from volapi.volume.drivers import chunked_backups
from volapi.volume.drivers import file as file_driver

CHUNK = 8192


class ChunkedBackupTest(base.TestCase):

    def setUp(self):
        super().setUp()
        objects.register_all()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.config.set('volume', volumes_dir=os.path.join(self.dir, 'vols'))
        self.config.set('backup', backup_path=os.path.join(self.dir, 'bk'),
                        backup_file_size=CHUNK)
        self.driver = file_driver.FileDriver(self.config.conf)
        self.driver.do_setup()
        self.source = self.created()

    def created(self, size=1):
        volume = objects.Volume(id=str(uuid.uuid4()), size=size,
                                provider_location=None)
        volume.provider_location = \
            self.driver.create_volume(volume)['provider_location']
        return volume

    def backup(self, parent=None):
        backup = objects.Backup(id=str(uuid.uuid4()),
                                parent_id=parent and parent.id)
        self.driver.create_backup(backup, self.source)
        return backup

    def write(self, offset, data):
        with open(self.source.provider_location, 'r+b') as f:
            f.seek(offset)
            f.write(data)

    def chunk(self, backup, index):
        return os.path.join(self.driver.backup_path(backup),
                            'chunk-%08d' % index)

    def test_a_changed_chunk_fails_the_restore(self):
        self.write(CHUNK, b'data')
        backup = self.backup()
        with open(self.chunk(backup, 1), 'r+b') as f:
            f.write(b'rot')
        target = self.created()
        error = self.assertRaises(driver_base.VolumeDriverError,
                                  self.driver.restore_backup, backup, target)
        self.assertIn('chunk 1 of backup %s' % backup.id, str(error))
        os.unlink(self.chunk(backup, 1))
        self.assertRaises(driver_base.VolumeDriverError,
                          self.driver.restore_backup, backup, target)
        # The volume restored to was left as it was, no partial file.
        self.assertEqual(sorted(os.listdir(os.path.dirname(
            target.provider_location))), sorted(
                os.path.basename(v.provider_location)
                for v in (self.source, target)))

    def test_data_larger_than_the_volume_is_refused(self):
        large = self.created(size=2)
        self.source = large
        self.write(driver_base.GiB, b'beyond the first GiB')
        backup = self.backup()
        self.assertRaises(driver_base.VolumeDriverError,
                          self.driver.restore_backup, backup,
                          self.created(size=1))

    def test_an_incremental_keeps_its_parents_chunk_size(self):
        self.write(0, b'a' * (3 * CHUNK))
        full = self.backup()
        self.config.set('backup', backup_file_size=4 * CHUNK)
        self.write(2 * CHUNK, b'b')
        incremental = self.backup(parent=full)
        self.assertEqual(['chunk-00000002', 'manifest.json'],
                         sorted(os.listdir(self.driver.backup_path(
                             incremental))))
        target = self.created()
        self.driver.restore_backup(incremental, target)
        with open(target.provider_location, 'rb') as f:
            self.assertEqual(b'a' * (2 * CHUNK) + b'b' + b'a' * (CHUNK - 1),
                             f.read(3 * CHUNK))
            self.assertEqual(bytes(CHUNK), f.read(CHUNK))

    def test_a_failed_create_leaves_nothing(self):
        backup = objects.Backup(id=str(uuid.uuid4()), parent_id=None)
        os.unlink(self.source.provider_location)
        self.assertRaises(FileNotFoundError, self.driver.create_backup,
                          backup, self.source)
        self.assertEqual([], os.listdir(
            self.config.conf.backup.backup_path))

    def test_delete_is_idempotent(self):
        self.write(0, b'data')
        backup = self.backup()
        self.driver.delete_backup(backup)
        self.driver.delete_backup(backup)
        self.assertEqual([], os.listdir(
            self.config.conf.backup.backup_path))

    def test_manifest(self):
        self.write(CHUNK - 2, b'span')
        backup = self.backup()
        found = chunked_backups.manifest(self.driver.backup_path(backup))
        self.assertEqual((CHUNK, driver_base.GiB, ['0', '1']),
                         (found['chunk_size'], found['size'],
                          sorted(found['chunks'])))
        self.assertEqual({backup.id}, {entry['backup'] for entry in
                                       found['chunks'].values()})

    def restored(self, backup, length):
        target = self.created()
        self.driver.restore_backup(backup, target)
        with open(target.provider_location, 'rb') as f:
            return f.read(length)

    def entries(self, backup):
        return chunked_backups.manifest(
            self.driver.backup_path(backup))['chunks']

    def test_chunks_are_compressed_unless_that_does_not_shrink_them(self):
        random = os.urandom(CHUNK)
        self.write(0, b'a' * CHUNK + random)
        backup = self.backup()  # the default: zlib
        entries = self.entries(backup)
        self.assertEqual('zlib', entries['0']['compression'])
        self.assertLess(os.path.getsize(self.chunk(backup, 0)), CHUNK // 10)
        self.assertNotIn('compression', entries['1'])
        self.assertEqual(CHUNK, os.path.getsize(self.chunk(backup, 1)))
        self.assertEqual(b'a' * CHUNK + random,
                         self.restored(backup, 2 * CHUNK))

    def test_each_algorithm(self):
        self.write(CHUNK, b'b' * CHUNK)
        for option, recorded in (('bz2', 'bz2'), ('GZIP', 'zlib'),
                                 ('none', None), ('off', None)):
            self.config.set('backup', backup_compression_algorithm=option)
            backup = self.backup()
            self.assertEqual(recorded,
                             self.entries(backup)['1'].get('compression'))
            self.assertEqual(bytes(CHUNK) + b'b' * CHUNK,
                             self.restored(backup, 2 * CHUNK))

    def test_a_chain_mixes_compressions(self):
        self.write(0, b'a' * (2 * CHUNK))
        full = self.backup()
        self.config.set('backup', backup_compression_algorithm='none')
        self.write(CHUNK, b'c' * CHUNK)
        incremental = self.backup(parent=full)
        entries = self.entries(incremental)
        # The unchanged chunk is the parent's, compressed as the parent
        # wrote it; the changed one is stored as it is.
        self.assertEqual({'backup': full.id, 'compression': 'zlib'},
                         {k: entries['0'][k] for k in ('backup',
                                                       'compression')})
        self.assertEqual(incremental.id, entries['1']['backup'])
        self.assertNotIn('compression', entries['1'])
        self.assertEqual(b'a' * CHUNK + b'c' * CHUNK,
                         self.restored(incremental, 2 * CHUNK))

    def test_a_chunk_that_does_not_decompress_fails_the_restore(self):
        self.write(0, b'a' * CHUNK)
        backup = self.backup()
        # Not zlib; zlib cut short; more than a chunk once decompressed.
        for stored in (b'not zlib', zlib.compress(b'a' * CHUNK)[:-8],
                       zlib.compress(b'a' * (CHUNK + 1))):
            with open(self.chunk(backup, 0), 'wb') as f:
                f.write(stored)
            error = self.assertRaises(driver_base.VolumeDriverError,
                                      self.driver.restore_backup, backup,
                                      self.created())
            self.assertIn('chunk 0 of backup %s does not decompress as zlib'
                          % backup.id, str(error))
