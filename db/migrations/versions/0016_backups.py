"""volume backups

Revision ID: 0016_backups
Revises: 0017_qos_specs
Create Date: 2026-11-26

Cinder's volume backups: the ``backups`` table and its metadata, and the
project's backup quota on its usage row (``backups``,
``backup_gigabytes`` held, and its own limits of them; NULL: its quota
class's). No backup exists before this revision, so every row holds 0.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0016_backups'
down_revision = '0017_qos_specs'
branch_labels = None
depends_on = None

KEY = sa.String(255).with_variant(
    mysql.VARCHAR(255, collation='utf8mb4_nopad_bin'), 'mysql')


def upgrade():
    datetime = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql')
    name = sa.String(length=255)
    uuid = sa.String(length=36)
    op.create_table(
        'backups',
        sa.Column('created_at', datetime, nullable=False),
        sa.Column('updated_at', datetime),
        sa.Column('deleted_at', datetime),
        sa.Column('deleted', sa.Boolean(), nullable=False),
        sa.Column('id', uuid, nullable=False),
        sa.Column('volume_id', uuid, nullable=False),
        sa.Column('snapshot_id', uuid),
        sa.Column('restore_volume_id', uuid),
        sa.Column('user_id', name),
        # Byte for byte, as every project id (0019_binary_project_ids).
        sa.Column('project_id', KEY),
        sa.Column('host', name),
        sa.Column('availability_zone', name),
        sa.Column('display_name', name),
        sa.Column('display_description', name),
        sa.Column('container', name),
        sa.Column('status', name, nullable=False),
        sa.Column('fail_reason', name),
        sa.Column('service', name),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('object_count', sa.Integer()),
        sa.Column('parent_id', uuid),
        sa.Column('data_timestamp', datetime),
        sa.PrimaryKeyConstraint('id'))
    op.create_index('backups_project_id_deleted_idx', 'backups',
                    ['project_id', 'deleted'])
    op.create_index('backups_volume_id_idx', 'backups', ['volume_id'])
    op.create_table(
        'backup_metadata',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('backup_id', uuid, nullable=False),
        sa.Column('key', KEY, nullable=False),
        sa.Column('value', name),
        sa.ForeignKeyConstraint(['backup_id'], ['backups.id'],
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('backup_id', 'key'))
    with op.batch_alter_table('quota_usages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('backups', sa.Integer(),
                                      nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('backup_gigabytes', sa.BigInteger(),
                                      nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('backups_limit', sa.Integer()))
        batch_op.add_column(sa.Column('backup_gigabytes_limit',
                                      sa.Integer()))


def downgrade():
    with op.batch_alter_table('quota_usages', schema=None) as batch_op:
        batch_op.drop_column('backup_gigabytes_limit')
        batch_op.drop_column('backups_limit')
        batch_op.drop_column('backup_gigabytes')
        batch_op.drop_column('backups')
    op.drop_table('backup_metadata')
    op.drop_table('backups')
