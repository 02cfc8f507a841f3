"""The volume service's tables: volumes, types, snapshots, backups, groups,
transfers, services and the workers rows of operations in flight."""
import sqlalchemy as sa

from db.models.base import _now
from db.models.base import Base
from db.models.base import DateTime
from db.models.base import image_properties
from db.models.base import key_value_pairs
from db.models.base import NAME
from db.models.base import PROJECT_ID
from db.models.base import SoftDeleteMixin
from db.models.base import TimestampMixin
from db.models.base import UUID


class VolumeType(SoftDeleteMixin, Base):
    __tablename__ = 'volume_types'
    cas_name = 'volume type'
    id = sa.Column(UUID, primary_key=True)
    name = sa.Column(NAME, nullable=False)
    description = sa.Column(NAME)
    is_public = sa.Column(sa.Boolean, default=True, nullable=False)
    # The name while the type is live, NULL once soft-deleted: its unique
    # constraint makes "no two live types share a name" hold under
    # concurrent creates (migration 0002_volume_types).
    live_name = sa.Column(NAME)
    # The QoS specs of the type's volumes (Cinder's association), one at
    # most: an association is a compare-and-swap of this column.
    qos_specs_id = sa.Column(UUID, sa.ForeignKey('qos_specs.id'),
                             index=True)
    __table_args__ = (sa.UniqueConstraint(
        'live_name', name='uniq_volume_types0live_name'),)


class QosSpecs(SoftDeleteMixin, Base):
    """A named set of quality-of-service keys for volume types (Cinder's
    qos-specs); ``consumer`` says who enforces them."""
    __tablename__ = 'qos_specs'
    cas_name = 'qos specs'
    id = sa.Column(UUID, primary_key=True)
    name = sa.Column(NAME, nullable=False)
    consumer = sa.Column(sa.String(16), nullable=False)
    # As volume_types.live_name: the name while live, NULL once deleted,
    # unique, so two creates of one name cannot both succeed.
    live_name = sa.Column(NAME)
    __table_args__ = (sa.UniqueConstraint(
        'live_name', name='uniq_qos_specs0live_name'),)


class QosSpecsItem(key_value_pairs('qos_specs_id', 'qos_specs'), Base):
    """One key of a QoS specs (``total_iops_sec``...)."""
    __tablename__ = 'qos_specs_items'


class VolumeTypeProject(Base):
    """A project that may use a private volume type (Cinder's type access
    list)."""
    __tablename__ = 'volume_type_projects'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    volume_type_id = sa.Column(UUID, sa.ForeignKey('volume_types.id',
                                                   ondelete='CASCADE'),
                               nullable=False)
    project_id = sa.Column(PROJECT_ID, nullable=False)
    created_at = sa.Column(DateTime, default=_now, nullable=False)
    __table_args__ = (sa.UniqueConstraint('volume_type_id', 'project_id'),)


class DefaultVolumeType(TimestampMixin, Base):
    """A project's own default volume type (Cinder's default_volume_types,
    3.62): what its volumes created without a type get."""
    __tablename__ = 'default_volume_types'
    cas_name = 'default volume type'
    project_id = sa.Column(PROJECT_ID, primary_key=True)
    # Types are soft-deleted: a type delete refuses one that is a default.
    volume_type_id = sa.Column(UUID, sa.ForeignKey('volume_types.id'),
                               nullable=False, index=True)


class VolumeTypeExtraSpec(key_value_pairs('volume_type_id', 'volume_types'),
                          Base):
    __tablename__ = 'volume_type_extra_specs'


class Volume(SoftDeleteMixin, Base):
    __tablename__ = 'volumes'
    __table_args__ = (sa.Index('volumes_project_id_deleted_idx',
                               'project_id', 'deleted'),
                      sa.Index('volumes_group_id_idx', 'group_id'),
                      sa.Index('volumes_backup_id_idx', 'backup_id'))
    cas_name = 'volume'
    id = sa.Column(UUID, primary_key=True)
    user_id = sa.Column(NAME)
    project_id = sa.Column(PROJECT_ID)
    host = sa.Column(NAME)
    # cluster@backend#pool: any live worker of the cluster serves it.
    cluster_name = sa.Column(NAME)
    size = sa.Column(sa.Integer, nullable=False)
    availability_zone = sa.Column(NAME)
    status = sa.Column(NAME, nullable=False)
    previous_status = sa.Column(NAME)
    attach_status = sa.Column(NAME, nullable=False, default='detached')
    migration_status = sa.Column(NAME)
    # The migration in flight: the placement consumer holding the source
    # pool, and the name its copy of the data is made under.
    migration_id = sa.Column(UUID)
    # What the data is named after once moved (Cinder's _name_id); NULL:
    # the volume's id.
    name_id = sa.Column(UUID)
    display_name = sa.Column(NAME)
    display_description = sa.Column(NAME)
    volume_type_id = sa.Column(UUID, sa.ForeignKey('volume_types.id'))
    source_volid = sa.Column(UUID)
    snapshot_id = sa.Column(UUID)
    # The backup the volume is created from (restored from while it is
    # 'creating').
    backup_id = sa.Column(UUID)
    bootable = sa.Column(sa.Boolean, default=False, nullable=False)
    multiattach = sa.Column(sa.Boolean, default=False, nullable=False)
    provider_location = sa.Column(NAME)
    replication_status = sa.Column(NAME)
    consistencygroup_id = sa.Column(UUID)
    group_id = sa.Column(UUID)
    launched_at = sa.Column(DateTime)
    terminated_at = sa.Column(DateTime)


class VolumeMetadata(key_value_pairs('volume_id', 'volumes'), Base):
    __tablename__ = 'volume_metadata'


class VolumeGlanceMetadata(image_properties('volume_id', 'volumes'), Base):
    """A volume's image metadata (``volume_image_metadata``), which its
    snapshots and the volumes made from them or from it inherit."""
    __tablename__ = 'volume_glance_metadata'


class VolumeAdminMetadata(key_value_pairs('volume_id', 'volumes'), Base):
    """Metadata only admins and the service see or set (``readonly``...)."""
    __tablename__ = 'volume_admin_metadata'


class GroupType(SoftDeleteMixin, Base):
    __tablename__ = 'group_types'
    cas_name = 'group type'
    id = sa.Column(UUID, primary_key=True)
    name = sa.Column(NAME, nullable=False)
    description = sa.Column(NAME)
    is_public = sa.Column(sa.Boolean, default=True, nullable=False)
    # As VolumeType.live_name: no two live group types share a name.
    live_name = sa.Column(NAME)
    __table_args__ = (sa.UniqueConstraint(
        'live_name', name='uniq_group_types0live_name'),)


class GroupTypeSpec(key_value_pairs('group_type_id', 'group_types'), Base):
    __tablename__ = 'group_type_specs'


class Group(SoftDeleteMixin, Base):
    """A generic volume group (Cinder's ``groups``); its volumes name it
    in ``volumes.group_id``."""
    __tablename__ = 'groups'
    __table_args__ = (
        sa.Index('groups_project_id_deleted_idx', 'project_id', 'deleted'),
        sa.Index('groups_group_type_id_idx', 'group_type_id', 'deleted'))
    cas_name = 'group'
    id = sa.Column(UUID, primary_key=True)
    user_id = sa.Column(NAME)
    project_id = sa.Column(PROJECT_ID)
    # The pool every volume of the group is on (NULL until the first).
    host = sa.Column(NAME)
    availability_zone = sa.Column(NAME)
    name = sa.Column(NAME)
    description = sa.Column(NAME)
    status = sa.Column(NAME, nullable=False)
    group_type_id = sa.Column(UUID, sa.ForeignKey('group_types.id'),
                              nullable=False)
    # The source of a group made by create-from-src (one of them).
    group_snapshot_id = sa.Column(UUID)
    source_group_id = sa.Column(UUID)


class GroupSnapshot(SoftDeleteMixin, Base):
    """A snapshot of every volume of a group, taken at once (Cinder's
    ``group_snapshots``); its snapshots name it in
    ``snapshots.group_snapshot_id``."""
    __tablename__ = 'group_snapshots'
    __table_args__ = (
        sa.Index('group_snapshots_group_id_idx', 'group_id', 'deleted'),
        sa.Index('group_snapshots_project_id_idx', 'project_id', 'deleted'))
    cas_name = 'group snapshot'
    id = sa.Column(UUID, primary_key=True)
    group_id = sa.Column(UUID, sa.ForeignKey('groups.id'), nullable=False)
    user_id = sa.Column(NAME)
    project_id = sa.Column(PROJECT_ID)
    name = sa.Column(NAME)
    description = sa.Column(NAME)
    status = sa.Column(NAME, nullable=False)
    group_type_id = sa.Column(UUID, nullable=False)


class GroupVolumeTypeMapping(Base):
    """A volume type the volumes of a group may have."""
    __tablename__ = 'group_volume_type_mapping'
    __table_args__ = (sa.UniqueConstraint('group_id', 'volume_type_id'),)
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    group_id = sa.Column(UUID, sa.ForeignKey('groups.id', ondelete='CASCADE'),
                         nullable=False)
    volume_type_id = sa.Column(UUID, sa.ForeignKey('volume_types.id'),
                               nullable=False)
    created_at = sa.Column(DateTime, default=_now, nullable=False)


class VolumeAttachment(SoftDeleteMixin, Base):
    __tablename__ = 'volume_attachment'
    __table_args__ = (sa.Index('volume_attachment_volume_id_idx',
                               'volume_id', 'deleted'),)
    cas_name = 'attachment'
    id = sa.Column(UUID, primary_key=True)
    volume_id = sa.Column(UUID, sa.ForeignKey('volumes.id'), nullable=False)
    instance_uuid = sa.Column(UUID)
    attached_host = sa.Column(NAME)
    mountpoint = sa.Column(NAME)
    attach_mode = sa.Column(sa.String(36))
    attach_status = sa.Column(NAME, nullable=False)
    attach_time = sa.Column(DateTime)
    detach_time = sa.Column(DateTime)
    connector = sa.Column(sa.Text)
    connection_info = sa.Column(sa.Text)


class Snapshot(SoftDeleteMixin, Base):
    __tablename__ = 'snapshots'
    __table_args__ = (sa.Index('snapshots_volume_id_idx',
                               'volume_id', 'deleted'),
                      sa.Index('snapshots_group_snapshot_id_idx',
                               'group_snapshot_id'))
    cas_name = 'snapshot'
    id = sa.Column(UUID, primary_key=True)
    volume_id = sa.Column(UUID, sa.ForeignKey('volumes.id'), nullable=False)
    user_id = sa.Column(NAME)
    project_id = sa.Column(PROJECT_ID)
    status = sa.Column(NAME, nullable=False)
    progress = sa.Column(NAME)
    volume_size = sa.Column(sa.Integer)
    display_name = sa.Column(NAME)
    display_description = sa.Column(NAME)
    provider_location = sa.Column(NAME)
    volume_type_id = sa.Column(UUID)
    # The group snapshot it was taken in (None: taken alone).
    group_snapshot_id = sa.Column(UUID)


class SnapshotMetadata(key_value_pairs('snapshot_id', 'snapshots'), Base):
    __tablename__ = 'snapshot_metadata'


class SnapshotGlanceMetadata(image_properties('snapshot_id', 'snapshots'),
                             Base):
    """The image metadata its volume had when the snapshot was taken."""
    __tablename__ = 'snapshot_glance_metadata'


class Backup(SoftDeleteMixin, Base):
    """A copy of a volume's data kept apart from its pool (Cinder's
    ``backups``): it outlives its volume, so no foreign key ties them.
    ``restore_volume_id`` is the volume a restore in flight writes to."""
    __tablename__ = 'backups'
    __table_args__ = (sa.Index('backups_project_id_deleted_idx',
                               'project_id', 'deleted'),
                      sa.Index('backups_volume_id_idx', 'volume_id'))
    cas_name = 'backup'
    id = sa.Column(UUID, primary_key=True)
    volume_id = sa.Column(UUID, nullable=False)
    snapshot_id = sa.Column(UUID)
    restore_volume_id = sa.Column(UUID)
    user_id = sa.Column(NAME)
    project_id = sa.Column(PROJECT_ID)
    host = sa.Column(NAME)
    availability_zone = sa.Column(NAME)
    display_name = sa.Column(NAME)
    display_description = sa.Column(NAME)
    container = sa.Column(NAME)
    status = sa.Column(NAME, nullable=False)
    fail_reason = sa.Column(NAME)
    service = sa.Column(NAME)
    size = sa.Column(sa.Integer, nullable=False)
    object_count = sa.Column(sa.Integer)
    parent_id = sa.Column(UUID)
    # Live incremental backups whose parent it is (a delete requires 0).
    num_dependent_backups = sa.Column(sa.Integer, nullable=False,
                                      default=0, server_default='0')
    data_timestamp = sa.Column(DateTime)


class BackupMetadata(key_value_pairs('backup_id', 'backups'), Base):
    __tablename__ = 'backup_metadata'


class Transfer(SoftDeleteMixin, Base):
    """An offer of a volume to another project (Cinder's ``transfers``):
    the key that accepts it is kept only as ``crypt_hash``, an HMAC of it
    keyed by ``salt``. Soft-deleted when withdrawn or accepted."""
    __tablename__ = 'transfers'
    __table_args__ = (sa.Index('transfers_volume_id_idx',
                               'volume_id', 'deleted'),)
    cas_name = 'transfer'
    id = sa.Column(UUID, primary_key=True)
    volume_id = sa.Column(UUID, sa.ForeignKey('volumes.id'), nullable=False)
    display_name = sa.Column(NAME)
    salt = sa.Column(NAME)
    crypt_hash = sa.Column(NAME)
    expires_at = sa.Column(DateTime)
    no_snapshots = sa.Column(sa.Boolean, default=False, nullable=False)
    source_project_id = sa.Column(PROJECT_ID)
    destination_project_id = sa.Column(PROJECT_ID)
    accepted = sa.Column(sa.Boolean, default=False, nullable=False)


class Service(SoftDeleteMixin, Base):
    """A running volapi process; ``updated_at`` is its heartbeat."""
    __tablename__ = 'services'
    # One row per host and binary, deleted or not: a process registering
    # takes its row back (see objects.service.Service.register).
    __table_args__ = (sa.UniqueConstraint(
        'host', 'binary', name='uniq_services0host0binary'),)
    cas_name = 'service'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    host = sa.Column(NAME, nullable=False)
    binary = sa.Column(NAME, nullable=False)
    topic = sa.Column(NAME)
    cluster_name = sa.Column(NAME)
    report_count = sa.Column(sa.Integer, default=0, nullable=False)
    disabled = sa.Column(sa.Boolean, default=False, nullable=False)
    disabled_reason = sa.Column(NAME)
    heartbeat_at = sa.Column(DateTime)
    # Frozen by an operator (os-services/freeze): no new volumes, no
    # deletes or snapshots of the volumes there.
    frozen = sa.Column(sa.Boolean, default=False, server_default=sa.false(),
                       nullable=False)


class Worker(TimestampMixin, Base):
    """An operation in flight: which resource, in which transient status,
    held by which service. Cleanup claims the rows of dead services by
    compare-and-swap on ``service_id``/``race_preventer``."""
    __tablename__ = 'workers'
    __table_args__ = (sa.UniqueConstraint('resource_type', 'resource_id'),)
    cas_name = 'worker'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    resource_type = sa.Column(sa.String(40), nullable=False)
    resource_id = sa.Column(UUID, nullable=False)
    status = sa.Column(NAME, nullable=False)
    service_id = sa.Column(sa.Integer, sa.ForeignKey('services.id'))
    cleaning = sa.Column(sa.Boolean, default=False, nullable=False)
    race_preventer = sa.Column(sa.Integer, default=0, nullable=False)
    # JSON: what the operation needs beyond the resource's row (an extend's
    # new_size ...), so that a peer can re-drive it.
    arguments = sa.Column(sa.Text)
