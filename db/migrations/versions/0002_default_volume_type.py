"""volume types: unique live names and the __DEFAULT__ type

Revision ID: 0002_volume_types
Revises: 0001
Create Date: 2026-11-21

``live_name`` holds a type's name while it is not deleted and NULL after;
its unique constraint keeps live names unique even when two API processes
create the same name at once (a check-then-insert could not). The
``__DEFAULT__`` type (fixed id) is what a volume created without a type
gets, as in Cinder; it can never be deleted.
"""
import datetime

from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0002_volume_types'
down_revision = '0001'
branch_labels = None
depends_on = None

DEFAULT_TYPE_ID = '8ec57e01-1841-45cb-b833-d43ee4089eb6'
DEFAULT_TYPE_NAME = '__DEFAULT__'


def upgrade():
    with op.batch_alter_table('volume_types', schema=None) as batch_op:
        batch_op.add_column(sa.Column('live_name', sa.String(length=255),
                                      nullable=True))
        batch_op.create_unique_constraint('uniq_volume_types0live_name',
                                          ['live_name'])
    types = sa.table(
        'volume_types',
        sa.column('id', sa.String(36)), sa.column('name', sa.String(255)),
        sa.column('live_name', sa.String(255)),
        sa.column('description', sa.String(255)),
        sa.column('is_public', sa.Boolean),
        sa.column('deleted', sa.Boolean),
        sa.column('created_at', sa.DateTime().with_variant(
            mysql.DATETIME(fsp=6), 'mysql')))
    op.execute(types.update().where(types.c.deleted == sa.false())
               .values(live_name=types.c.name))
    op.bulk_insert(types, [{
        'id': DEFAULT_TYPE_ID, 'name': DEFAULT_TYPE_NAME,
        'live_name': DEFAULT_TYPE_NAME, 'description': 'Default Volume Type',
        'is_public': True, 'deleted': False,
        'created_at': datetime.datetime.utcnow()}])


def downgrade():
    op.execute("DELETE FROM volume_types WHERE id = '%s'" % DEFAULT_TYPE_ID)
    with op.batch_alter_table('volume_types', schema=None) as batch_op:
        batch_op.drop_constraint('uniq_volume_types0live_name',
                                 type_='unique')
        batch_op.drop_column('live_name')
