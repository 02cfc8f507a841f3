"""services: one row per host and binary, deleted or not

Revision ID: 0018_services_unique
Revises: 0014_mv367
Create Date: 2026-11-26

The unique key was (host, binary, deleted_at), which holds nothing for the
live rows (their deleted_at is NULL, and NULLs never collide): two workers
of one host starting at once could both insert a row. It is (host, binary)
now; a process registering a row an operator deleted takes it back.
Duplicates already made are merged into the oldest row, which takes over
the ``workers`` rows of the others.
"""
from alembic import op
import sqlalchemy as sa

revision = '0018_services_unique'
down_revision = '0014_mv367'
branch_labels = None
depends_on = None

NAME = 'uniq_services0host0binary'
OLD_COLUMNS = ['host', 'binary', 'deleted_at']
# SQLite keeps the old key of 0001 unnamed; batch mode names it by this
# convention to drop it.
SQLITE_CONVENTION = {'uq': 'uq_%(table_name)s_%(column_0_N_name)s'}
SQLITE_UNNAMED = 'uq_services_host_binary_deleted_at'


def _merge_duplicates(bind):
    services = sa.table('services', sa.column('id'), sa.column('host'),
                        sa.column('binary'))
    workers = sa.table('workers', sa.column('service_id'))
    keep = {}
    for row in bind.execute(sa.select(services).order_by(services.c.id)):
        first = keep.setdefault((row.host, row.binary), row.id)
        if first != row.id:
            bind.execute(workers.update()
                         .where(workers.c.service_id == row.id)
                         .values(service_id=first))
            bind.execute(services.delete().where(services.c.id == row.id))


def _old_key_name(bind):
    for key in sa.inspect(bind).get_unique_constraints('services'):
        if key['column_names'] == OLD_COLUMNS:
            return key['name'] or SQLITE_UNNAMED
    raise RuntimeError('services has no unique key on %s' % OLD_COLUMNS)


def upgrade():
    bind = op.get_bind()
    _merge_duplicates(bind)
    old_name = _old_key_name(bind)
    with op.batch_alter_table(
            'services', naming_convention=SQLITE_CONVENTION) as batch_op:
        batch_op.drop_constraint(old_name, type_='unique')
        batch_op.create_unique_constraint(NAME, ['host', 'binary'])


def downgrade():
    with op.batch_alter_table('services') as batch_op:
        batch_op.drop_constraint(NAME, type_='unique')
        batch_op.create_unique_constraint(
            'uniq_services0host0binary0deleted_at', OLD_COLUMNS)
