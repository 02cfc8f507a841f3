"""The interface every volume driver implements.

A driver does storage work and nothing else: it never changes a status.
The manager claims the operation, calls one method, and ends the
transition with a compare-and-swap that depends only on whether the method
returned or raised. So a method must either finish its work or raise, and
the destructive ones must be idempotent: after a worker dies, an operation
may be repeated (a delete of what is already gone must succeed).

Objects passed in are oslo.versionedobjects (objects.Volume, Snapshot,
Backup);
sizes are in GiB. See doc/drivers.md for the contract in prose.
"""
import abc

GiB = 1024 ** 3


class VolumeDriverError(Exception):
    """A driver could not do what it was asked; the operation fails and the
    resource goes to its error status."""


class InvalidReference(VolumeDriverError):
    """A reference to an existing storage object (``cinder manage``) names
    none the driver may take: a bad form, nothing there, or one the driver
    refuses. Its message says which."""


class VolumeDriver(abc.ABC):

    def __init__(self, conf):
        self.conf = conf

    def do_setup(self):
        """Prepare the backend when the worker starts (create directories,
        check credentials). Raise to refuse to start."""

    # -- what the backend offers (Cinder's get-capabilities) ------------------
    vendor_name = 'volapi'
    driver_version = '1.0.0'
    storage_protocol = None

    def capabilities(self):
        """The backend's static stats and the properties (extra specs) it
        honours, as Cinder's ``get-capabilities`` shows them: each
        property ``{'title', 'description', 'type'}``."""
        return {'volume_backend_name': self.conf.volume.backend_name,
                'vendor_name': self.vendor_name,
                'driver_version': self.driver_version,
                'storage_protocol': self.storage_protocol,
                'properties': self.properties()}

    def properties(self):
        """{name: {'title', 'description', 'type'}} of the extra specs
        the driver honours; none unless a driver says."""
        return {}

    @property
    def pool_name(self):
        """The pool volumes of this driver live in: the part after '#' of
        a volume's host. One pool per backend unless a driver says more."""
        return self.conf.volume.backend_name

    # -- volumes ------------------------------------------------------------
    @abc.abstractmethod
    def create_volume(self, volume):
        """Make an empty volume of ``volume.size`` GiB. Returns the values to
        record on the volume, e.g. ``{'provider_location': ...}``."""

    @abc.abstractmethod
    def create_volume_from_snapshot(self, volume, snapshot):
        """Make ``volume`` (``volume.size`` GiB, at least the snapshot's
        size) holding the data of ``snapshot``. Returns values as
        create_volume does."""

    @abc.abstractmethod
    def create_cloned_volume(self, volume, source):
        """Make ``volume`` holding the data of volume ``source``. Returns
        values as create_volume does."""

    @abc.abstractmethod
    def delete_volume(self, volume):
        """Remove the volume's storage. A volume that has none (its create
        failed, or an earlier delete got that far) is not an error."""

    @abc.abstractmethod
    def extend_volume(self, volume, new_size):
        """Grow the volume from ``volume.size`` to ``new_size`` GiB, keeping
        its data."""

    def migrate_volume(self, volume, target_host, name_id):
        """Copy the data of ``volume`` into the pool of ``target_host``
        (``host@backend#pool``), named after ``name_id`` (the volume's name
        from then on). Idempotent: a copy found made is not made again.
        Returns the values to record on the volume once it moved
        (``provider_location``)."""
        raise VolumeDriverError('driver %s cannot migrate volumes'
                                % type(self).__name__)

    def locate(self, kind, resource):
        """(pool name, location) of the data of ``resource``, a volume or a
        snapshot (``kind`` 'volume' or 'snapshot'); None if it has none.
        What the worker's start-up reshape assigns allocations from. A
        driver that cannot tell says the pool its host names."""
        host = getattr(resource, 'host', None) if kind == 'volume' else None
        if not host or '#' not in host:
            return None
        return host.partition('#')[2], resource.provider_location

    def retype(self, volume, new_type_id):
        """Make the volume's storage match volume type ``new_type_id`` in
        place. Returns True if done, False if this driver cannot do it
        without moving the data (the retype then fails)."""
        return False

    # -- existing storage: cinder manage / unmanage ---------------------------
    def manageable_volumes(self):
        """The backend's storage objects that could become volumes, the
        volumes' own included (the API tells them apart): ``[{'reference':
        {'source-name': ...}, 'size': GiB, 'pool': pool name}]``."""
        return []

    def manage_existing_get_size(self, reference):
        """(pool name, size in GiB) of the storage object ``reference``
        names (Cinder's ``{'source-name': ...}``), or InvalidReference."""
        raise InvalidReference('driver %s cannot manage existing storage'
                               % type(self).__name__)

    def manage_existing(self, volume, reference):
        """Make the object ``reference`` names the storage of ``volume``
        (of ``volume.size`` GiB, in the pool its host names). Idempotent: a
        volume whose storage is there and the object gone is done. Returns
        values as create_volume does; InvalidReference if there is no such
        object."""
        raise InvalidReference('driver %s cannot manage existing storage'
                               % type(self).__name__)

    def unmanage(self, volume):
        """Let go of the volume's storage: it stays on the backend, where
        manageable_volumes lists it again. Nothing to do unless a driver
        says."""

    def manageable_snapshots(self):
        """The backend's storage objects that could become snapshots, the
        snapshots' and volumes' own included (the API tells them apart),
        as manageable_volumes lists them, each with its
        ``'source_reference'`` (the volume it is a snapshot of, as a
        reference, or None where the backend cannot tell)."""
        return []

    def manage_existing_snapshot_get_size(self, reference):
        """(pool name, size in GiB) of the storage object ``reference``
        names, to be taken as a snapshot, or InvalidReference."""
        raise InvalidReference('driver %s cannot manage existing snapshots'
                               % type(self).__name__)

    def manage_existing_snapshot(self, snapshot, volume, reference):
        """Make the object ``reference`` names the storage of ``snapshot``
        of ``volume``. Idempotent, as manage_existing. Returns values as
        create_snapshot does; InvalidReference if there is no such
        object."""
        raise InvalidReference('driver %s cannot manage existing snapshots'
                               % type(self).__name__)

    def unmanage_snapshot(self, snapshot):
        """Let go of the snapshot's storage: it stays on the backend. Nothing
        to do unless a driver says."""

    # -- snapshots ----------------------------------------------------------
    @abc.abstractmethod
    def create_snapshot(self, snapshot, volume):
        """Copy the current data of ``volume`` into ``snapshot``. Returns
        values to record on the snapshot (``provider_location``)."""

    @abc.abstractmethod
    def delete_snapshot(self, snapshot):
        """Remove the snapshot's storage; one that has none is no error."""

    def revert_to_snapshot(self, volume, snapshot):
        """Make ``volume``'s data ``snapshot``'s again (the snapshot is
        the volume's latest, of its size). Idempotent: a revert repeated
        after a crash writes the same data."""
        raise NotImplementedError(
            '%s cannot revert a volume to a snapshot' % type(self).__name__)

    # -- backups ------------------------------------------------------------
    def create_backup(self, backup, volume, snapshot=None):
        """Copy the data of ``volume`` (or of its ``snapshot``) into
        ``backup``, apart from the pool; an incremental backup (its
        ``parent_id`` names its parent, an available backup of the same
        volume) may store only what changed since its parent and refer to
        the parent for the rest: a backup is not deleted while one depends
        on it. Made afresh when repeated after a crash. Returns values to
        record on the backup: ``object_count`` (how many objects it wrote)
        and ``service`` (what keeps it)."""
        raise VolumeDriverError('driver %s cannot back volumes up'
                                % type(self).__name__)

    def restore_backup(self, backup, volume):
        """Write ``backup``'s data onto ``volume`` (made here if it has no
        storage yet: a volume created for the restore), at least as big.
        Returns values to record on the volume (``provider_location``)."""
        raise VolumeDriverError('driver %s cannot restore backups'
                                % type(self).__name__)

    def delete_backup(self, backup):
        """Remove the backup's data; one that has none is no error."""

    # -- attachments --------------------------------------------------------
    @abc.abstractmethod
    def initialize_connection(self, volume, connector):
        """Export the volume to the host described by ``connector`` (the
        os-brick connector dict of the attaching host) and return the
        connection info it needs:
        ``{'driver_volume_type': <os-brick protocol>, 'data': {...}}``."""

    @abc.abstractmethod
    def terminate_connection(self, volume, connector):
        """Undo initialize_connection for ``connector``."""

    # -- capacity -----------------------------------------------------------
    @abc.abstractmethod
    def get_capacity(self):
        """What the backend holds, in GiB: ``{'pool_name': ...,
        'total_gb': ..., 'free_gb': ..., 'provisioned_gb': ...}``
        (provisioned: the sum of the sizes of the volumes it holds)."""

    def get_pools(self):
        """Every pool the backend offers, as placement is told of them:
        get_capacity()'s keys plus ``thin_provisioning_support`` and
        ``multiattach`` (capabilities, which become traits). One pool
        unless a driver serves more."""
        return [dict(self.get_capacity(), thin_provisioning_support=False,
                     multiattach=False)]
