"""Per-volume-type quotas: Cinder's ``volumes_<type>``,
``snapshots_<type>`` and ``gigabytes_<type>``.

A project's own per-type limits are on its row of the type (below);
a quota class's are rows of ``quota_limits``, keyed by the resource name
(the type's name in it, as Cinder keys them). Set nowhere, a per-type
limit is -1 (none), Cinder's default.

What a project holds of a type is kept in its ``type_quota_usages`` row:
the live volumes and snapshots of that type and the DISK_GB they hold
(the project's row's counts, split by type). Every claim and release
changes it with the project's row, in the same transaction, by ONE
compare-and-swap whose WHERE says that each count it adds to stays within
the type's limit (the row's own, else the class's looked up in that
statement by the type's name as the row's type has it then). The
project's row is changed first, so a project's claims already queue
there and two rows of one project are never taken in a different order.
A row is made on first use, counted from the tables and placement; its
id is derived from the pair, so two first claims of one pair collide on
it and one is sent round again.
"""
import collections
import functools
import threading
import uuid

import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exc
from db import models
from db import session
from objects import quota
from objects.placement import resource_class as rc_obj

USAGES = models.TypeQuotaUsage.__table__
Usage = models.TypeQuotaUsage
COUNTED = quota.VOLUME_COUNTED
# Cinder's default for the per-type resources: no limit.
DEFAULT_LIMIT = -1
# Fixed: the ids of existing rows depend on it.
_ROW_NAMESPACE = uuid.UUID('6f1bb3a4-8f8e-4a51-9a43-1f0c2f7f5d1e')


def row_id(project_id, volume_type_id):
    return str(uuid.uuid5(_ROW_NAMESPACE,
                          '%s/%s' % (project_id, volume_type_id)))


def resource_name(counted, type_name):
    return '%s_%s' % (counted, type_name)


# -- limits --------------------------------------------------------------------

def live_types(context):
    """{type id: name} of every live volume type (public or not)."""
    types = models.VolumeType.__table__
    with session.reader.connection.using(context) as conn:
        return dict(conn.execute(sa.select(types.c.id, types.c.name).where(
            types.c.deleted == sa.false())).all())


def resources(context):
    """{resource name: (counted resource, type id)} of the live types."""
    return {resource_name(counted, name): (counted, type_id)
            for type_id, name in live_types(context).items()
            for counted in COUNTED}


def shown_limits(limits, names):
    """``limits`` (as objects.quota reads them) as the API shows them: the
    project-wide resources, and the per-type ``names`` (see resources),
    -1 where unset; limits of types that are gone are left out."""
    shown = {name: limits[name] for name in quota.RESOURCES}
    shown.update((name, limits.get(name, DEFAULT_LIMIT)) for name in names)
    return shown


def own_limits(context, project_id):
    """{resource name: limit} of the per-type limits the project has of
    its own, for the live types."""
    types = models.VolumeType.__table__
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(sa.select(
            types.c.name, *[USAGES.c[quota.limit_column(counted)]
                            for counted in COUNTED]).join_from(
            USAGES, types, types.c.id == USAGES.c.volume_type_id).where(
            USAGES.c.project_id == project_id,
            types.c.deleted == sa.false())).all()
    return {resource_name(counted, row.name): limit for row in rows
            for counted, limit in zip(COUNTED, row[1:])
            if limit is not None}


def set_own_limits(context, project_id, volume_type_id, type_name, limits):
    """In the caller's transaction: the project's own per-type ``limits``
    ({counted: limit}) of the type on its row of it, by one
    compare-and-swap that refuses one below what the row holds
    (objects.quota.LimitBelowUsage, named ``<counted>_<type name>``)."""
    quota.set_limit_columns(
        context, Usage, row_id(project_id, volume_type_id), limits,
        {counted: resource_name(counted, type_name) for counted in COUNTED},
        functools.partial(_create_row, context, project_id, volume_type_id))


def forget_own_limits(context, project_id):
    """In the caller's transaction: the project's per-type limits are its
    class's again."""
    with session.writer.connection.using(context) as conn:
        conn.execute(USAGES.update().where(
            USAGES.c.project_id == project_id).values(
            updated_at=timeutils.utcnow(),
            **{quota.limit_column(counted): None for counted in COUNTED}))


def rename_limits(context, volume_type_id, new_name):
    """In the caller's transaction, before the type's rename: its quota
    classes' limits move to the resource names of ``new_name`` (the
    projects' own are on the rows of its id); the old name is read by
    the same statement."""
    types = models.VolumeType.__table__
    limits = quota.LIMITS
    old_name = sa.select(types.c.name).where(
        types.c.id == volume_type_id).scalar_subquery()
    with session.writer.connection.using(context) as conn:
        for counted in COUNTED:
            prefix = sa.bindparam('prefix_' + counted, counted + '_',
                                  type_=sa.String)
            conn.execute(limits.update().where(
                limits.c.resource == prefix + old_name).values(
                resource=resource_name(counted, new_name),
                updated_at=timeutils.utcnow()))


# -- usage ---------------------------------------------------------------------

def _live_of(table, project, type_id):
    """The WHERE of the live rows of ``table`` (volumes or snapshots) of
    the pair; plain criteria, so a statement over the usage rows
    correlates them with each row."""
    return (table.c.project_id == project,
            table.c.volume_type_id == type_id, table.c.deleted == sa.false())


VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__


def _count(table, project, type_id):
    return sa.select(sa.func.count()).select_from(table).where(
        *_live_of(table, project, type_id)).scalar_subquery()


def _placement_gigabytes(project, type_id):
    """SQL: the DISK_GB the volumes and snapshots of the pair hold (a
    migration's hold on its source is another consumer: not counted)."""
    allocations = models.Allocation.__table__

    def held_by(table):
        used = sa.func.coalesce(sa.func.sum(allocations.c.used), 0)
        joined = allocations.join(
            table, table.c.id == allocations.c.consumer_id)
        return sa.select(used).select_from(joined).where(
            allocations.c.resource_class_id ==
            rc_obj.STANDARD_IDS['DISK_GB'],
            *_live_of(table, project, type_id)).scalar_subquery()
    return held_by(VOLUMES) + held_by(SNAPSHOTS)


def _legacy_gigabytes(project, type_id):
    return (sa.select(sa.func.coalesce(sa.func.sum(VOLUMES.c.size), 0))
            .where(*_live_of(VOLUMES, project, type_id)).scalar_subquery()
            + sa.select(sa.func.coalesce(
                sa.func.sum(SNAPSHOTS.c.volume_size), 0))
            .where(*_live_of(SNAPSHOTS, project, type_id))
            .scalar_subquery())


def _counted(project, type_id, legacy=False):
    return {'volumes': _count(VOLUMES, project, type_id),
            'snapshots': _count(SNAPSHOTS, project, type_id),
            'gigabytes': (_legacy_gigabytes if legacy
                          else _placement_gigabytes)(project, type_id)}


def _create_row(context, project_id, volume_type_id):
    """Insert the pair's row, counted from the tables and placement; a
    concurrent insert sends the transaction round again."""
    project = sa.bindparam('project', project_id)
    type_id = sa.bindparam('type_id', volume_type_id)
    try:
        with session.writer.connection.using(context) as conn:
            conn.execute(USAGES.insert().values(
                id=row_id(project_id, volume_type_id),
                project_id=project_id, volume_type_id=volume_type_id,
                created_at=timeutils.utcnow(),
                **_counted(project, type_id)))
    except oslo_db_exc.DBDuplicateEntry:
        raise oslo_db_exc.RetryRequest(db_exc.ConcurrentUpdate(
            'volume type quota usage', project_id, 1))


def rows_present(context, project_id, volume_type_id):
    """(the project's row exists, the pair's row exists), in one read;
    (True, True) for no project (nothing to make) and for a pair this
    process has seen (see _Seen), without reading."""
    if project_id is None or (project_id, volume_type_id) in _seen:
        return True, True
    project = sa.exists().where(quota.USAGES.c.project_id == project_id)
    with session.reader.connection.using(context) as conn:
        if volume_type_id is None:
            # No type (a volume from before types): no pair row to make.
            return conn.execute(sa.select(project)).scalar(), True
        return tuple(conn.execute(sa.select(project, sa.exists().where(
            USAGES.c.id == row_id(project_id, volume_type_id)))).one())


def _insert_once(create, *args):
    try:
        create(*args)
    except oslo_db_exc.RetryRequest:
        pass  # made meanwhile by another request: that is all we wanted


class _Seen:
    """A bounded set of the (project, type) pairs whose rows this process
    has seen exist. Usage rows are never deleted, so a pair seen needs no
    further read; were one gone anyway, the claim finds out (see
    objects.quota.charge)."""

    def __init__(self, size):
        self._pairs = collections.OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def __contains__(self, pair):
        return pair in self._pairs

    def add(self, pair):
        with self._lock:
            self._pairs[pair] = True
            while len(self._pairs) > self._size:
                self._pairs.popitem(last=False)

    def discard(self, pair):
        with self._lock:
            self._pairs.pop(pair, None)

    def clear(self):
        with self._lock:
            self._pairs.clear()


_seen = _Seen(10000)


def forget_seen():
    """Forget which usage rows were seen (a database emptied, as between
    tests)."""
    _seen.clear()


def make_rows_again(context, project_id, volume_type_id):
    """The rows of a pair seen once but gone since (deleted by hand): made
    again, each in a transaction of its own, counted from the tables."""
    _seen.discard((project_id, volume_type_id))
    ensure_rows(context, project_id, volume_type_id)


@db_api.retry_on_deadlock
def ensure_rows(context, project_id, volume_type_id, present=None):
    """Make the project's usage row and the (project, type) row, each in a
    transaction of its own, before the transaction of the first claim: a
    new project's first creates, many at once, then wait for one short
    insert instead of each sending its whole claim round again on MySQL's
    deadlocks between their inserts. (A claim that still finds no row
    makes it, or has it made again: see objects.quota.charge.) One read
    when both exist, none once this process has seen them or if the
    caller read them already (``present``, what :func:`rows_present`
    said, e.g. in a transaction of other reads)."""
    if project_id is None or (project_id, volume_type_id) in _seen:
        return
    has_project, has_pair = present or rows_present(
        context, project_id, volume_type_id)
    if not has_project:
        _insert_once(quota.create_row, context, project_id)
    if volume_type_id is not None and not has_pair:
        _insert_once(_create_row, context, project_id, volume_type_id)
    _seen.add((project_id, volume_type_id))


def reported_usage(context, project_id, type_ids, from_placement=True):
    """{type id: {resource: in use}} of the project: from its rows (types
    without one counted the way the row would be made), or with
    ``from_placement`` off the legacy count from the tables."""
    found = {}
    with session.reader.connection.using(context) as conn:
        if from_placement:
            for row in conn.execute(sa.select(
                    USAGES.c.volume_type_id, USAGES.c.volumes,
                    USAGES.c.snapshots, USAGES.c.gigabytes).where(
                    USAGES.c.project_id == project_id)):
                found[row.volume_type_id] = {
                    name: int(getattr(row, name)) for name in COUNTED}
        for type_id in type_ids:
            if type_id in found:
                continue
            row = conn.execute(sa.select(*[
                value.label(name) for name, value in _counted(
                    project_id, type_id, legacy=not from_placement).items()
            ])).first()
            found[type_id] = {name: int(value)
                              for name, value in row._mapping.items()}
    return found


def drift(context):
    """(project, type id, row's (volumes, snapshots, gigabytes), counted)
    of every row that disagrees with what its pair holds. A volume whose
    retype is in flight counts in the new type's row already: it shows
    here until the retype ends."""
    return quota.rows_that_drift(
        context, USAGES, [USAGES.c.project_id, USAGES.c.volume_type_id],
        _counted(USAGES.c.project_id, USAGES.c.volume_type_id))


@db_api.retry_on_deadlock
def recount(context, project_id, volume_type_id):
    """Repair: the pair's row counted afresh, in one statement."""
    project = sa.bindparam('project', project_id)
    type_id = sa.bindparam('type_id', volume_type_id)
    with session.writer.connection.using(context) as conn:
        conn.execute(USAGES.update().where(
            USAGES.c.id == row_id(project_id, volume_type_id)).values(
            updated_at=timeutils.utcnow(), **_counted(project, type_id)))


# -- the compare-and-swap ------------------------------------------------------

def _param(name, type_=sa.BigInteger):
    return sa.bindparam('tquota_' + name, type_=type_)


def _limit(counted):
    """SQL: the limit of ``<counted>_<the row's type name>`` for the row's
    project: its own, on the row, else the default class's, else none."""
    types = models.VolumeType.__table__
    # Correlated explicitly: the row updated is two levels up.
    resource = _param('prefix_' + counted, sa.String) + sa.select(
        types.c.name).where(types.c.id == Usage.volume_type_id) \
        .correlate(USAGES).scalar_subquery()
    return sa.func.coalesce(getattr(Usage, quota.limit_column(counted)),
                            quota.class_limit(resource), DEFAULT_LIMIT)


def _within(counted):
    # Only for a count that grows (see _conditions).
    return quota.at_most(getattr(Usage, counted) + _param(counted),
                         _limit(counted))


def _conditions(values):
    # Only the counts that grow can exceed their limit (see
    # objects.quota._conditions).
    return [quota.Within(counted, cond.Sql(
        ('type_quota_within', counted), functools.partial(_within, counted),
        {'tquota_' + counted: values[counted],
         'tquota_prefix_' + counted: counted + '_'}))
        for counted in COUNTED if values[counted] > 0]


def _added(counted):
    return getattr(Usage, counted) + _param(counted)


def _values(values):
    changes = {counted: cond.Sql(('type_quota_add', counted),
                                 functools.partial(_added, counted),
                                 {'tquota_' + counted: values[counted]})
               for counted in COUNTED if values[counted]}
    changes['updated_at'] = timeutils.utcnow()
    return changes


def charge(context, project_id, volume_type_id, volumes=0, snapshots=0,
           gigabytes=0, enforce=True, make_missing=True):
    """In the caller's transaction, after objects.quota.charge of the same
    counts: add to what the project holds of the type (negative numbers
    release), refusing with OverQuota (named ``volumes_<type>`` ...) what
    would exceed a per-type limit (``enforce``; a release never is). A
    missing row: as objects.quota.charge."""
    if project_id is None or volume_type_id is None:
        return
    values = {'volumes': volumes, 'snapshots': snapshots,
              'gigabytes': gigabytes}
    adds = any(value > 0 for value in values.values())
    conditions = _conditions(values) if enforce and adds else []
    ident = row_id(project_id, volume_type_id)
    for _ in range(2):
        try:
            db_api.update_or_explain(context, Usage, ident, _values(values),
                                     filters=conditions)
            return
        except db_exc.NotFound:
            if not adds:
                return  # nothing held yet: the row, once made, counts this
            if not make_missing:
                raise quota.UsageRowMissing(project_id)
            _create_row(context, project_id, volume_type_id)
        except db_exc.ConditionNotMet as exc:
            raise _over_quota(context, ident, exc.condition.resource,
                              values) from None


def _over_quota(context, ident, counted, values):
    types = models.VolumeType.__table__
    with session.reader.connection.using(context) as conn:
        row = conn.execute(sa.select(
            USAGES.c[counted].label('in_use'),
            USAGES.c[quota.limit_column(counted)].label('own_limit'),
            types.c.name).join_from(
            USAGES, types, types.c.id == USAGES.c.volume_type_id).where(
            USAGES.c.id == ident)).first()
        resource = resource_name(counted, row.name)
        limit = row.own_limit
        if limit is None:
            limit = conn.execute(sa.select(
                quota.class_limit(resource))).scalar()
    return quota.OverQuota(resource, values[counted], row.in_use,
                           DEFAULT_LIMIT if limit is None else limit)
