"""The file driver: every volume is a sparse file in its pool's directory;
a snapshot is a copy of it (a reflink where the filesystem can share
blocks, else a sparse copy); a backup is the chunks of its data that its
parent (if incremental) does not hold, in ``[backup] backup_path`` (see
:mod:`chunked_backups`); attaching hands out the file's path.

Pools (``[volume] file_pools``) are directories ``<volumes_dir>/<pool>``;
with no pool configured, the one pool is ``volumes_dir`` itself (the
layout of volumes made before pools), and such files count as the first
configured pool's once pools are configured. Where a file is says which
pool holds its data (:meth:`FileDriver.locate`): moving files between
pool directories, then restarting the worker, reshapes placement.

Good for the embedded deployment, development and tests; a single host's
disk is not highly available storage.
"""
import os

from oslo_log import log as logging

from volapi.volume.drivers import base
from volapi.volume.drivers import chunked_backups
from volapi.volume.drivers import sparse

LOG = logging.getLogger(__name__)


class FileDriver(base.VolumeDriver):

    # initialize_connection hands out a local path.
    storage_protocol = 'local'

    def properties(self):
        return {'thin_provisioning': {
            'title': 'Thin Provisioning',
            'description': 'Sets thin provisioning: volumes are sparse '
                           'files, taking room as data is written.',
            'type': 'boolean'}}

    @property
    def volumes_dir(self):
        return self.conf.volume.volumes_dir

    def do_setup(self):
        for name in self.pool_names():  # refuses a bad [volume] file_pools
            os.makedirs(self.pool_dir(name), mode=0o700, exist_ok=True)

    # -- pools and paths ----------------------------------------------------------
    def pool_names(self):
        return [name for name, _ in parse_pools(self.conf.volume.file_pools,
                                                self.pool_name)]

    def pool_dir(self, pool):
        if not self.conf.volume.file_pools:
            return self.volumes_dir
        return os.path.join(self.volumes_dir, pool)

    def _pool_of(self, host):
        """The pool of ``host@backend#pool``; this backend's first pool for
        a resource without one."""
        pool = host.partition('#')[2] if host and '#' in host else None
        return pool or self.pool_names()[0]

    @staticmethod
    def _file_name(kind, resource):
        # After a migration the data is named after the migration
        # (name_id), as Cinder names it.
        return '%s-%s' % (kind, _field(resource, 'name_id') or resource.id)

    def _places(self, kind, resource, pool):
        """(pool, path) where the file may be, the likeliest first: the
        recorded provider_location, ``pool``'s directory, the other pools',
        the flat layout of before pools (the first pool's)."""
        name = self._file_name(kind, resource)
        names = self.pool_names()
        if resource.provider_location:
            yield self._pool_of_path(resource.provider_location), \
                resource.provider_location
        for candidate in [pool] + [n for n in names if n != pool]:
            yield candidate, os.path.join(self.pool_dir(candidate), name)
        yield names[0], os.path.join(self.volumes_dir, name)

    def _pool_of_path(self, path):
        directory = os.path.dirname(os.path.normpath(path))
        names = self.pool_names()
        for name in names:
            if os.path.normpath(self.pool_dir(name)) == directory:
                return name
        if directory == os.path.normpath(self.volumes_dir):
            return names[0]  # the flat layout of before pools
        return None

    def _path(self, kind, resource, pool=None):
        """The resource's file: where it is, else where it is to be made (in
        ``pool``, by default its host's)."""
        if pool is None:
            pool = self._pool_of(_field(resource, 'host'))
        found = self._find(kind, resource, pool)
        if found is not None:
            return found[1]
        # provider_location, once recorded, wins: changing volumes_dir later
        # must not lose existing volumes.
        return resource.provider_location or os.path.join(
            self.pool_dir(pool), self._file_name(kind, resource))

    def _find(self, kind, resource, pool):
        for place in self._places(kind, resource, pool):
            if os.path.exists(place[1]):
                return place
        return None

    def volume_path(self, volume):
        return self._path('volume', volume)

    def snapshot_path(self, snapshot, volume=None):
        # A snapshot is made next to its volume's data.
        return self._path('snapshot', snapshot, volume and self._pool_of_path(
            self.volume_path(volume)))

    def locate(self, kind, resource):
        """(pool, path) of the file of ``resource`` (a volume or a
        snapshot, ``kind`` 'volume' or 'snapshot'), None if it has none. A
        file outside every pool directory (provider_location elsewhere)
        has pool None."""
        return self._find(kind, resource, self.pool_names()[0])

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
        sparse.copy_file(source_path, path)
        os.truncate(path, size)
        return {'provider_location': path}

    def delete_volume(self, volume):
        sparse.remove(self.volume_path(volume))

    def extend_volume(self, volume, new_size):
        path = self.volume_path(volume)
        if os.path.getsize(path) > new_size * base.GiB:
            raise base.VolumeDriverError(
                'volume %s is larger than %d GiB; volumes only grow'
                % (volume.id, new_size))
        os.truncate(path, new_size * base.GiB)

    def migrate_volume(self, volume, target_host, name_id):
        """Copy the volume's data into the pool of ``target_host`` as
        ``volume-<name_id>`` (the pools share one volumes_dir: the same
        machine, or a directory shared between the workers). A copy found
        made is not made again."""
        pool = self._pool_of(target_host)
        target = os.path.join(self.pool_dir(pool), 'volume-%s' % name_id)
        if not os.path.exists(target):
            os.makedirs(self.pool_dir(pool), mode=0o700, exist_ok=True)
            sparse.copy_file(self.volume_path(volume), target)
        return {'provider_location': target}

    def retype(self, volume, new_type_id):
        # Every type this backend serves is the same kind of file.
        return True

    # -- existing files: cinder manage / unmanage -------------------------------
    def manageable_volumes(self):
        found = []
        for pool in self.pool_names():
            for entry in _files(self.pool_dir(pool)):
                found.append({'reference': {'source-name': entry.name},
                              'size': _gib(entry.stat().st_size),
                              'pool': pool})
        return found

    def _referenced(self, reference):
        """(pool, path) of the file ``reference`` names: a plain name (no
        directory, not hidden) of a regular file in a pool's directory."""
        name = reference.get('source-name') \
            if isinstance(reference, dict) else None
        if not isinstance(name, str) or not name or name.startswith('.') \
                or os.path.basename(name) != name:
            raise base.InvalidReference(
                "the reference must be {'source-name': <the name of a file "
                "in a pool's directory>}")
        for pool in self.pool_names():
            path = os.path.join(self.pool_dir(pool), name)
            if os.path.isfile(path) and not os.path.islink(path):
                return pool, path
        raise base.InvalidReference('no pool of this backend has a file '
                                    'named %s' % name)

    def manage_existing_get_size(self, reference):
        pool, path = self._referenced(reference)
        return pool, _gib(os.path.getsize(path))

    def manage_existing(self, volume, reference):
        target = os.path.join(self.pool_dir(self._pool_of(volume.host)),
                              self._file_name('volume', volume))
        self._take(reference, target)
        # A volume holds whole GiB: the tail of the last one reads zeros.
        if os.path.getsize(target) < volume.size * base.GiB:
            os.truncate(target, volume.size * base.GiB)
        return {'provider_location': target}

    # A file is a file: any one may be taken as a snapshot, and nothing
    # on disk says which volume it was taken of.
    def manageable_snapshots(self):
        return [dict(entry, source_reference=None)
                for entry in self.manageable_volumes()]

    def _take(self, reference, target):
        """Rename the file ``reference`` names to ``target``; idempotent."""
        try:
            _, path = self._referenced(reference)
        except base.InvalidReference:
            if not os.path.exists(target):  # else renamed before a crash
                raise
        else:
            os.rename(path, target)

    manage_existing_snapshot_get_size = manage_existing_get_size

    def manage_existing_snapshot(self, snapshot, volume, reference):
        """Rename the file to ``snapshot-<id>`` next to the volume's."""
        target = os.path.join(os.path.dirname(self.volume_path(volume)),
                              self._file_name('snapshot', snapshot))
        self._take(reference, target)
        return {'provider_location': target}

    # -- snapshots ------------------------------------------------------------
    def create_snapshot(self, snapshot, volume):
        path = self.snapshot_path(snapshot, volume)
        sparse.copy_file(self.volume_path(volume), path)
        return {'provider_location': path}

    def delete_snapshot(self, snapshot):
        sparse.remove(self.snapshot_path(snapshot))

    def revert_to_snapshot(self, volume, snapshot):
        # Atomic: the volume's file is the old data or the snapshot's.
        sparse.copy_file(self.snapshot_path(snapshot, volume),
                         self.volume_path(volume))

    # -- backups --------------------------------------------------------------
    # Cinder's name for what keeps a backup (its posix driver's).
    backup_service = 'volapi.volume.drivers.file'

    def backup_path(self, backup):
        """The backup's directory (of the old format: its file)."""
        return chunked_backups.location(self.conf.backup.backup_path,
                                        backup.id)

    def create_backup(self, backup, volume, snapshot=None):
        """Chunks of the volume's data (see chunked_backups): an
        incremental backup (with a parent) writes only those that changed
        since its parent."""
        source = self.snapshot_path(snapshot, volume) if snapshot \
            else self.volume_path(volume)
        written = chunked_backups.create(
            self.conf.backup.backup_path, backup.id,
            _field(backup, 'parent_id'), source,
            self.conf.backup.backup_file_size,
            self.conf.backup.backup_compression_algorithm)
        # Cinder's object_count: the objects this backup wrote.
        return {'object_count': written, 'service': self.backup_service}

    def restore_backup(self, backup, volume):
        path = self.volume_path(volume)
        size = volume.size * base.GiB
        backup_path = self.backup_path(backup)
        if chunked_backups.data_size(backup_path) > size:
            raise base.VolumeDriverError(
                'volume %s of %d GiB is smaller than backup %s'
                % (volume.id, volume.size, backup.id))
        chunked_backups.restore(self.conf.backup.backup_path, backup_path,
                                path, size)
        return {'provider_location': path}

    def delete_backup(self, backup):
        chunked_backups.delete(self.conf.backup.backup_path, backup.id)

    # -- attachments ----------------------------------------------------------
    def initialize_connection(self, volume, connector):
        path = self.volume_path(volume)
        if not os.path.exists(path):
            raise base.VolumeDriverError(
                'volume %s has no file at %s' % (volume.id, path))
        LOG.debug('volume %s attached to %s', volume.id,
                  (connector or {}).get('host'))
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
        pools = []
        for name, capacity in parse_pools(self.conf.volume.file_pools,
                                          self.pool_name):
            provisioned = _provisioned(self.pool_dir(name))
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


def _field(resource, name):
    """A field of a volume or snapshot object; None where it has none or
    it is not set."""
    if name not in getattr(resource, 'fields', ()) or \
            not resource.obj_attr_is_set(name):
        return None
    return getattr(resource, name)


def _gib(size):
    """Bytes as whole GiB, rounded up (a volume holds whole GiB)."""
    return -(-size // base.GiB)


def _files(directory):
    """The regular files of ``directory`` (not hidden: copies in
    progress), by name."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except FileNotFoundError:
        return []
    return [e for e in entries if not e.name.startswith('.')
            and e.is_file(follow_symlinks=False)]


def _provisioned(directory):
    try:
        return sum(entry.stat().st_size for entry in os.scandir(directory)
                   if entry.name.startswith('volume-') and entry.is_file())
    except FileNotFoundError:
        return 0


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
