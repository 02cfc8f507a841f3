"""groups: Cinder's generic volume groups and group types

Revision ID: 0020_groups
Revises: 0016_backups
Create Date: 2026-11-26

A group type (``group_types``, with its ``group_type_specs``) is named
uniquely among live types by ``live_name``, as volume types are. A group
(``groups``) has one group type and the volume types of
``group_volume_type_mapping``; its volumes point at it by
``volumes.group_id``, indexed for the "has volumes" checks of a group
delete. A project's usage row counts its live groups (``groups``, with
its own limit ``groups_limit``).
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0020_groups'
down_revision = '0016_backups'
branch_labels = None
depends_on = None

_KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_nopad_bin'), 'mysql')


def _datetime():
    return sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')


def _soft_delete():
    return [sa.Column('created_at', _datetime(), nullable=False),
            sa.Column('updated_at', _datetime()),
            sa.Column('deleted_at', _datetime()),
            sa.Column('deleted', sa.Boolean(), nullable=False)]


def upgrade():
    op.create_table(
        'group_types',
        sa.Column('id', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('description', sa.String(255)),
        sa.Column('is_public', sa.Boolean(), nullable=False),
        sa.Column('live_name', sa.String(255)),
        *_soft_delete(),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('live_name', name='uniq_group_types0live_name'))
    op.create_table(
        'group_type_specs',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('group_type_id', sa.String(36), nullable=False),
        sa.Column('key', _KEY, nullable=False),
        sa.Column('value', sa.String(255)),
        sa.ForeignKeyConstraint(['group_type_id'], ['group_types.id'],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_type_id', 'key'))
    op.create_table(
        'groups',
        sa.Column('id', sa.String(36), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('project_id', _KEY),
        sa.Column('host', sa.String(255)),
        sa.Column('availability_zone', sa.String(255)),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('group_type_id', sa.String(36), nullable=False),
        *_soft_delete(),
        sa.ForeignKeyConstraint(['group_type_id'], ['group_types.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.Index('groups_project_id_deleted_idx', 'project_id', 'deleted'),
        sa.Index('groups_group_type_id_idx', 'group_type_id', 'deleted'))
    op.create_table(
        'group_volume_type_mapping',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('group_id', sa.String(36), nullable=False),
        sa.Column('volume_type_id', sa.String(36), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'],
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['volume_type_id'], ['volume_types.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('group_id', 'volume_type_id'))
    op.create_index('volumes_group_id_idx', 'volumes', ['group_id'])
    with op.batch_alter_table('quota_usages') as batch:
        batch.add_column(sa.Column('groups', sa.Integer(), nullable=False,
                                   server_default='0'))
        batch.add_column(sa.Column('groups_limit', sa.Integer()))


def downgrade():
    with op.batch_alter_table('quota_usages') as batch:
        batch.drop_column('groups_limit')
        batch.drop_column('groups')
    op.drop_index('volumes_group_id_idx', 'volumes')
    op.drop_table('group_volume_type_mapping')
    op.drop_table('groups')
    op.drop_table('group_type_specs')
    op.drop_table('group_types')
