"""services.frozen: a backend an operator froze (Cinder's freeze-host)

Revision ID: 0023_service_frozen
Revises: 0022_backup_chains
Create Date: 2026-11-26

``PUT /v3/os-services/freeze`` sets it and ``.../thaw`` clears it, on the
volume services of a host, as Cinder's services table keeps it. While it
is set the scheduler sends no new volume there, and a delete or snapshot
of a volume there is refused (the swap's condition on this column).
"""
from alembic import op
import sqlalchemy as sa

revision = '0023_service_frozen'
down_revision = '0022_backup_chains'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('frozen', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_column('frozen')
