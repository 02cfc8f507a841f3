"""Quota: the limits of a project, and what it holds.

Limits are those an operator set for the project, else for the quota class
``default``, else the configuration's (Cinder's defaults); -1 is no limit.
A project's own limits are on its usage row, beside what they limit: a
limit is set by a compare-and-swap on that row that refuses one below
what the project holds.

What a project holds is kept in its ``quota_usages`` row: its live volumes
and snapshots, the DISK_GB its volumes and snapshots hold on placement,
and its live backups and their sizes (``backups``, ``backup_gigabytes``).
Every claim and release changes the row in the transaction that changes
the allocations (:func:`charge`), with ONE compare-and-swap whose WHERE
says that each resource it adds to stays within its limit: the check
reads one row however many volumes the project has, and concurrent claims
of one project queue on that row (and only on it: never on the limits, so
projects do not wait for each other). A project's row is made on its
first claim, from what the tables and placement hold then.
"""
import functools

import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exc
from db import models
from db import session
from db import writes as db_writes
from objects.placement import resource_class as rc_obj

LIMITS = models.QuotaLimit.__table__
USAGES = models.QuotaUsage.__table__
Usage = models.QuotaUsage

# Counted resources (a row column each) and the limit on one volume's size.
# The volume type rows (objects.type_quota) count VOLUME_COUNTED only.
VOLUME_COUNTED = ('volumes', 'snapshots', 'gigabytes')
BACKUP_COUNTED = ('backups', 'backup_gigabytes')
COUNTED = VOLUME_COUNTED + BACKUP_COUNTED
PER_VOLUME = 'per_volume_gigabytes'
# Live groups: on the row too, counted by group creates and deletes alone
# (objects.group_quota), never by a volume's claim.
GROUPS = 'groups'
RESOURCES = COUNTED + (PER_VOLUME, GROUPS)
DEFAULT_CLASS = 'default'
# The scope of quota_limits' rows (a project's own limits: see limits).
CLASS = 'class'


class OverQuota(Exception):
    """A claim would take ``resource`` over its limit."""

    def __init__(self, resource, requested, in_use, limit):
        self.resource, self.requested = resource, requested
        self.in_use, self.limit = in_use, limit
        super().__init__('%s over quota: %s requested, %s in use, limit %s'
                         % (resource, requested, in_use, limit))


class UsageRowMissing(Exception):
    """A claim that may not make a usage row found none (see charge)."""


# -- limits -------------------------------------------------------------------
#
# A quota class's limits are rows of quota_limits. A project's own limits
# are on its usage row (``<resource>_limit``, NULL: its class's), the row
# its claims take: a claim's compare-and-swap reads them from the very row
# it locks, so a claim queued behind a limit change sees the new limit.

def limit_column(resource):
    return resource + '_limit'


class LimitBelowUsage(Exception):
    """A project's limit set under what the project holds of it."""

    def __init__(self, resource, usage, limit):
        self.resource, self.usage, self.limit = resource, usage, limit
        super().__init__('%s limit %s below what the project holds, %s'
                         % (resource, limit, usage))


def config_defaults(conf):
    return {name: getattr(conf.quota, name) for name in RESOURCES}


def _class_rows(context, class_name):
    with session.reader.connection.using(context) as conn:
        return {r.resource: r.hard_limit for r in conn.execute(
            sa.select(LIMITS.c.resource, LIMITS.c.hard_limit).where(
                LIMITS.c.scope == CLASS, LIMITS.c.scope_id == class_name))}


def class_limits(context, conf, class_name=DEFAULT_CLASS):
    """{resource: limit} of a quota class, the configuration's where it
    sets none."""
    return dict(config_defaults(conf), **_class_rows(context, class_name))


def own_limits(context, project_id):
    """{resource: limit} the project has of its own (per-type ones aside:
    objects.type_quota)."""
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(
            *[USAGES.c[limit_column(name)] for name in RESOURCES]).where(
            USAGES.c.project_id == project_id)).first()
    if row is None:
        return {}
    return {name: limit for name, limit in zip(RESOURCES, row)
            if limit is not None}


def project_limits(context, conf, project_id):
    """{resource: limit} that apply to ``project_id``: its own, else its
    class's, else the configuration's."""
    limits = class_limits(context, conf)
    limits.update(own_limits(context, project_id))
    return limits


@db_api.retry_on_deadlock
def set_class_limits(context, class_name, limits):
    """Set ``limits`` ({resource: limit}) of a quota class; each row is an
    upsert by one statement (an update, else an insert; a concurrent
    insert of the same row sends the transaction round again). Cinder
    does not hold a class's limits against what projects hold, nor does
    this."""
    now = timeutils.utcnow()
    try:
        with session.writer.connection.using(context) as conn:
            for resource, limit in sorted(limits.items()):
                where = (LIMITS.c.scope == CLASS,
                         LIMITS.c.scope_id == class_name,
                         LIMITS.c.resource == resource)
                if not conn.execute(LIMITS.update().where(*where).values(
                        hard_limit=limit, updated_at=now)).rowcount:
                    conn.execute(LIMITS.insert().values(
                        scope=CLASS, scope_id=class_name,
                        resource=resource, hard_limit=limit,
                        created_at=now))
    except oslo_db_exc.DBDuplicateEntry:
        raise oslo_db_exc.RetryRequest(db_exc.ConcurrentUpdate(
            'quota limit', class_name, 1))


class NotBelow(cond.Condition):
    """The condition that the row holds no more of ``field`` (a count)
    than ``expected``, a new limit of ``resource``; checked in Python
    after a refusal, so that the refusal says what the row holds."""

    def __init__(self, resource, field, limit):
        self.resource = resource
        self.field = field
        self.expected = limit

    def __repr__(self):
        return 'NotBelow(%s<=%r)' % (self.field, self.expected)

    def clause(self, model):
        return cond.column_of(model, self.field) <= self.expected

    def actual(self, row):
        return row[self.field]

    def holds(self, actual):
        return actual is not None and actual <= self.expected

    def explain(self, actual, what):
        return '%s must hold no more %s than the new limit %s, it holds %s' \
            % (what, self.field, self.expected, actual)


def set_limit_columns(context, model, ident, limits, names, make_row):
    """In the caller's transaction: ``limits`` ({counted: limit}, a
    resource's ``<resource>_limit`` column each, ``names`` {counted:
    resource name}) on usage row ``ident`` of ``model``, by one
    compare-and-swap whose WHERE says the row holds no more than each
    limit of a count (LimitBelowUsage). A missing row is made first with
    ``make_row()``."""
    values = {limit_column(name): limit for name, limit in limits.items()}
    values['updated_at'] = timeutils.utcnow()
    # -1 (no limit) is never below anything.
    conditions = [NotBelow(names[name], name, limit)
                  for name, limit in sorted(limits.items())
                  if name in COUNTED + (GROUPS,) and limit != -1]
    for _ in range(2):
        try:
            db_api.update_or_explain(context, model, ident, values,
                                     filters=conditions)
            return
        except db_exc.NotFound:
            make_row()
        except db_exc.ConditionNotMet as exc:
            raise LimitBelowUsage(exc.condition.resource, exc.actual,
                                  exc.condition.expected) from None
    raise db_exc.NotFound(model.cas_name, ident)


def set_own_limits(context, project_id, limits):
    """In the caller's transaction: the project's own ``limits``
    ({resource: limit}) on its usage row (see set_limit_columns)."""
    set_limit_columns(context, Usage, project_id, limits,
                      {name: name for name in RESOURCES},
                      functools.partial(create_row, context, project_id))


def forget_own_limits(context, project_id):
    """In the caller's transaction: the project's limits are its class's
    again (Cinder's delete of a project's quotas)."""
    with session.writer.connection.using(context) as conn:
        conn.execute(USAGES.update().where(
            USAGES.c.project_id == project_id).values(
            updated_at=timeutils.utcnow(),
            **{limit_column(name): None for name in RESOURCES}))


# -- usage ---------------------------------------------------------------------

def _volumes_of(project):
    volumes = models.Volume.__table__
    return sa.select(sa.func.count()).where(
        volumes.c.project_id == project,
        volumes.c.deleted == sa.false()).scalar_subquery()


def groups_of(project):
    groups = models.Group.__table__
    return sa.select(sa.func.count()).where(
        groups.c.project_id == project,
        groups.c.deleted == sa.false()).scalar_subquery()


def _snapshots_of(project):
    snapshots = models.Snapshot.__table__
    return sa.select(sa.func.count()).where(
        snapshots.c.project_id == project,
        snapshots.c.deleted == sa.false()).scalar_subquery()


def _backups_of(project):
    backups = models.Backup.__table__
    return sa.select(sa.func.count()).where(
        backups.c.project_id == project,
        backups.c.deleted == sa.false()).scalar_subquery()


def _backup_gigabytes_of(project):
    backups = models.Backup.__table__
    return sa.select(sa.func.coalesce(sa.func.sum(backups.c.size), 0)).where(
        backups.c.project_id == project,
        backups.c.deleted == sa.false()).scalar_subquery()


# The consumer type holding a moving volume's source: the volume itself
# counts, once.
MIGRATION_CONSUMER = 'MIGRATION'
NOT_COUNTED_CONSUMER_TYPES = (MIGRATION_CONSUMER,)


def placement_gigabytes(project):
    """SQL: the DISK_GB the consumers of ``project`` hold (migrations
    aside)."""
    allocations = models.Allocation.__table__
    consumers = models.Consumer.__table__
    projects = models.Project.__table__
    types = models.ConsumerType.__table__
    return sa.select(sa.func.coalesce(sa.func.sum(allocations.c.used), 0)) \
        .select_from(allocations.join(
            consumers, consumers.c.uuid == allocations.c.consumer_id).join(
            projects, projects.c.id == consumers.c.project_id)).where(
        projects.c.external_id == project,
        allocations.c.resource_class_id ==
        rc_obj.STANDARD_IDS['DISK_GB'],
        ~sa.exists().where(
            types.c.id == consumers.c.consumer_type_id,
            types.c.name.in_(NOT_COUNTED_CONSUMER_TYPES))).scalar_subquery()


def legacy_gigabytes(project):
    """SQL: the sizes of the live volumes and snapshots of ``project`` (the
    legacy count)."""
    volumes = models.Volume.__table__
    snapshots = models.Snapshot.__table__
    return (sa.select(sa.func.coalesce(sa.func.sum(volumes.c.size), 0))
            .where(volumes.c.project_id == project,
                   volumes.c.deleted == sa.false()).scalar_subquery()
            + sa.select(sa.func.coalesce(
                sa.func.sum(snapshots.c.volume_size), 0))
            .where(snapshots.c.project_id == project,
                   snapshots.c.deleted == sa.false()).scalar_subquery())


def create_row(context, project_id):
    """Insert the project's row, counted from the tables and placement;
    a concurrent insert sends the transaction round again."""
    project = sa.bindparam('project', project_id)
    try:
        with session.writer.connection.using(context) as conn:
            conn.execute(USAGES.insert().values(
                project_id=project_id, volumes=_volumes_of(project),
                snapshots=_snapshots_of(project),
                gigabytes=placement_gigabytes(project),
                backups=_backups_of(project),
                backup_gigabytes=_backup_gigabytes_of(project),
                groups=groups_of(project),
                created_at=timeutils.utcnow()))
    except oslo_db_exc.DBDuplicateEntry:
        raise oslo_db_exc.RetryRequest(db_exc.ConcurrentUpdate(
            'quota usage', project_id, 1))


def legacy_usage(context, project_id):
    """{resource: in use} counted from the volume and snapshot tables."""
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(
            _volumes_of(project_id).label('volumes'),
            _snapshots_of(project_id).label('snapshots'),
            legacy_gigabytes(project_id).label('gigabytes'),
            _backups_of(project_id).label('backups'),
            _backup_gigabytes_of(project_id).label('backup_gigabytes'))
        ).first()
    # MySQL sums to a Decimal.
    return {name: int(value) for name, value in row._mapping.items()}


def usage(context, project_id):
    """{resource: in use} of the project, from its row (or, before its
    first claim, counted the way the row would be made)."""
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(
            *[USAGES.c[name] for name in COUNTED]).where(
            USAGES.c.project_id == project_id)).first()
        if row is None:
            row = conn.execute(sa.select(*[
                value.label(name) for name, value in
                _counted(project_id).items()])).first()
    return {name: int(value) for name, value in row._mapping.items()}


def _counted(project):
    return {'volumes': _volumes_of(project),
            'snapshots': _snapshots_of(project),
            'gigabytes': placement_gigabytes(project),
            'backups': _backups_of(project),
            'backup_gigabytes': _backup_gigabytes_of(project)}


def drift(context):
    """(project, row's (volumes, snapshots, gigabytes, backups,
    backup_gigabytes), counted) of every project whose row disagrees with
    what it holds."""
    return rows_that_drift(context, USAGES, [USAGES.c.project_id],
                           _counted(USAGES.c.project_id))


def rows_that_drift(context, usages, keys, counted):
    """(*keys, row's counts, counted) of every row of the usage table
    ``usages`` that disagrees with ``counted`` ({name: SQL counting it for
    the row}, in the order of the counts)."""
    names = list(counted)
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(sa.select(
            *keys, *[usages.c[name] for name in names],
            *[counted[name].label('counted_' + name) for name in names])
        ).all()
    found = []
    for row in rows:
        stored = tuple(getattr(row, name) for name in names)
        actual = tuple(int(getattr(row, 'counted_' + name))
                       for name in names)
        if stored != actual:
            found.append((*row[:len(keys)], stored, actual))
    return found


@db_api.retry_on_deadlock
def recount(context, project_id):
    """Repair: the project's row counted afresh (one statement, so what it
    counts is one snapshot)."""
    project = sa.bindparam('project', project_id)
    with session.writer.connection.using(context) as conn:
        conn.execute(USAGES.update().where(
            USAGES.c.project_id == project_id).values(
            updated_at=timeutils.utcnow(), **_counted(project)))


# -- the compare-and-swap ------------------------------------------------------
#
# Each condition and value is an Sql keyed by its shape, its changes and
# the request's size bind parameters, so db.statements builds the UPDATE
# once and each call only binds its values.

def _param(name, type_=sa.BigInteger):
    return sa.bindparam('quota_' + name, type_=type_)


def class_limit(resource):
    """SQL: the default class's limit of ``resource``, if it sets one."""
    return sa.select(LIMITS.c.hard_limit).where(
        LIMITS.c.scope == CLASS, LIMITS.c.scope_id == DEFAULT_CLASS,
        LIMITS.c.resource == resource).scalar_subquery()


def _limit(resource):
    """SQL: the limit of ``resource`` for the row's project: its own, on
    the row, else its class's, else the configuration's."""
    return sa.func.coalesce(getattr(Usage, limit_column(resource)),
                            class_limit(resource),
                            _param('default_' + resource))


class Within(cond.Filter):
    """The condition that ``resource`` stays within its limit."""

    def __init__(self, resource, criterion):
        super().__init__(criterion, 'must keep %s within its quota'
                         % resource)
        self.resource = resource


def at_most(amount, limit):
    """SQL: ``amount`` <= ``limit``, always true for -1 (no limit; limits
    are never below -1). ``limit`` appears once: its subqueries are the
    bulk of the statement, and a statement short enough is parsed once
    per process by the PostgreSQL driver instead of at every execution."""
    return sa.func.coalesce(amount <= sa.func.nullif(limit, -1), sa.true())


def _within(name):
    # Only for a count that grows (see _conditions).
    return at_most(getattr(Usage, name) + _param(name), _limit(name))


def _within_per_volume():
    return at_most(_param('size'), _limit(PER_VOLUME))


def _params(values, *names):
    return {'quota_' + name: values[name] for name in names}


def _conditions(values):
    # Only the counts that grow can exceed their limit: the statement
    # checks those alone (shorter: the server plans and runs less).
    conditions = [
        Within(name, cond.Sql(('quota_within', name),
                              functools.partial(_within, name),
                              _params(values, name, 'default_' + name)))
        for name in COUNTED if values[name] > 0]
    if values['size'] > 0:
        conditions.append(Within(PER_VOLUME, cond.Sql(
            ('quota_within', PER_VOLUME), _within_per_volume,
            _params(values, 'size', 'default_' + PER_VOLUME))))
    return conditions


def _values(values):
    # The counts that change (none: the row is only taken, e.g. by a
    # retype, which moves counts between type rows).
    changes = {name: cond.Sql(('quota_add', name),
                              functools.partial(_added, name),
                              _params(values, name))
               for name in COUNTED if values[name]}
    changes['updated_at'] = values['now']
    return changes


def _added(name):
    return getattr(Usage, name) + _param(name)


def charge(context, conf, project_id, volumes=0, snapshots=0, gigabytes=0,
           size=0, enforce=True, make_missing=True, backups=0,
           backup_gigabytes=0, first=()):
    """In the caller's transaction: add to what the project holds (negative
    numbers release), refusing with OverQuota what would exceed a limit
    (``enforce``; a release never is refused). ``size``: the size of the
    one volume claimed, checked against per_volume_gigabytes. Rows made
    by a caller with no project (internal tools) count against none.

    A missing row is made here, counted from the tables, unless the
    caller's transaction has already inserted what it charges for (it
    would count twice): with ``make_missing`` False, UsageRowMissing.

    ``first``: writes (db.writes) of the rows charged for, which the swap
    does not read, made once in the caller's transaction whatever it
    finds: with its first statement (carried in it on PostgreSQL,
    db.api.update_or_explain), else alone."""
    if project_id is None:
        if first:
            with session.writer.connection.using(context) as conn:
                db_writes.make(conn, first)
        return
    values = {'volumes': volumes, 'snapshots': snapshots,
              'gigabytes': gigabytes, 'backups': backups,
              'backup_gigabytes': backup_gigabytes,
              'size': size if enforce else 0, 'now': timeutils.utcnow()}
    adds = any(values[name] > 0 for name in COUNTED)
    for name, default in config_defaults(conf).items():
        # Not enforced: no limit.
        values['default_' + name] = default if enforce else -1
    conditions = _conditions(values) if enforce and (
        adds or size > 0) else []
    for _ in range(2):
        try:
            made, first = first, ()
            db_api.update_or_explain(context, Usage, project_id,
                                     _values(values), filters=conditions,
                                     first=made)
            return
        except db_exc.NotFound:
            if not adds:
                # Nothing held yet: the row, once made, counts this.
                return
            if not make_missing:
                raise UsageRowMissing(project_id)
            create_row(context, project_id)
        except db_exc.ConditionNotMet as exc:
            raise _over_quota(context, conf, project_id, exc.condition,
                              values) from None


def _over_quota(context, conf, project_id, condition, values):
    resource = condition.resource
    limit = project_limits(context, conf, project_id)[resource]
    if resource == PER_VOLUME:
        return OverQuota(resource, values['size'], 0, limit)
    with session.reader.connection.using(context) as conn:
        in_use = conn.execute(sa.select(USAGES.c[resource]).where(
            USAGES.c.project_id == project_id)).scalar()
    return OverQuota(resource, values[resource], in_use, limit)


# -- usage as reported (seed 004) ----------------------------------------------

# Statuses of volumes from before claims that the online migration leaves
# without an allocation: they never reached a pool.
NEVER_PLACED = ('error', 'creating')
# Projects known to hold no volume without its allocation: remembered, as
# the check that every volume has one reads all the project's volumes.
_migrated = set()


def forget_migrated():
    """Forget which projects were found migrated (a database emptied, as
    between tests)."""
    _migrated.clear()


def _has_unmigrated_volumes(context, project_id):
    volumes = models.Volume.__table__
    allocations = models.Allocation.__table__
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(sa.exists().where(
            volumes.c.project_id == project_id,
            volumes.c.deleted == sa.false(),
            volumes.c.host.is_not(None),
            volumes.c.status.not_in(NEVER_PLACED),
            ~sa.exists().where(allocations.c.consumer_id ==
                               volumes.c.id)))).scalar()


def reported_usage(context, conf, project_id):
    """{resource: in use} as the quota and limits APIs show it: counted
    from placement (the project's row) unless ``[quota]
    count_usage_from_placement`` is off, or the project still has volumes
    from before claims that ``online_data_migrations`` has not given their
    allocations: then the legacy count from the tables."""
    if counts_from_placement(context, conf, project_id):
        return usage(context, project_id)
    return legacy_usage(context, project_id)


def counts_from_placement(context, conf, project_id):
    """Whether the project's usage is reported from placement (its rows)
    rather than by the legacy count: see reported_usage."""
    if not conf.quota.count_usage_from_placement:
        return False
    if project_id in _migrated:
        return True
    if not _has_unmigrated_volumes(context, project_id):
        _migrated.add(project_id)
        return True
    return False
