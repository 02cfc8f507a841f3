"""Sparse files: copies that keep holes (sharing blocks where the
filesystem can) and the ranges of a file that hold data; what the file
driver's volumes, snapshots and backups are made of."""
import errno
import fcntl
import os

# ioctl(dest_fd, FICLONE, src_fd): share all blocks of src (btrfs, XFS with
# reflink=1, bcachefs ...). Other filesystems refuse it with one of these.
FICLONE = 0x40049409
_NO_REFLINK = {errno.EOPNOTSUPP, errno.ENOTTY, errno.EXDEV, errno.EINVAL,
               errno.ENOSYS, errno.EBADF, errno.EPERM}
_CHUNK = 1024 * 1024
_ZEROS = bytes(_CHUNK)


def remove(path):
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
    try:
        with open(source, 'rb') as src, \
                open(temporary, 'wb', opener=_private) as dst:
            if not _reflink(src.fileno(), dst.fileno()):
                _sparse_copy(src.fileno(), dst.fileno())
            os.fsync(dst.fileno())
        os.rename(temporary, dest)
    except BaseException:
        remove(temporary)
        raise


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
    for start, end in data_extents(src_fd, size):
        offset = start
        while offset < end:
            chunk = os.pread(src_fd, min(_CHUNK, end - offset), offset)
            if not chunk:
                break
            # Zeros inside a data extent stay a hole in the copy.
            if chunk != _ZEROS[:len(chunk)]:
                os.pwrite(dst_fd, chunk, offset)
            offset += len(chunk)


def data_extents(fd, size):
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
