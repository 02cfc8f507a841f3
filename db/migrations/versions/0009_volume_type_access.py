"""volume_type_projects: the projects that may use a private volume type

Revision ID: 0009_volume_type_access
Revises: 0008_service_disabled_reason
Create Date: 2026-11-26

Cinder's type access lists (``cinder type-access-add``): a private type
is seen and used by administrators and by the projects listed here.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0009_volume_type_access'
down_revision = '0008_service_disabled_reason'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'volume_type_projects',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('volume_type_id', sa.String(length=36), nullable=False),
        sa.Column('project_id', sa.String(length=255), nullable=False),
        sa.Column('created_at', sa.DateTime().with_variant(
            mysql.DATETIME(fsp=6), 'mysql'), nullable=False),
        sa.ForeignKeyConstraint(['volume_type_id'], ['volume_types.id'],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('volume_type_id', 'project_id'))


def downgrade():
    op.drop_table('volume_type_projects')
