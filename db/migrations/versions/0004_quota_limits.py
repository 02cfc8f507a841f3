"""quota: limits and the per-project usage sums

Revision ID: 0004_quota_limits
Revises: 0010_clusters
Create Date: 2026-11-25

``quota_limits`` holds the limits an operator set: for a project
(``scope = 'project'``, the project's id) or for a quota class
(``scope = 'class'``, e.g. ``default``); what is set nowhere comes from
the configuration (Cinder's defaults).

``quota_usages`` holds, per project, the number of its live volumes and
snapshots and the gigabytes its volumes and snapshots hold. Every claim
and release changes it in the transaction that changes the allocations,
as allocation writers keep ``inventories.allocated``: the quota check of
a claim reads one row whatever the project holds, and the compare-and-swap
on that row is what serializes a project's claims. A project's row is
made on its first claim, from the tables, so existing data needs no
migration here.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

revision = '0004_quota_limits'
down_revision = '0010_clusters'
branch_labels = None
depends_on = None


def _datetime():
    return sa.DateTime().with_variant(
        mysql.DATETIME(fsp=6), 'mysql')


def upgrade():
    op.create_table(
        'quota_limits',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('scope', sa.String(16), nullable=False),
        sa.Column('scope_id', sa.String(255), nullable=False),
        sa.Column('resource', sa.String(300), nullable=False),
        sa.Column('hard_limit', sa.Integer(), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()),
        sa.UniqueConstraint('scope', 'scope_id', 'resource',
                            name='uniq_quota_limits0scope0scope_id0resource'))
    op.create_table(
        'quota_usages',
        sa.Column('project_id', sa.String(255), primary_key=True),
        sa.Column('volumes', sa.Integer(), nullable=False),
        sa.Column('snapshots', sa.Integer(), nullable=False),
        sa.Column('gigabytes', sa.BigInteger(), nullable=False),
        sa.Column('created_at', _datetime(), nullable=False),
        sa.Column('updated_at', _datetime()))


def downgrade():
    op.drop_table('quota_usages')
    op.drop_table('quota_limits')
