"""group_snapshots: Cinder's group snapshots (3.14)

Revision ID: 0021_group_snapshots
Revises: 0020_groups
Create Date: 2026-11-26

A group snapshot (``group_snapshots``) is one snapshot of each volume of
its group, taken in one transaction; its snapshots name it in
``snapshots.group_snapshot_id``, indexed for the "none still creating"
test that ends it and for the refusals of a lone snapshot delete. A group
made from a group snapshot or from another group names its source
(``groups.group_snapshot_id``, ``groups.source_group_id``), as Cinder's
view shows it.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0021_group_snapshots'
down_revision = '0020_groups'
branch_labels = None
depends_on = None

_KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_nopad_bin'), 'mysql')


def _datetime():
    return sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'group_snapshots',
        sa.Column('id', sa.String(36), nullable=False),
        sa.Column('group_id', sa.String(36), nullable=False),
        sa.Column('user_id', sa.String(255)),
        sa.Column('project_id', _KEY),
        sa.Column('name', sa.String(255)),
        sa.Column('description', sa.String(255)),
        sa.Column('status', sa.String(255), nullable=False),
        sa.Column('group_type_id', sa.String(36), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()),
        sa.Column('deleted_at', _datetime()),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.Index('group_snapshots_group_id_idx', 'group_id', 'deleted'),
        sa.Index('group_snapshots_project_id_idx', 'project_id',
                 'deleted'))
    with op.batch_alter_table('snapshots') as batch:
        batch.add_column(sa.Column('group_snapshot_id', sa.String(36)))
        batch.create_index('snapshots_group_snapshot_id_idx',
                           ['group_snapshot_id'])
    with op.batch_alter_table('groups') as batch:
        batch.add_column(sa.Column('group_snapshot_id', sa.String(36)))
        batch.add_column(sa.Column('source_group_id', sa.String(36)))


def downgrade():
    with op.batch_alter_table('groups') as batch:
        batch.drop_column('source_group_id')
        batch.drop_column('group_snapshot_id')
    with op.batch_alter_table('snapshots') as batch:
        batch.drop_index('snapshots_group_snapshot_id_idx')
        batch.drop_column('group_snapshot_id')
    op.drop_table('group_snapshots')
