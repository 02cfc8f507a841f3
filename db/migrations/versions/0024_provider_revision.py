"""resource_providers.revision: a version of what candidates show of it

Revision ID: 0024_provider_revision
Revises: 0023_service_frozen
Create Date: 2026-11-27

Every write that changes what an allocation candidates summary shows of a
provider (its parent or root, its inventories and what is allocated from
them, the names of their classes, its traits) advances the provider's
``revision`` in the same transaction. Unlike the generation, which
follows Placement's rules (a provider that only loses allocations keeps
it), the revision misses no such change, so a process may keep what it
read of a provider for as long as the revision stays the same
(objects.placement.provider_cache).
"""
from alembic import op
import sqlalchemy as sa

revision = '0024_provider_revision'
down_revision = '0023_service_frozen'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('resource_providers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.BigInteger(),
                                      nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('resource_providers', schema=None) as batch_op:
        batch_op.drop_column('revision')
