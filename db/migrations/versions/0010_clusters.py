"""clusters: services and volumes record their cluster; workers rows keep
the arguments of their operation

Revision ID: 0010_clusters
Revises: 0003_inventory_allocated
Create Date: 2026-11-25

Workers that serve the same storage form a cluster (``[DEFAULT] cluster``):
a volume records ``cluster_name`` (``cluster@backend#pool``) and its
operations are cast to the cluster, so any live member serves them. A
``workers`` row keeps what its operation needs beyond the resource's row
(the new size of an extend, the new type of a retype), so a peer can
re-drive it when its first worker died or its message was lost.
"""
from alembic import op
import sqlalchemy as sa

revision = '0010_clusters'
down_revision = '0003_inventory_allocated'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cluster_name', sa.String(255)))
    with op.batch_alter_table('volumes', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cluster_name', sa.String(255)))
    with op.batch_alter_table('workers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('arguments', sa.Text()))


def downgrade():
    with op.batch_alter_table('workers', schema=None) as batch_op:
        batch_op.drop_column('arguments')
    with op.batch_alter_table('volumes', schema=None) as batch_op:
        batch_op.drop_column('cluster_name')
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_column('cluster_name')
