"""qos_specs: QoS specs and their association with volume types

Revision ID: 0017_qos_specs
Revises: 0019_binary_project_ids
Create Date: 2026-11-26

Cinder's QoS specs (``cinder qos-create``, ``qos-associate``): a named set
of keys with a consumer, kept as a row and its key/value rows (keys compare
byte for byte, as in the other key/value tables, 0011_binary_keys), and a
volume type's ``qos_specs_id``.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0017_qos_specs'
down_revision = '0019_binary_project_ids'
branch_labels = None
depends_on = None

DATETIME = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')
KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_nopad_bin'), 'mysql')
FOREIGN_KEY = 'volume_types_qos_specs_id_fkey'


def upgrade():
    op.create_table(
        'qos_specs',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('consumer', sa.String(length=16), nullable=False),
        sa.Column('live_name', sa.String(length=255)),
        sa.Column('created_at', DATETIME, nullable=False),
        sa.Column('updated_at', DATETIME),
        sa.Column('deleted_at', DATETIME),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('live_name', name='uniq_qos_specs0live_name'))
    op.create_table(
        'qos_specs_items',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('qos_specs_id', sa.String(length=36), nullable=False),
        sa.Column('key', KEY, nullable=False),
        sa.Column('value', sa.String(length=255)),
        sa.ForeignKeyConstraint(['qos_specs_id'], ['qos_specs.id'],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('qos_specs_id', 'key'))
    column = sa.Column('qos_specs_id', sa.String(length=36),
                       sa.ForeignKey('qos_specs.id', name=FOREIGN_KEY))
    if op.get_bind().dialect.name == 'sqlite':
        # SQLite adds no constraint to a table but takes a new column's
        # REFERENCES: one ALTER instead of a copy of the table.
        op.add_column('volume_types', column, inline_references=True)
        op.create_index('ix_volume_types_qos_specs_id', 'volume_types',
                        ['qos_specs_id'])
        return
    op.add_column('volume_types', sa.Column('qos_specs_id',
                                            sa.String(length=36)))
    op.create_index('ix_volume_types_qos_specs_id', 'volume_types',
                    ['qos_specs_id'])
    op.create_foreign_key(FOREIGN_KEY, 'volume_types', 'qos_specs',
                          ['qos_specs_id'], ['id'])


def downgrade():
    if op.get_bind().dialect.name != 'sqlite':
        op.drop_constraint(FOREIGN_KEY, 'volume_types', type_='foreignkey')
    op.drop_index('ix_volume_types_qos_specs_id', 'volume_types')
    # SQLite (3.35+) drops the column and its REFERENCES in place: a copy
    # of the table would be refused while volumes reference it.
    op.drop_column('volume_types', 'qos_specs_id')
    op.drop_table('qos_specs_items')
    op.drop_table('qos_specs')
