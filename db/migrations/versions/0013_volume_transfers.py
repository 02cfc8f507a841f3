"""transfers: Cinder's volume transfers

Revision ID: 0013_volume_transfers
Revises: 0012_project_own_limits
Create Date: 2026-11-26

A volume offered to another project (``POST /v3/os-volume-transfer``,
``/v3/volume-transfers``) is in 'awaiting-transfer' with a live row here;
the row is soft-deleted when the offer is withdrawn or accepted (then
with ``accepted`` and the project that took the volume). The key that
accepts it is kept only as an HMAC (``crypt_hash``, keyed by ``salt``).
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0013_volume_transfers'
down_revision = '0012_project_own_limits'
branch_labels = None
depends_on = None


def _datetime():
    return sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'transfers',
        sa.Column('id', sa.String(36), nullable=False),
        sa.Column('volume_id', sa.String(36), nullable=False),
        sa.Column('display_name', sa.String(255)),
        sa.Column('salt', sa.String(255)),
        sa.Column('crypt_hash', sa.String(255)),
        sa.Column('expires_at', _datetime()),
        sa.Column('no_snapshots', sa.Boolean(), nullable=False),
        sa.Column('source_project_id', sa.String(255)),
        sa.Column('destination_project_id', sa.String(255)),
        sa.Column('accepted', sa.Boolean(), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()),
        sa.Column('deleted_at', _datetime()),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['volume_id'], ['volumes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.Index('transfers_volume_id_idx', 'volume_id', 'deleted'))


def downgrade():
    op.drop_table('transfers')
