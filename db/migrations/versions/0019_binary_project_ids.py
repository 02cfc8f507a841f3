"""project ids compare byte for byte on MariaDB

Revision ID: 0019_binary_project_ids
Revises: 0018_services_unique
Create Date: 2026-11-26

MariaDB's default collation ignores case and trailing spaces, so projects
'qa', 'QA' and 'qa ' were one project wherever a row is found by its
project id: one quota usage row (a volume create of 'qa' after 'QA' had
one was a 500), one default type and one set of own limits (each set and
forgotten by the other's requests), one type access entry and one
placement project, while PostgreSQL and SQLite keep them apart. Every
column holding a project id (and a quota class's name) gets the binary
collation without padding of 0011_binary_keys.
"""
from alembic import op

revision = '0019_binary_project_ids'
down_revision = '0018_services_unique'
branch_labels = None
depends_on = None

# (table, column, nullable)
COLUMNS = (('volume_type_projects', 'project_id', False),
           ('default_volume_types', 'project_id', False),
           ('volumes', 'project_id', True),
           ('snapshots', 'project_id', True),
           ('transfers', 'source_project_id', True),
           ('transfers', 'destination_project_id', True),
           ('quota_limits', 'scope_id', False),
           ('quota_usages', 'project_id', False),
           ('type_quota_usages', 'project_id', False),
           ('messages', 'project_id', False),
           ('projects', 'external_id', False))


def _set_collation(collation):
    if op.get_bind().dialect.name != 'mysql':
        return
    for table, column, nullable in COLUMNS:
        op.execute('ALTER TABLE %s MODIFY `%s` VARCHAR(255) CHARACTER SET '
                   'utf8mb4 COLLATE %s %s' % (
                       table, column, collation,
                       'NULL' if nullable else 'NOT NULL'))


def upgrade():
    _set_collation('utf8mb4_nopad_bin')


def downgrade():
    _set_collation('utf8mb4_general_ci')
