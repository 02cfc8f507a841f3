"""per-volume-type quota usage: what a project holds of each volume type

Revision ID: 0007_type_quota_usages
Revises: 0006_volume_migration
Create Date: 2026-11-25

Cinder's per-type quotas (``volumes_<type>``, ``snapshots_<type>``,
``gigabytes_<type>``) count, per project and volume type, its live
volumes and snapshots of that type and the gigabytes they hold. Each
claim and release changes the row of its type with the project's row, in
the same transaction (objects.type_quota). ``id`` is derived from the
pair, so the row's key is known before it exists and two first claims of
one pair collide on it. Rows are made on first use, counted from the
tables, so existing data needs no migration here.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0007_type_quota_usages'
down_revision = '0006_volume_migration'
branch_labels = None
depends_on = None


def _datetime():
    return sa.DateTime().with_variant(
        mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'type_quota_usages',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('volume_type_id', sa.String(36), nullable=False),
        sa.Column('volumes', sa.Integer(), nullable=False),
        sa.Column('snapshots', sa.Integer(), nullable=False),
        sa.Column('gigabytes', sa.BigInteger(), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()),
        sa.UniqueConstraint(
            'project_id', 'volume_type_id',
            name='uniq_type_quota_usages0project_id0volume_type_id'))


def downgrade():
    op.drop_table('type_quota_usages')
