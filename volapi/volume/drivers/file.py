"""The file driver: every volume is a sparse file under ``[volume]
volumes_dir``; a snapshot is a copy of it (a reflink where the filesystem
can share blocks, else a sparse copy); attaching hands out the file's path.

Good for the embedded deployment, development and tests; a single host's
disk is not highly available storage.
"""
import errno
import fcntl
import os

from oslo_log import log as logging

from volapi.volume.drivers import base

LOG = logging.getLogger(__name__)

# ioctl(dest_fd, FICLONE, src_fd): share all blocks of src (btrfs, XFS with
# reflink=1, bcachefs ...). Other filesystems refuse it with one of these.
FICLONE = 0x40049409
_NO_REFLINK = {errno.EOPNOTSUPP, errno.ENOTTY, errno.EXDEV, errno.EINVAL,
               errno.ENOSYS, errno.EBADF, errno.EPERM}
_CHUNK = 1024 * 1024
_ZEROS = bytes(_CHUNK)


class FileDriver(base.VolumeDriver):

    @property
    def volumes_dir(self):
        return self.conf.volume.volumes_dir

    def do_setup(self):
        parse_pools(self.conf.volume.file_pools, self.pool_name)  # refuse
        os.makedirs(self.volumes_dir, mode=0o700, exist_ok=True)

    # -- paths ----------------------------------------------------------------
    def _path(self, kind, resource):
        # provider_location, once recorded, wins: changing volumes_dir later
        # must not lose existing volumes.
        return resource.provider_location or os.path.join(
            self.volumes_dir, '%s-%s' % (kind, resource.id))

    def volume_path(self, volume):
        return self._path('volume', volume)

    def snapshot_path(self, snapshot):
        return self._path('snapshot', snapshot)

    # -- volumes --------------------------------------------------------------
    def create_volume(self, volume):
        path = self.volume_path(volume)
        # Not O_EXCL: a create repeated after a crash reuses its file.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.ftruncate(fd, volume.size * base.GiB)
        finally:
            os.close(fd)
        return {'provider_location': path}

    def create_volume_from_snapshot(self, volume, snapshot):
        return self._create_from(volume, self.snapshot_path(snapshot))

    def create_cloned_volume(self, volume, source):
        return self._create_from(volume, self.volume_path(source))

    def _create_from(self, volume, source_path):
        path = self.volume_path(volume)
        size = volume.size * base.GiB
        if os.path.getsize(source_path) > size:
            raise base.VolumeDriverError(
                'volume %s of %d GiB is smaller than its source %s'
                % (volume.id, volume.size, source_path))
        copy_file(source_path, path)
        os.truncate(path, size)
        return {'provider_location': path}

    def delete_volume(self, volume):
        _remove(self.volume_path(volume))

    def extend_volume(self, volume, new_size):
        path = self.volume_path(volume)
        if os.path.getsize(path) > new_size * base.GiB:
            raise base.VolumeDriverError(
                'volume %s is larger than %d GiB; volumes only grow'
                % (volume.id, new_size))
        os.truncate(path, new_size * base.GiB)

    def retype(self, volume, new_type_id):
        # Every type this backend serves is the same kind of file.
        return True

    # -- snapshots ------------------------------------------------------------
    def create_snapshot(self, snapshot, volume):
        path = self.snapshot_path(snapshot)
        copy_file(self.volume_path(volume), path)
        return {'provider_location': path}

    def delete_snapshot(self, snapshot):
        _remove(self.snapshot_path(snapshot))

    # -- attachments ----------------------------------------------------------
    def initialize_connection(self, volume, connector):
        path = self.volume_path(volume)
        if not os.path.exists(path):
            raise base.VolumeDriverError(
                'volume %s has no file at %s' % (volume.id, path))
        return {'driver_volume_type': 'local',
                'data': {'device_path': path}}

    def terminate_connection(self, volume, connector):
        # A local path is not exported anywhere; there is nothing to undo.
        LOG.debug('volume %s detached from %s', volume.id,
                  (connector or {}).get('host'))

    # -- capacity -------------------------------------------------------------
    def get_capacity(self):
        return self.get_pools()[0]

    def get_pools(self):
        """The pools of ``[volume] file_pools`` (one by default). They
        share volumes_dir: a pool is a share of it, of the configured size
        or, unconfigured, of the filesystem's; placement's allocations,
        not the files, say how much of each is taken."""
        stat = os.statvfs(self.volumes_dir)
        disk_gb = stat.f_blocks * stat.f_frsize // base.GiB
        free_gb = stat.f_bavail * stat.f_frsize // base.GiB
        provisioned = sum(
            entry.stat().st_size for entry in os.scandir(self.volumes_dir)
            if entry.name.startswith('volume-') and entry.is_file())
        pools = []
        for name, capacity in parse_pools(self.conf.volume.file_pools,
                                          self.pool_name):
            pools.append({
                'pool_name': name,
                'total_gb': disk_gb if capacity is None else capacity,
                'free_gb': free_gb if capacity is None else min(
                    capacity, free_gb),
                'provisioned_gb': -(-provisioned // base.GiB),
                # Files are sparse: a volume takes what it holds.
                'thin_provisioning_support': True,
                'multiattach': True})
        return pools


def parse_pools(entries, default_name):
    """[(name, capacity in GiB or None)] of ``[volume] file_pools``
    entries ("name" or "name:capacity"); one pool ``default_name`` if
    there are none. ValueError names a bad entry."""
    pools = []
    for entry in entries or ():
        name, _, capacity = entry.strip().partition(':')
        if not name or '#' in name or '@' in name:
            raise ValueError('[volume] file_pools: bad pool name in %r'
                             % entry)
        if capacity:
            try:
                capacity = int(capacity)
            except ValueError:
                capacity = -1
            if capacity < 0:
                raise ValueError('[volume] file_pools: the capacity of %r '
                                 'must be a whole number of GiB' % entry)
        pools.append((name, capacity if capacity != '' else None))
    if len({name for name, _ in pools}) != len(pools):
        raise ValueError('[volume] file_pools names a pool twice')
    return pools or [(default_name, None)]


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def copy_file(source, dest):
    """Copy ``source`` to ``dest`` keeping holes, atomically: the copy is
    made under a temporary name and renamed, so ``dest`` is never half
    written. Shares blocks (reflink) where the filesystem can."""
    temporary = os.path.join(os.path.dirname(dest),
                             '.%s.partial' % os.path.basename(dest))
    with open(source, 'rb') as src, \
            open(temporary, 'wb', opener=_private) as dst:
        if not _reflink(src.fileno(), dst.fileno()):
            _sparse_copy(src.fileno(), dst.fileno())
        os.fsync(dst.fileno())
    os.rename(temporary, dest)


def _private(path, flags):
    return os.open(path, flags, 0o600)


def _reflink(src_fd, dst_fd):
    try:
        fcntl.ioctl(dst_fd, FICLONE, src_fd)
    except OSError as e:
        if e.errno in _NO_REFLINK:
            return False
        raise
    return True


def _sparse_copy(src_fd, dst_fd):
    size = os.fstat(src_fd).st_size
    os.ftruncate(dst_fd, size)
    for start, end in _data_extents(src_fd, size):
        offset = start
        while offset < end:
            chunk = os.pread(src_fd, min(_CHUNK, end - offset), offset)
            if not chunk:
                break
            # Zeros inside a data extent stay a hole in the copy.
            if chunk != _ZEROS[:len(chunk)]:
                os.pwrite(dst_fd, chunk, offset)
            offset += len(chunk)


def _data_extents(fd, size):
    """(start, end) ranges of ``fd`` that hold data, by SEEK_DATA/SEEK_HOLE;
    the whole file where the filesystem cannot tell."""
    offset = 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError as e:
            if e.errno == errno.ENXIO:  # nothing but holes after offset
                return
            if e.errno == errno.EINVAL:  # no SEEK_DATA support
                yield offset, size
                return
            raise
        end = os.lseek(fd, start, os.SEEK_HOLE)
        yield start, end
        offset = end
