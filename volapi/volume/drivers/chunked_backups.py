"""The file driver's backups, chunked as Cinder's chunked backup drivers
(posix, NFS, Swift) keep them. A backup is a directory ``backup-<id>``
under ``[backup] backup_path`` holding the chunks it wrote
(``chunk-<index>``) and ``manifest.json``::

    {"version": 1, "chunk_size": <bytes>, "size": <bytes of data>,
     "chunks": {"<index>": {"sha256": <hex digest of the data>,
                            "backup": <id of the backup holding it>,
                            "compression": "zlib" | "bz2"}}}

A chunk is stored compressed when ``[backup]
backup_compression_algorithm`` makes it smaller, and its entry says so
(no "compression": stored as it is, as in manifests written before
chunks were compressed). The digest is of the data itself, so an
incremental compares chunks whatever their parent's compression, and a
restore checks what it decompressed.

An all-zero chunk has no entry and no file (volumes are sparse files).
A full backup writes every other chunk; an incremental one (it has a
parent) writes those whose digest differs from its parent's entry and
names the parent's holder for the others, so it stores only what changed.
The API refuses to delete a backup that has dependents, so a holder
outlives every backup naming it.

Before chunks, a backup was one file ``backup-<id>``, a copy of the
volume's file: such a backup still restores and deletes, and an
incremental whose parent is one stores every chunk."""
import bz2
import hashlib
import json
import os
import shutil
import zlib

from volapi.volume.drivers import base
from volapi.volume.drivers import sparse

MANIFEST = 'manifest.json'
VERSION = 1
# How a chunk entry's "compression" is made, and undone (by a
# decompressor that stops at a given length).
_CODECS = {'zlib': (zlib.compress, zlib.decompressobj),
           'bz2': (bz2.compress, bz2.BZ2Decompressor)}
# Cinder's names of the algorithms, as [backup]
# backup_compression_algorithm takes them.
_ALGORITHMS = {'zlib': 'zlib', 'gzip': 'zlib', 'bz2': 'bz2',
               'none': None, 'off': None, 'no': None}


class Corrupt(base.VolumeDriverError):
    """A backup's chunk is missing or does not hold what its manifest
    says."""


def location(backup_path, backup_id):
    """Where backup ``backup_id`` is: its directory or, of the old format,
    its file."""
    return os.path.join(backup_path, 'backup-%s' % backup_id)


def is_chunked(path):
    return os.path.isdir(path)


def _partial(path):
    # Hidden, next to its target: renamed into place when complete.
    return os.path.join(os.path.dirname(path),
                        '.%s.partial' % os.path.basename(path))


def _chunk_name(index):
    return 'chunk-%08d' % index


def manifest(path):
    """The manifest of the backup at ``path``; None for one of the old
    format (a single file) or none at all."""
    if not is_chunked(path):
        return None
    with open(os.path.join(path, MANIFEST), 'rb') as f:
        return json.load(f)


def create(backup_path, backup_id, parent_id, source, chunk_size,
           compression=None):
    """Back the file ``source`` up as backup ``backup_id``, incremental to
    ``parent_id`` if given (in the parent's chunk size: a chain has one),
    its chunks compressed by ``compression`` (an algorithm's name as
    ``[backup] backup_compression_algorithm`` takes it). Made afresh when
    repeated after a crash. Returns how many chunks it wrote."""
    algorithm = _ALGORITHMS[compression.lower() if compression else 'none']
    os.makedirs(backup_path, mode=0o700, exist_ok=True)
    parent = manifest(location(backup_path, parent_id)) \
        if parent_id else None
    if parent is not None:
        chunk_size = parent['chunk_size']
    inherited = parent['chunks'] if parent is not None else {}
    target = location(backup_path, backup_id)
    temporary = _partial(target)
    remove(temporary)  # left by a create that crashed
    os.mkdir(temporary, 0o700)
    try:
        chunks, written = {}, 0
        with open(source, 'rb') as src:
            size = os.fstat(src.fileno()).st_size
            for index, data in _data_chunks(src.fileno(), size, chunk_size):
                digest = hashlib.sha256(data).hexdigest()
                before = inherited.get(str(index))
                if before is not None and before['sha256'] == digest:
                    chunks[str(index)] = before
                    continue
                entry = {'sha256': digest, 'backup': backup_id}
                stored = _compressed(data, algorithm)
                if stored is not None:
                    data = stored
                    entry['compression'] = algorithm
                _write(os.path.join(temporary, _chunk_name(index)), data)
                chunks[str(index)] = entry
                written += 1
        _write(os.path.join(temporary, MANIFEST), json.dumps(
            {'version': VERSION, 'chunk_size': chunk_size, 'size': size,
             'chunks': chunks}, sort_keys=True).encode())
        # One a crashed create renamed into place but never recorded: the
        # backup is still 'creating', so no other backup names it.
        remove(target)
        os.rename(temporary, target)
        _fsync_directory(backup_path)
    except BaseException:
        remove(temporary)
        raise
    return written


def data_size(path):
    """How many bytes of data the backup at ``path`` holds."""
    found = manifest(path)
    return os.path.getsize(path) if found is None else found['size']


def restore(backup_path, path, dest, size):
    """Write the data of the backup at ``path`` into the file ``dest``,
    of ``size`` bytes, atomically (made under a temporary name, then
    renamed): holes where the data is zeros."""
    found = manifest(path)
    if found is None:  # the old format: a copy of the volume's file
        sparse.copy_file(path, dest)
        os.truncate(dest, size)
        return
    temporary = _partial(dest)
    chunk_size = found['chunk_size']
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.ftruncate(fd, size)
            for index, entry in sorted(found['chunks'].items(),
                                       key=lambda item: int(item[0])):
                data = _chunk(backup_path, entry, int(index), chunk_size)
                os.pwrite(fd, data, int(index) * chunk_size)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temporary, dest)
    except BaseException:
        sparse.remove(temporary)
        raise


def _chunk(backup_path, entry, index, chunk_size):
    name = os.path.join(location(backup_path, entry['backup']),
                        _chunk_name(index))
    try:
        with open(name, 'rb') as f:
            data = f.read()
    except FileNotFoundError:
        raise Corrupt('chunk %d of backup %s is missing (%s)'
                      % (index, entry['backup'], name)) from None
    algorithm = entry.get('compression')
    if algorithm is not None:
        data = _decompressed(data, algorithm, chunk_size)
        if data is None:
            raise Corrupt('chunk %d of backup %s does not decompress as %s '
                          '(%s)' % (index, entry['backup'], algorithm,
                                    name))
    if hashlib.sha256(data).hexdigest() != entry['sha256']:
        raise Corrupt('chunk %d of backup %s does not hold what it held '
                      '(%s)' % (index, entry['backup'], name))
    return data


def delete(backup_path, backup_id):
    """Remove the backup (of either format) and what a crashed create
    left of it; one that is gone is no error."""
    target = location(backup_path, backup_id)
    remove(_partial(target))
    remove(target)


def remove(path):
    """Remove the file or directory ``path``, if there is one."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        sparse.remove(path)


def _data_chunks(fd, size, chunk_size):
    """(index, bytes) of each chunk of ``fd`` that is not all zeros, in
    order; holes are skipped unread."""
    last = -1
    for start, end in sparse.data_extents(fd, size):
        for index in range(max(start // chunk_size, last + 1),
                           -(-end // chunk_size)):
            last = index
            data = os.pread(fd, chunk_size, index * chunk_size)
            if data.count(0) != len(data):
                yield index, data


def _compressed(data, algorithm):
    """``data`` compressed by ``algorithm``; None when there is none or
    it would not shrink (already compressed or random data)."""
    if algorithm is None:
        return None
    packed = _CODECS[algorithm][0](data)
    return packed if len(packed) < len(data) else None


def _decompressed(data, algorithm, chunk_size):
    """``data`` decompressed by ``algorithm``, or None if it does not
    decompress whole into at most ``chunk_size`` bytes (a damaged chunk
    must not fill the memory)."""
    try:
        decompressor = _CODECS[algorithm][1]()
        found = decompressor.decompress(data, chunk_size + 1)
    except (KeyError, OSError, ValueError, EOFError, zlib.error):
        return None
    if len(found) > chunk_size or not decompressor.eof:
        return None
    return found


def _write(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_directory(path):
    # The rename is durable once the directory is.
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
