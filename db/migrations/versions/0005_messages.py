"""messages: Cinder's user messages

Revision ID: 0005_messages
Revises: 0004_quota_limits
Create Date: 2026-11-25

What a user is told about an asynchronous failure (``GET /v3/messages``,
3.3+), e.g. a volume that no pool had room for.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0005_messages'
down_revision = '0004_quota_limits'
branch_labels = None
depends_on = None


def _datetime():
    return sa.DateTime().with_variant(
        mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'messages',
        sa.Column('id', sa.String(36), primary_key=True),
        sa.Column('project_id', sa.String(255), nullable=False),
        sa.Column('request_id', sa.String(255)),
        sa.Column('resource_type', sa.String(255)),
        sa.Column('resource_uuid', sa.String(36)),
        sa.Column('event_id', sa.String(255), nullable=False),
        sa.Column('message_level', sa.String(255), nullable=False),
        sa.Column('action_id', sa.String(10)),
        sa.Column('detail_id', sa.String(10)),
        sa.Column('expires_at', _datetime()),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()),
        sa.Column('deleted_at', _datetime()),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Index('messages_project_id_idx', 'project_id'))


def downgrade():
    op.drop_table('messages')
