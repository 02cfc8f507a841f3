"""metadata and extra spec keys compare byte for byte on MariaDB

Revision ID: 0011_binary_keys
Revises: 0009_volume_type_access
Create Date: 2026-11-26

MariaDB's default collation ignores case and trailing spaces, so 'Z', 'z'
and 'z ' were one key of a volume's metadata (two of them in one request
broke its unique key: a 500) while PostgreSQL and SQLite keep them apart.
The key columns get a binary collation without padding; the other
databases already compare so.
"""
from alembic import op

revision = '0011_binary_keys'
down_revision = '0009_volume_type_access'
branch_labels = None
depends_on = None

TABLES = ('volume_type_extra_specs', 'volume_metadata',
          'volume_admin_metadata', 'snapshot_metadata')


def _set_collation(collation):
    if op.get_bind().dialect.name != 'mysql':
        return
    for table in TABLES:
        op.execute('ALTER TABLE %s MODIFY `key` VARCHAR(255) CHARACTER SET '
                   'utf8mb4 COLLATE %s NOT NULL' % (table, collation))


def upgrade():
    _set_collation('utf8mb4_nopad_bin')


def downgrade():
    _set_collation('utf8mb4_general_ci')
