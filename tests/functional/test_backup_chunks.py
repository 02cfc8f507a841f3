"""Chunked backups through the API, with a real worker (file driver): a
full backup stores the volume's non-zero chunks, an incremental one only
those that changed since its parent; each restores exactly what the
volume held when it was taken; a chain is deleted leaf first and never
loses a chunk a remaining backup needs; backups of the old format (one
file) still restore and delete; a create repeated after a crash starts
afresh."""
import hashlib
import json
import os
import shutil
import zlib

import fixtures

import objects
from tests.functional import backup_fixtures
from tests.functional import volume_worker_fixture as vwf
from volapi.volume.drivers import sparse

CHUNK = 64 * 1024
BLOCK = 4096
HAS_DEPENDENTS = 'Invalid backup: backup must have no incremental ' \
    'backups depending on it'


def digest(path):
    """What the file holds, exactly, without reading its holes: its size
    and the sha256 of each non-zero 4 KiB block, by offset."""
    blocks = {}
    with open(path, 'rb') as f:
        size = os.fstat(f.fileno()).st_size
        for start, end in sparse.data_extents(f.fileno(), size):
            offset = start - start % BLOCK
            while offset < end:
                data = os.pread(f.fileno(), BLOCK, offset)
                if data.count(0) != len(data):
                    blocks[offset] = hashlib.sha256(data).hexdigest()
                offset += BLOCK
    return size, blocks


class ChunkedBackupTest(backup_fixtures.WorkerBackupTestCase):

    def setUp(self):
        super().setUp()
        self.config.set('backup', backup_file_size=CHUNK)
        self.volume_id = self.available_volume()

    def volume_file(self, volume_id):
        return self.volume_row(volume_id)['provider_location']

    def backup(self, **spec):
        """An available backup of the volume, the volume available again:
        (its id, what the volume held then)."""
        held = digest(self.volume_file(self.volume_id))
        backup_id = self.backup_id(self.volume_id, **spec)
        self.wait_backup(backup_id, 'available')
        vwf.wait_for(lambda: self.volume_status(self.volume_id),
                     lambda s: s == 'available')
        return backup_id, held

    def directory(self, backup_id):
        return self.driver.backup_path(
            objects.Backup.get_by_id(self.context, backup_id))

    def chunk_files(self, backup_id):
        return sorted(name for name in os.listdir(self.directory(backup_id))
                      if name != 'manifest.json')

    def manifest(self, backup_id):
        with open(os.path.join(self.directory(backup_id),
                               'manifest.json')) as f:
            return json.load(f)

    def restored(self, backup_id):
        """What a new volume restored from the backup holds."""
        volume_id = self.restore(backup_id).json['restore']['volume_id']
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'available')
        self.wait_backup(backup_id, 'available')
        return digest(self.volume_file(volume_id))

    def delete(self, backup_id, status=202):
        return self.app.delete('/v3/backups/%s' % backup_id,
                               headers=self.owner, status=status)

    def deleted(self, backup_id):
        self.delete(backup_id)
        vwf.wait_for(lambda: self.get('/v3/backups/%s' % backup_id)
                     .status_int, lambda status: status == 404)

    def test_incremental_stores_the_changed_chunk(self):
        # Chunks 0 and 1 (one write across their border) and 5.
        self.write(self.volume_id, os.urandom(CHUNK + 100), offset=10)
        self.write(self.volume_id, os.urandom(300), offset=5 * CHUNK + 7)
        full, at_full = self.backup()
        self.assertEqual(3, self.show(full)['object_count'])
        self.assertEqual(['chunk-00000000', 'chunk-00000001',
                          'chunk-00000005'], self.chunk_files(full))
        self.write(self.volume_id, b'changed', offset=5 * CHUNK + 100)
        incremental, at_incremental = self.backup(incremental=True)
        self.assertEqual(1, self.show(incremental)['object_count'])
        self.assertEqual(['chunk-00000005'], self.chunk_files(incremental))
        chunks = self.manifest(incremental)['chunks']
        self.assertEqual({'0': full, '1': full, '5': incremental},
                         {i: entry['backup'] for i, entry in chunks.items()})
        self.assertNotEqual(at_full, at_incremental)
        self.assertEqual(at_full, self.restored(full))
        self.assertEqual(at_incremental, self.restored(incremental))

    def test_chain_of_three_and_its_delete_order(self):
        self.write(self.volume_id, os.urandom(3 * CHUNK))
        full, at_full = self.backup()
        self.write(self.volume_id, b'one', offset=CHUNK)
        middle, at_middle = self.backup(incremental=True)
        # Chunk 2 changes, chunk 0 becomes zeros, a new chunk 9 is written.
        self.write(self.volume_id, b'two', offset=2 * CHUNK)
        self.write(self.volume_id, bytes(CHUNK))
        self.write(self.volume_id, b'nine', offset=9 * CHUNK)
        last, at_last = self.backup(incremental=True)
        self.assertEqual(middle, self.backup_row(last)['parent_id'])
        self.assertEqual((3, 1, 2), tuple(
            self.show(b)['object_count'] for b in (full, middle, last)))
        self.assertEqual(['chunk-00000002', 'chunk-00000009'],
                         self.chunk_files(last))
        self.assertEqual({'1': middle, '2': last, '9': last}, {
            i: entry['backup']
            for i, entry in self.manifest(last)['chunks'].items()})
        self.assertEqual([at_full, at_middle, at_last],
                         [self.restored(b) for b in (full, middle, last)])

        # Refused while a backup depends on them, plain or forced: the
        # last backup's chunks are in all three directories.
        for ancestor in (full, middle):
            self.assertEqual(HAS_DEPENDENTS, self.fault(
                self.delete(ancestor, status=400), 400))
            self.assertEqual(HAS_DEPENDENTS, self.fault(self.action(
                ancestor, {'os-force_delete': {}}, status=400), 400))
        self.assertEqual(at_last, self.restored(last))
        # Leaf first: what remains still restores.
        directory = self.directory(last)
        self.deleted(last)
        self.assertFalse(os.path.exists(directory))
        self.assertEqual(HAS_DEPENDENTS, self.fault(
            self.delete(full, status=400), 400))
        self.assertEqual([at_full, at_middle],
                         [self.restored(b) for b in (full, middle)])
        self.deleted(middle)
        self.assertEqual(at_full, self.restored(full))
        self.deleted(full)
        self.assertEqual([], os.listdir(self.config.conf.backup.backup_path))

    def test_old_format_backup_restores_deletes_and_is_a_parent(self):
        self.write(self.volume_id, os.urandom(2 * CHUNK), offset=CHUNK)
        old, at_old = self.backup()
        # What a worker before chunks left: a copy of the volume's file.
        shutil.rmtree(self.directory(old))
        sparse.copy_file(self.volume_file(self.volume_id),
                         self.directory(old))
        self.assertEqual(at_old, self.restored(old))
        self.write(self.volume_id, b'after', offset=CHUNK)
        incremental, at_incremental = self.backup(incremental=True)
        # Nothing to compare with: every non-zero chunk is written.
        self.assertEqual(['chunk-00000001', 'chunk-00000002'],
                         self.chunk_files(incremental))
        self.assertEqual(2, self.show(incremental)['object_count'])
        self.assertEqual(at_incremental, self.restored(incremental))
        self.deleted(incremental)
        self.deleted(old)
        self.assertEqual([], os.listdir(self.config.conf.backup.backup_path))


class CrashedCreateTest(backup_fixtures.BackupTestCase):
    """A create repeated after its worker died starts afresh: what the
    dead one left (a partial directory, one renamed into place but never
    recorded) is replaced."""

    def test_repeated_create_starts_afresh(self):
        self.config.set('backup', backup_file_size=CHUNK)
        volume_id = self.create_volume(size=1).json['volume']['id']
        worker = self.useFixture(vwf.RunningWorker(self))
        vwf.wait_for(lambda: self.volume_row(volume_id)['status'],
                     lambda s: s == 'available')
        path = self.volume_row(volume_id)['provider_location']
        with open(path, 'r+b') as f:
            f.write(b'kept')
        worker.worker.stop()
        # Casts now reach no worker: the create waits in its workers row.
        backup_id = self.backup_id(volume_id)
        backups = self.useFixture(fixtures.TempDir()).path
        target = os.path.join(backups, 'backup-%s' % backup_id)
        for left in (target, os.path.join(backups, '.backup-%s.partial'
                                                   % backup_id)):
            os.makedirs(left)
            for name in ('chunk-00000000', 'chunk-00000007',
                         'manifest.json'):
                with open(os.path.join(left, name), 'wb') as f:
                    f.write(b'left by the dead worker')
        self.useFixture(vwf.RunningWorker(self, backup_path=backups))
        vwf.wait_for(lambda: self.backup_row(backup_id)['status'],
                     lambda s: s == 'available')
        self.assertEqual(['backup-%s' % backup_id], os.listdir(backups))
        self.assertEqual(['chunk-00000000', 'manifest.json'],
                         sorted(os.listdir(target)))
        with open(os.path.join(target, 'chunk-00000000'), 'rb') as f:
            # Compressed by zlib, the default.
            self.assertEqual(b'kept' + bytes(CHUNK - 4),
                             zlib.decompress(f.read()))
