"""backup chains: volumes made from a backup, incremental backups

Revision ID: 0022_backup_chains
Revises: 0021_group_snapshots
Create Date: 2026-11-26

``volumes.backup_id`` is the backup a volume is created from (POST
/volumes with a backup_id): its creation restores the backup, which stays
'restoring' while any volume made from it is still 'creating' (indexed
for that test). ``backups.num_dependent_backups`` (Cinder's) counts the
live incremental backups naming a backup as their parent: a delete
requires 0, in its own row, so the swap and its explanation see what a
concurrent child's insert wrote.
"""
from alembic import op
import sqlalchemy as sa

revision = '0022_backup_chains'
down_revision = '0021_group_snapshots'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('volumes') as batch:
        batch.add_column(sa.Column('backup_id', sa.String(36)))
    op.create_index('volumes_backup_id_idx', 'volumes', ['backup_id'])
    with op.batch_alter_table('backups') as batch:
        batch.add_column(sa.Column('num_dependent_backups', sa.Integer(),
                                   nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('backups') as batch:
        batch.drop_column('num_dependent_backups')
    op.drop_index('volumes_backup_id_idx', 'volumes')
    with op.batch_alter_table('volumes') as batch:
        batch.drop_column('backup_id')
