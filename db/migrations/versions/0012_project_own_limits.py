"""quota: a project's own limits live on its usage rows

Revision ID: 0012_project_own_limits
Revises: 0011_binary_keys
Create Date: 2026-11-26

A claim's compare-and-swap on the project's ``quota_usages`` row read the
project's limits from ``quota_limits`` in a subquery, which sees the
statement's snapshot: a claim queued behind a limit being lowered still
saw the old limit once the row was free, and could take the project over
its new limit. The limits a project has of its own (``volumes_limit``
...; NULL: the quota class's) now sit on the row the claims lock, and
setting one is a compare-and-swap on that row whose WHERE says the
project holds no more than it. The per-type limits go the same way, to
the ``type_quota_usages`` row of their (project, type).

``quota_limits`` keeps the limits of quota classes. The project rows move
to the usage rows: a missing one is made, counted from the tables and
placement as objects.quota and objects.type_quota count it at this
revision. Per-type limits named after no live volume type are dropped:
nothing shows or applies them.
"""
import uuid

from alembic import op
import sqlalchemy as sa

revision = '0012_project_own_limits'
down_revision = '0011_binary_keys'
branch_labels = None
depends_on = None

COUNTED = ('volumes', 'snapshots', 'gigabytes')
PROJECT_WIDE = COUNTED + ('per_volume_gigabytes',)
# os-resource-classes' index of DISK_GB (placement's standard class id).
DISK_GB = 2
# objects.type_quota's: the ids of existing rows depend on it.
_ROW_NAMESPACE = uuid.UUID('6f1bb3a4-8f8e-4a51-9a43-1f0c2f7f5d1e')

limits = sa.table('quota_limits', sa.column('id'), sa.column('scope'),
                  sa.column('scope_id'), sa.column('resource'),
                  sa.column('hard_limit'), sa.column('created_at'))
usages = sa.table('quota_usages', sa.column('project_id'),
                  sa.column('volumes'), sa.column('snapshots'),
                  sa.column('gigabytes'), sa.column('created_at'),
                  *[sa.column(name + '_limit') for name in PROJECT_WIDE])
type_usages = sa.table('type_quota_usages', sa.column('id'),
                       sa.column('project_id'), sa.column('volume_type_id'),
                       sa.column('volumes'), sa.column('snapshots'),
                       sa.column('gigabytes'), sa.column('created_at'),
                       *[sa.column(name + '_limit') for name in COUNTED])
volumes = sa.table('volumes', sa.column('id'), sa.column('project_id'),
                   sa.column('volume_type_id'), sa.column('deleted'))
snapshots = sa.table('snapshots', sa.column('id'), sa.column('project_id'),
                     sa.column('volume_type_id'), sa.column('deleted'))
types = sa.table('volume_types', sa.column('id'), sa.column('name'),
                 sa.column('deleted'))
allocations = sa.table('allocations', sa.column('consumer_id'),
                       sa.column('resource_class_id'), sa.column('used'))
consumers = sa.table('consumers', sa.column('uuid'), sa.column('project_id'),
                     sa.column('consumer_type_id'))
projects = sa.table('projects', sa.column('id'), sa.column('external_id'))
consumer_types = sa.table('consumer_types', sa.column('id'),
                          sa.column('name'))


def _count(table, *where):
    return sa.select(sa.func.count()).select_from(table).where(
        table.c.deleted == sa.false(), *where).scalar_subquery()


def _sum_used(joined, *where):
    return sa.select(sa.func.coalesce(sa.func.sum(allocations.c.used), 0)) \
        .select_from(joined).where(
            allocations.c.resource_class_id == DISK_GB,
            *where).scalar_subquery()


def _project_row(project):
    gigabytes = _sum_used(
        allocations.join(consumers,
                         consumers.c.uuid == allocations.c.consumer_id)
        .join(projects, projects.c.id == consumers.c.project_id),
        projects.c.external_id == project,
        ~sa.exists().where(consumer_types.c.id == consumers.c.consumer_type_id,
                           consumer_types.c.name == 'MIGRATION'))
    return {'project_id': project,
            'volumes': _count(volumes, volumes.c.project_id == project),
            'snapshots': _count(snapshots, snapshots.c.project_id == project),
            'gigabytes': gigabytes}


def _type_row(project, type_id):
    def of(table):
        return (table.c.project_id == project,
                table.c.volume_type_id == type_id,
                table.c.deleted == sa.false())

    def held_by(table):
        return _sum_used(allocations.join(
            table, table.c.id == allocations.c.consumer_id), *of(table))
    return {'id': str(uuid.uuid5(_ROW_NAMESPACE,
                                 '%s/%s' % (project, type_id))),
            'project_id': project, 'volume_type_id': type_id,
            'volumes': _count(volumes, *of(volumes)[:2]),
            'snapshots': _count(snapshots, *of(snapshots)[:2]),
            'gigabytes': held_by(volumes) + held_by(snapshots)}


def _add_limit_columns():
    with op.batch_alter_table('quota_usages') as batch_op:
        for name in PROJECT_WIDE:
            batch_op.add_column(sa.Column(name + '_limit', sa.Integer()))
    with op.batch_alter_table('type_quota_usages') as batch_op:
        for name in COUNTED:
            batch_op.add_column(sa.Column(name + '_limit', sa.Integer()))


def _per_type(resource, type_ids):
    """(counted, type id) a per-type resource name stands for, or None."""
    for counted in COUNTED:
        prefix = counted + '_'
        if resource.startswith(prefix) and \
                resource[len(prefix):] in type_ids:
            return counted, type_ids[resource[len(prefix):]]
    return None


def upgrade():
    _add_limit_columns()
    conn = op.get_bind()
    now = sa.func.now()
    type_ids = dict(conn.execute(sa.select(types.c.name, types.c.id).where(
        types.c.deleted == sa.false())).all())
    own, per_type = {}, {}
    for project, resource, limit in conn.execute(sa.select(
            limits.c.scope_id, limits.c.resource, limits.c.hard_limit)
            .where(limits.c.scope == 'project')):
        if resource in PROJECT_WIDE:
            own.setdefault(project, {})[resource + '_limit'] = limit
            continue
        pair = _per_type(resource, type_ids)
        if pair is not None:
            counted, type_id = pair
            per_type.setdefault((project, type_id), {})[
                counted + '_limit'] = limit
    for project, values in sorted(own.items()):
        if not conn.execute(sa.select(usages.c.project_id).where(
                usages.c.project_id == project)).first():
            conn.execute(usages.insert().values(
                created_at=now, **_project_row(project)))
        conn.execute(usages.update().where(
            usages.c.project_id == project).values(**values))
    for (project, type_id), values in sorted(per_type.items()):
        row = _type_row(project, type_id)
        if not conn.execute(sa.select(type_usages.c.id).where(
                type_usages.c.id == row['id'])).first():
            conn.execute(type_usages.insert().values(created_at=now, **row))
        conn.execute(type_usages.update().where(
            type_usages.c.id == row['id']).values(**values))
    conn.execute(limits.delete().where(limits.c.scope == 'project'))


def downgrade():
    conn = op.get_bind()
    now = sa.func.now()
    for row in conn.execute(sa.select(usages)).mappings().all():
        for name in PROJECT_WIDE:
            if row[name + '_limit'] is not None:
                conn.execute(limits.insert().values(
                    scope='project', scope_id=row['project_id'],
                    resource=name, hard_limit=row[name + '_limit'],
                    created_at=now))
    for row in conn.execute(sa.select(type_usages, types.c.name).join_from(
            type_usages, types,
            types.c.id == type_usages.c.volume_type_id)).mappings().all():
        for name in COUNTED:
            if row[name + '_limit'] is not None:
                conn.execute(limits.insert().values(
                    scope='project', scope_id=row['project_id'],
                    resource='%s_%s' % (name, row['name']),
                    hard_limit=row[name + '_limit'], created_at=now))
    with op.batch_alter_table('type_quota_usages') as batch_op:
        for name in COUNTED:
            batch_op.drop_column(name + '_limit')
    with op.batch_alter_table('quota_usages') as batch_op:
        for name in PROJECT_WIDE:
            batch_op.drop_column(name + '_limit')
