"""SQLAlchemy models of volapi's tables, one module per part of the
service (``volumes``, ``placement``, ``quota``; what they share in
``base``), all named here: ``from db import models; models.Volume``.

The schema itself is made only by the alembic migrations in
``db/migrations`` (``volapi-manage db sync``); these classes describe it for
queries. ``cas_name`` is the word a failed compare-and-swap uses for a row
("volume status must be ...").
"""

from db.models.base import Base  # noqa: F401
from db.models.base import BINARY_COLLATION  # noqa: F401
from db.models.base import DateTime  # noqa: F401
from db.models.base import image_properties  # noqa: F401
from db.models.base import KEY  # noqa: F401
from db.models.base import key_value_pairs  # noqa: F401
from db.models.base import NAME  # noqa: F401
from db.models.base import PROJECT_ID  # noqa: F401
from db.models.base import SoftDeleteMixin  # noqa: F401
from db.models.base import TimestampMixin  # noqa: F401
from db.models.base import UUID  # noqa: F401
from db.models.volumes import Backup  # noqa: F401
from db.models.volumes import BackupMetadata  # noqa: F401
from db.models.volumes import DefaultVolumeType  # noqa: F401
from db.models.volumes import Group  # noqa: F401
from db.models.volumes import GroupSnapshot  # noqa: F401
from db.models.volumes import GroupType  # noqa: F401
from db.models.volumes import GroupTypeSpec  # noqa: F401
from db.models.volumes import GroupVolumeTypeMapping  # noqa: F401
from db.models.volumes import QosSpecs  # noqa: F401
from db.models.volumes import QosSpecsItem  # noqa: F401
from db.models.volumes import Service  # noqa: F401
from db.models.volumes import Snapshot  # noqa: F401
from db.models.volumes import SnapshotGlanceMetadata  # noqa: F401
from db.models.volumes import SnapshotMetadata  # noqa: F401
from db.models.volumes import Transfer  # noqa: F401
from db.models.volumes import Volume  # noqa: F401
from db.models.volumes import VolumeAdminMetadata  # noqa: F401
from db.models.volumes import VolumeAttachment  # noqa: F401
from db.models.volumes import VolumeGlanceMetadata  # noqa: F401
from db.models.volumes import VolumeMetadata  # noqa: F401
from db.models.volumes import VolumeType  # noqa: F401
from db.models.volumes import VolumeTypeExtraSpec  # noqa: F401
from db.models.volumes import VolumeTypeProject  # noqa: F401
from db.models.volumes import Worker  # noqa: F401
from db.models.placement import Allocation  # noqa: F401
from db.models.placement import Consumer  # noqa: F401
from db.models.placement import ConsumerType  # noqa: F401
from db.models.placement import Inventory  # noqa: F401
from db.models.placement import PlacementAggregate  # noqa: F401
from db.models.placement import Project  # noqa: F401
from db.models.placement import ResourceClass  # noqa: F401
from db.models.placement import ResourceProvider  # noqa: F401
from db.models.placement import ResourceProviderAggregate  # noqa: F401
from db.models.placement import ResourceProviderTrait  # noqa: F401
from db.models.placement import Trait  # noqa: F401
from db.models.placement import User  # noqa: F401
from db.models.quota import Message  # noqa: F401
from db.models.quota import QuotaLimit  # noqa: F401
from db.models.quota import QuotaUsage  # noqa: F401
from db.models.quota import TypeQuotaUsage  # noqa: F401
