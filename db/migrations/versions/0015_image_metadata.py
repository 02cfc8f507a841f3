"""volume and snapshot image metadata

Revision ID: 0015_image_metadata
Revises: 0013_volume_transfers
Create Date: 2026-11-26

Cinder's volume image metadata (``volume_image_metadata``,
``os-set_image_metadata``): key/value pairs of a volume, copied to its
snapshots, and from a snapshot or a source volume to the volumes made
from them. Keys compare byte for byte, as in the other metadata tables
(0011_binary_keys); values are text (image properties such as signatures
are long).
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0015_image_metadata'
down_revision = '0013_volume_transfers'
branch_labels = None
depends_on = None

KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_nopad_bin'), 'mysql')


def _pairs(table, owner, owner_table):
    op.create_table(
        table,
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column(owner, sa.String(length=36), nullable=False),
        sa.Column('key', KEY, nullable=False),
        sa.Column('value', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint([owner], ['%s.id' % owner_table],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(owner, 'key'))


def upgrade():
    _pairs('volume_glance_metadata', 'volume_id', 'volumes')
    _pairs('snapshot_glance_metadata', 'snapshot_id', 'snapshots')


def downgrade():
    op.drop_table('snapshot_glance_metadata')
    op.drop_table('volume_glance_metadata')
