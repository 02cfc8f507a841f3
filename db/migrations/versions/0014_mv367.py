"""default_volume_types: a project's own default volume type

Revision ID: 0014_mv367
Revises: 0015_image_metadata
Create Date: 2026-11-26

Cinder's project default types (microversion 3.62, ``cinder
default-type-set``): the type a volume of the project gets when created
without one, before ``[api] default_volume_type``. One row per project.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0014_mv367'
down_revision = '0015_image_metadata'
branch_labels = None
depends_on = None


def upgrade():
    datetime = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')
    op.create_table(
        'default_volume_types',
        sa.Column('project_id', sa.String(length=255), nullable=False),
        sa.Column('volume_type_id', sa.String(length=36), nullable=False),
        sa.Column('created_at', datetime, nullable=False),
        sa.Column('updated_at', datetime),
        sa.ForeignKeyConstraint(['volume_type_id'], ['volume_types.id']),
        sa.PrimaryKeyConstraint('project_id'))
    op.create_index('ix_default_volume_types_volume_type_id',
                    'default_volume_types', ['volume_type_id'])


def downgrade():
    # The index goes with its table (MySQL refuses to drop it alone: the
    # foreign key needs it).
    op.drop_table('default_volume_types')
