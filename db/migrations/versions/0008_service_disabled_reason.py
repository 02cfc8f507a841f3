"""services.disabled_reason: why an operator disabled a volume service

Revision ID: 0008_service_disabled_reason
Revises: 0007_type_quota_usages
Create Date: 2026-11-26

``PUT /v3/os-services/disable-log-reason`` records the reason, which
``GET /v3/os-services`` shows, as Cinder's services table keeps it.
"""
from alembic import op
import sqlalchemy as sa

revision = '0008_service_disabled_reason'
down_revision = '0007_type_quota_usages'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('disabled_reason', sa.String(255)))


def downgrade():
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_column('disabled_reason')
