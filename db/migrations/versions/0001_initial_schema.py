"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None

# Timestamps with microseconds on MySQL and MariaDB, as the models' own.
DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'consumer_types',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name')
    )
    op.create_table(
        'placement_aggregates',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid')
    )
    op.create_table(
        'projects',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('external_id', sa.String(length=255), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('external_id')
    )
    op.create_table(
        'resource_classes',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name')
    )
    op.create_table(
        'resource_providers',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('name', sa.Unicode(length=200), nullable=False),
        sa.Column('generation', sa.Integer(), nullable=False),
        sa.Column('root_provider_id', sa.Integer(), nullable=True),
        sa.Column('parent_provider_id', sa.Integer(), nullable=True),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['parent_provider_id'], ['resource_providers.id'], ),
        sa.ForeignKeyConstraint(['root_provider_id'], ['resource_providers.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name'),
        sa.UniqueConstraint('uuid')
    )
    with op.batch_alter_table('resource_providers', schema=None) as batch_op:
        batch_op.create_index(
            'resource_providers_parent_provider_id_idx', ['parent_provider_id'], unique=False)
        batch_op.create_index(
            'resource_providers_root_provider_id_idx', ['root_provider_id'], unique=False)

    op.create_table(
        'services',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('host', sa.String(length=255), nullable=False),
        sa.Column('binary', sa.String(length=255), nullable=False),
        sa.Column('topic', sa.String(length=255), nullable=True),
        sa.Column('report_count', sa.Integer(), nullable=False),
        sa.Column('disabled', sa.Boolean(), nullable=False),
        sa.Column('heartbeat_at', DATETIME, nullable=True),
        sa.Column('deleted_at', DATETIME, nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('host', 'binary', 'deleted_at')
    )
    op.create_table(
        'traits',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name')
    )
    op.create_table(
        'users',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('external_id', sa.String(length=255), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('external_id')
    )
    op.create_table(
        'volume_types',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('description', sa.String(length=255), nullable=True),
        sa.Column('is_public', sa.Boolean(), nullable=False),
        sa.Column('deleted_at', DATETIME, nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_table(
        'allocations',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('resource_provider_id', sa.Integer(), nullable=False),
        sa.Column('consumer_id', sa.String(length=36), nullable=False),
        sa.Column('resource_class_id', sa.Integer(), nullable=False),
        sa.Column('used', sa.Integer(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['resource_provider_id'], ['resource_providers.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('allocations', schema=None) as batch_op:
        batch_op.create_index('allocations_consumer_id_idx', ['consumer_id'], unique=False)
        batch_op.create_index(
            'allocations_resource_provider_class_used_idx',
            ['resource_provider_id', 'resource_class_id', 'used'], unique=False)

    op.create_table(
        'consumers',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('uuid', sa.String(length=36), nullable=False),
        sa.Column('project_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('generation', sa.Integer(), nullable=False),
        sa.Column('consumer_type_id', sa.Integer(), nullable=True),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['consumer_type_id'], ['consumer_types.id'], ),
        sa.ForeignKeyConstraint(['project_id'], ['projects.id'], ),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid')
    )
    with op.batch_alter_table('consumers', schema=None) as batch_op:
        batch_op.create_index(
            'consumers_project_id_user_id_uuid_idx', ['project_id', 'user_id', 'uuid'],
            unique=False)

    op.create_table(
        'inventories',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('resource_provider_id', sa.Integer(), nullable=False),
        sa.Column('resource_class_id', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('reserved', sa.Integer(), nullable=False),
        sa.Column('min_unit', sa.Integer(), nullable=False),
        sa.Column('max_unit', sa.Integer(), nullable=False),
        sa.Column('step_size', sa.Integer(), nullable=False),
        sa.Column('allocation_ratio', sa.Float(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['resource_provider_id'], ['resource_providers.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('resource_provider_id', 'resource_class_id')
    )
    op.create_table(
        'resource_provider_aggregates',
        sa.Column('resource_provider_id', sa.Integer(), nullable=False),
        sa.Column('aggregate_id', sa.Integer(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['aggregate_id'], ['placement_aggregates.id'], ),
        sa.ForeignKeyConstraint(['resource_provider_id'], ['resource_providers.id'], ),
        sa.PrimaryKeyConstraint('resource_provider_id', 'aggregate_id')
    )
    op.create_table(
        'resource_provider_traits',
        sa.Column('resource_provider_id', sa.Integer(), nullable=False),
        sa.Column('trait_id', sa.Integer(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['resource_provider_id'], ['resource_providers.id'], ),
        sa.ForeignKeyConstraint(['trait_id'], ['traits.id'], ),
        sa.PrimaryKeyConstraint('resource_provider_id', 'trait_id')
    )
    op.create_table(
        'volume_type_extra_specs',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('volume_type_id', sa.String(length=36), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('value', sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(['volume_type_id'], ['volume_types.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('volume_type_id', 'key')
    )
    op.create_table(
        'volumes',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.String(length=255), nullable=True),
        sa.Column('project_id', sa.String(length=255), nullable=True),
        sa.Column('host', sa.String(length=255), nullable=True),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('availability_zone', sa.String(length=255), nullable=True),
        sa.Column('status', sa.String(length=255), nullable=False),
        sa.Column('previous_status', sa.String(length=255), nullable=True),
        sa.Column('attach_status', sa.String(length=255), nullable=False),
        sa.Column('migration_status', sa.String(length=255), nullable=True),
        sa.Column('display_name', sa.String(length=255), nullable=True),
        sa.Column('display_description', sa.String(length=255), nullable=True),
        sa.Column('volume_type_id', sa.String(length=36), nullable=True),
        sa.Column('source_volid', sa.String(length=36), nullable=True),
        sa.Column('snapshot_id', sa.String(length=36), nullable=True),
        sa.Column('bootable', sa.Boolean(), nullable=False),
        sa.Column('multiattach', sa.Boolean(), nullable=False),
        sa.Column('provider_location', sa.String(length=255), nullable=True),
        sa.Column('replication_status', sa.String(length=255), nullable=True),
        sa.Column('consistencygroup_id', sa.String(length=36), nullable=True),
        sa.Column('group_id', sa.String(length=36), nullable=True),
        sa.Column('launched_at', DATETIME, nullable=True),
        sa.Column('terminated_at', DATETIME, nullable=True),
        sa.Column('deleted_at', DATETIME, nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['volume_type_id'], ['volume_types.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('volumes', schema=None) as batch_op:
        batch_op.create_index(
            'volumes_project_id_deleted_idx', ['project_id', 'deleted'], unique=False)

    op.create_table(
        'workers',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('resource_type', sa.String(length=40), nullable=False),
        sa.Column('resource_id', sa.String(length=36), nullable=False),
        sa.Column('status', sa.String(length=255), nullable=False),
        sa.Column('service_id', sa.Integer(), nullable=True),
        sa.Column('cleaning', sa.Boolean(), nullable=False),
        sa.Column('race_preventer', sa.Integer(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['service_id'], ['services.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('resource_type', 'resource_id')
    )
    op.create_table(
        'snapshots',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('volume_id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.String(length=255), nullable=True),
        sa.Column('project_id', sa.String(length=255), nullable=True),
        sa.Column('status', sa.String(length=255), nullable=False),
        sa.Column('progress', sa.String(length=255), nullable=True),
        sa.Column('volume_size', sa.Integer(), nullable=True),
        sa.Column('display_name', sa.String(length=255), nullable=True),
        sa.Column('display_description', sa.String(length=255), nullable=True),
        sa.Column('provider_location', sa.String(length=255), nullable=True),
        sa.Column('volume_type_id', sa.String(length=36), nullable=True),
        sa.Column('deleted_at', DATETIME, nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['volume_id'], ['volumes.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('snapshots', schema=None) as batch_op:
        batch_op.create_index('snapshots_volume_id_idx', ['volume_id', 'deleted'], unique=False)

    op.create_table(
        'volume_admin_metadata',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('volume_id', sa.String(length=36), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('value', sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(['volume_id'], ['volumes.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('volume_id', 'key')
    )
    op.create_table(
        'volume_attachment',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('volume_id', sa.String(length=36), nullable=False),
        sa.Column('instance_uuid', sa.String(length=36), nullable=True),
        sa.Column('attached_host', sa.String(length=255), nullable=True),
        sa.Column('mountpoint', sa.String(length=255), nullable=True),
        sa.Column('attach_mode', sa.String(length=36), nullable=True),
        sa.Column('attach_status', sa.String(length=255), nullable=False),
        sa.Column('attach_time', DATETIME, nullable=True),
        sa.Column('detach_time', DATETIME, nullable=True),
        sa.Column('connector', sa.Text(), nullable=True),
        sa.Column('connection_info', sa.Text(), nullable=True),
        sa.Column('deleted_at', DATETIME, nullable=True),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME, nullable=True),
        sa.ForeignKeyConstraint(['volume_id'], ['volumes.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('volume_attachment', schema=None) as batch_op:
        batch_op.create_index(
            'volume_attachment_volume_id_idx', ['volume_id', 'deleted'], unique=False)

    op.create_table(
        'volume_metadata',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('volume_id', sa.String(length=36), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('value', sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(['volume_id'], ['volumes.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('volume_id', 'key')
    )
    op.create_table(
        'snapshot_metadata',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('snapshot_id', sa.String(length=36), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('value', sa.String(length=255), nullable=True),
        sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('snapshot_id', 'key')
    )
