"""placement: inventories keep the sum of their allocations

Revision ID: 0003_inventory_allocated
Revises: 0001
Create Date: 2026-11-21

``inventories.allocated`` is the sum of the allocations of the row's class
on its provider, kept by every allocation writer in the same transaction,
so that a claim's capacity check reads the inventory row instead of
summing every allocation of the provider. Existing rows get the sum of
the allocations already written.
"""
from alembic import op
import sqlalchemy as sa

revision = '0003_inventory_allocated'
down_revision = '0002_volume_types'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('inventories', schema=None) as batch_op:
        batch_op.add_column(sa.Column('allocated', sa.BigInteger(),
                                      nullable=False, server_default='0'))
    inventories = sa.table(
        'inventories', sa.column('resource_provider_id', sa.Integer),
        sa.column('resource_class_id', sa.Integer),
        sa.column('allocated', sa.BigInteger))
    allocations = sa.table(
        'allocations', sa.column('resource_provider_id', sa.Integer),
        sa.column('resource_class_id', sa.Integer),
        sa.column('used', sa.Integer))
    op.execute(inventories.update().values(allocated=sa.select(
        sa.func.coalesce(sa.func.sum(allocations.c.used), 0)).where(
            allocations.c.resource_provider_id ==
            inventories.c.resource_provider_id,
            allocations.c.resource_class_id ==
            inventories.c.resource_class_id).scalar_subquery()))


def downgrade():
    with op.batch_alter_table('inventories', schema=None) as batch_op:
        batch_op.drop_column('allocated')
