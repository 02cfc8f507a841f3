"""volume migration: the migration in flight and the data's name

Revision ID: 0006_volume_migration
Revises: 0005_messages
Create Date: 2026-11-25

A volume being moved between pools records its migration
(``migration_id``): the placement consumer holding the source pool's
allocation while the data is copied, and the name the copy is made under.
Once moved, the volume's data keeps that name (``name_id``, Cinder's
``_name_id``): the volume's id never changes.
"""
from alembic import op
import sqlalchemy as sa

revision = '0006_volume_migration'
down_revision = '0005_messages'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('volumes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('migration_id', sa.String(36)))
        batch_op.add_column(sa.Column('name_id', sa.String(36)))


def downgrade():
    with op.batch_alter_table('volumes', schema=None) as batch_op:
        batch_op.drop_column('name_id')
        batch_op.drop_column('migration_id')
