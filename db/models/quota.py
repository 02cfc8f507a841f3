"""Quota limits and usage, and the user messages."""
import sqlalchemy as sa

from db.models.base import Base
from db.models.base import DateTime
from db.models.base import NAME
from db.models.base import PROJECT_ID
from db.models.base import SoftDeleteMixin
from db.models.base import TimestampMixin
from db.models.base import UUID


class QuotaLimit(TimestampMixin, Base):
    """A limit an operator set for a quota class (``scope`` 'class'); a
    project's own limits are on its usage rows."""
    __tablename__ = 'quota_limits'
    __table_args__ = (sa.UniqueConstraint(
        'scope', 'scope_id', 'resource',
        name='uniq_quota_limits0scope0scope_id0resource'),)
    cas_name = 'quota limit'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    scope = sa.Column(sa.String(16), nullable=False)
    scope_id = sa.Column(PROJECT_ID, nullable=False)
    resource = sa.Column(sa.String(300), nullable=False)
    hard_limit = sa.Column(sa.Integer, nullable=False)


class QuotaUsage(TimestampMixin, Base):
    """What a project holds, kept by every claim and release in its
    transaction, and the limits it has of its own (NULL: its quota
    class's); the row its claims and limit changes are serialized on."""
    __tablename__ = 'quota_usages'
    cas_name = 'quota usage'
    project_id = sa.Column(PROJECT_ID, primary_key=True)
    volumes = sa.Column(sa.Integer, nullable=False)
    snapshots = sa.Column(sa.Integer, nullable=False)
    gigabytes = sa.Column(sa.BigInteger, nullable=False)
    volumes_limit = sa.Column(sa.Integer)
    snapshots_limit = sa.Column(sa.Integer)
    gigabytes_limit = sa.Column(sa.Integer)
    per_volume_gigabytes_limit = sa.Column(sa.Integer)
    # Backups (migration 0016_backups): the project's row only, backups
    # have no volume type.
    backups = sa.Column(sa.Integer, nullable=False, server_default='0')
    backup_gigabytes = sa.Column(sa.BigInteger, nullable=False,
                                 server_default='0')
    backups_limit = sa.Column(sa.Integer)
    backup_gigabytes_limit = sa.Column(sa.Integer)
    # Live groups: counted by group creates and deletes alone.
    groups = sa.Column(sa.Integer, nullable=False, server_default='0')
    groups_limit = sa.Column(sa.Integer)


class TypeQuotaUsage(TimestampMixin, Base):
    """What a project holds of one volume type, kept by the claims and
    releases with the project's row, and the project's own per-type
    limits of it (NULL: the quota class's). ``id`` is derived from
    (project_id, volume_type_id): see objects.type_quota."""
    __tablename__ = 'type_quota_usages'
    __table_args__ = (sa.UniqueConstraint(
        'project_id', 'volume_type_id',
        name='uniq_type_quota_usages0project_id0volume_type_id'),)
    cas_name = 'volume type quota usage'
    id = sa.Column(UUID, primary_key=True)
    project_id = sa.Column(PROJECT_ID, nullable=False)
    volume_type_id = sa.Column(UUID, nullable=False)
    volumes = sa.Column(sa.Integer, nullable=False)
    snapshots = sa.Column(sa.Integer, nullable=False)
    gigabytes = sa.Column(sa.BigInteger, nullable=False)
    volumes_limit = sa.Column(sa.Integer)
    snapshots_limit = sa.Column(sa.Integer)
    gigabytes_limit = sa.Column(sa.Integer)


class Message(SoftDeleteMixin, Base):
    """A user message (Cinder's ``messages``)."""
    __tablename__ = 'messages'
    __table_args__ = (sa.Index('messages_project_id_idx', 'project_id'),)
    cas_name = 'message'
    id = sa.Column(UUID, primary_key=True)
    project_id = sa.Column(PROJECT_ID, nullable=False)
    request_id = sa.Column(NAME)
    resource_type = sa.Column(NAME)
    resource_uuid = sa.Column(UUID)
    event_id = sa.Column(NAME, nullable=False)
    message_level = sa.Column(NAME, nullable=False)
    action_id = sa.Column(sa.String(10))
    detail_id = sa.Column(sa.String(10))
    expires_at = sa.Column(DateTime)
