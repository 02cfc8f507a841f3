"""Placement's tables: resource providers, their inventories, traits and
aggregates, consumers and their allocations."""
import sqlalchemy as sa

from db.models.base import Base
from db.models.base import NAME
from db.models.base import PROJECT_ID
from db.models.base import TimestampMixin
from db.models.base import UUID


class ResourceClass(TimestampMixin, Base):
    __tablename__ = 'resource_classes'
    cas_name = 'resource class'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=False)
    name = sa.Column(NAME, nullable=False, unique=True)


class ResourceProvider(TimestampMixin, Base):
    __tablename__ = 'resource_providers'
    __table_args__ = (sa.Index('resource_providers_root_provider_id_idx',
                               'root_provider_id'),
                      sa.Index('resource_providers_parent_provider_id_idx',
                               'parent_provider_id'))
    cas_name = 'resource provider'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(UUID, nullable=False, unique=True)
    name = sa.Column(sa.Unicode(200), nullable=False, unique=True)
    generation = sa.Column(sa.Integer, nullable=False, default=0)
    root_provider_id = sa.Column(sa.Integer,
                                 sa.ForeignKey('resource_providers.id'))
    parent_provider_id = sa.Column(sa.Integer,
                                   sa.ForeignKey('resource_providers.id'))
    # Advanced by every write that changes what allocation candidates show
    # of the provider (migration 0024); a new provider's starts at random
    # (objects.placement.resource_provider.first_revision).
    revision = sa.Column(sa.BigInteger, nullable=False, server_default='0')


class Inventory(TimestampMixin, Base):
    __tablename__ = 'inventories'
    __table_args__ = (sa.UniqueConstraint('resource_provider_id',
                                          'resource_class_id'),)
    cas_name = 'inventory'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    resource_provider_id = sa.Column(
        sa.Integer, sa.ForeignKey('resource_providers.id'), nullable=False)
    resource_class_id = sa.Column(sa.Integer, nullable=False)
    total = sa.Column(sa.Integer, nullable=False)
    reserved = sa.Column(sa.Integer, nullable=False, default=0)
    min_unit = sa.Column(sa.Integer, nullable=False, default=1)
    max_unit = sa.Column(sa.Integer, nullable=False)
    step_size = sa.Column(sa.Integer, nullable=False, default=1)
    allocation_ratio = sa.Column(sa.Float, nullable=False, default=1.0)
    # The sum of the allocations of this class on this provider, kept by
    # every writer of allocations in the transaction that changes them, so
    # a capacity check reads one row instead of summing the allocations.
    allocated = sa.Column(sa.BigInteger, nullable=False, default=0,
                          server_default='0')


class Allocation(TimestampMixin, Base):
    __tablename__ = 'allocations'
    __table_args__ = (
        sa.Index('allocations_resource_provider_class_used_idx',
                 'resource_provider_id', 'resource_class_id', 'used'),
        sa.Index('allocations_consumer_id_idx', 'consumer_id'),
    )
    cas_name = 'allocation'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    resource_provider_id = sa.Column(
        sa.Integer, sa.ForeignKey('resource_providers.id'), nullable=False)
    consumer_id = sa.Column(UUID, nullable=False)
    resource_class_id = sa.Column(sa.Integer, nullable=False)
    used = sa.Column(sa.Integer, nullable=False)


class Project(TimestampMixin, Base):
    __tablename__ = 'projects'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    external_id = sa.Column(PROJECT_ID, nullable=False, unique=True)


class User(TimestampMixin, Base):
    __tablename__ = 'users'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    external_id = sa.Column(NAME, nullable=False, unique=True)


class ConsumerType(TimestampMixin, Base):
    __tablename__ = 'consumer_types'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    name = sa.Column(NAME, nullable=False, unique=True)


class Consumer(TimestampMixin, Base):
    __tablename__ = 'consumers'
    __table_args__ = (sa.Index('consumers_project_id_user_id_uuid_idx',
                               'project_id', 'user_id', 'uuid'),)
    cas_name = 'consumer'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(UUID, nullable=False, unique=True)
    project_id = sa.Column(sa.Integer, sa.ForeignKey('projects.id'),
                           nullable=False)
    user_id = sa.Column(sa.Integer, sa.ForeignKey('users.id'),
                        nullable=False)
    generation = sa.Column(sa.Integer, nullable=False, default=0)
    consumer_type_id = sa.Column(sa.Integer,
                                 sa.ForeignKey('consumer_types.id'))


class Trait(TimestampMixin, Base):
    __tablename__ = 'traits'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    name = sa.Column(NAME, nullable=False, unique=True)


class ResourceProviderTrait(TimestampMixin, Base):
    __tablename__ = 'resource_provider_traits'
    resource_provider_id = sa.Column(
        sa.Integer, sa.ForeignKey('resource_providers.id'), primary_key=True)
    trait_id = sa.Column(sa.Integer, sa.ForeignKey('traits.id'),
                         primary_key=True)


class PlacementAggregate(TimestampMixin, Base):
    __tablename__ = 'placement_aggregates'
    id = sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    uuid = sa.Column(UUID, nullable=False, unique=True)


class ResourceProviderAggregate(TimestampMixin, Base):
    __tablename__ = 'resource_provider_aggregates'
    resource_provider_id = sa.Column(
        sa.Integer, sa.ForeignKey('resource_providers.id'), primary_key=True)
    aggregate_id = sa.Column(sa.Integer,
                             sa.ForeignKey('placement_aggregates.id'),
                             primary_key=True)
