"""Volumes and snapshots against placement, for operators.

- The online data migrations (``volapi-manage db online_data_migrations``)
  :func:`allocate_volumes` and :func:`allocate_snapshots` give the volumes
  and snapshots from before claims their allocation, in batches (each
  volume in a transaction that holds its row, with its project's usage).
- ``volapi-manage placement audit [--fix]`` (:func:`audit`) reports drift
  and, with ``--fix``, repairs it: allocations whose consumer is gone,
  live volumes and snapshots without their allocation, sizes that
  disagree.
"""
import sqlalchemy as sa
from oslo_config import cfg
from oslo_log import log as logging

from db import api as db_api
from db import models
from db import session
from objects import quota
from objects import type_quota
from objects.placement import allocation as alloc_obj
from volapi.volume import claims

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__
ALLOCATIONS = models.Allocation.__table__
PROVIDERS = models.ResourceProvider.__table__


def _unallocated_volumes(limit):
    return sa.select(VOLUMES.c.id).where(
        VOLUMES.c.deleted == sa.false(), VOLUMES.c.host.contains('#'),
        VOLUMES.c.status.not_in(quota.NEVER_PLACED),
        ~sa.exists().where(ALLOCATIONS.c.consumer_id == VOLUMES.c.id)
    ).order_by(VOLUMES.c.id).limit(limit)


def _unallocated_snapshots(limit):
    return sa.select(SNAPSHOTS.c.id).select_from(SNAPSHOTS.join(
        VOLUMES, VOLUMES.c.id == SNAPSHOTS.c.volume_id)).where(
        SNAPSHOTS.c.deleted == sa.false(), VOLUMES.c.host.contains('#'),
        ~sa.exists().where(ALLOCATIONS.c.consumer_id == SNAPSHOTS.c.id)
    ).order_by(SNAPSHOTS.c.id).limit(limit)


def _ids(context, query):
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).scalars().all()


@db_api.retry_on_deadlock
def _allocate(context, model, ident):
    """Give one volume or snapshot its allocation, holding its row (a
    compare-and-swap that it is still live and unallocated writes its
    ``updated_at`` unchanged) and its project's usage. False if it is gone
    or its pool cannot hold it."""
    with session.writer.connection.using(context) as conn:
        row = conn.execute(sa.select(model.__table__).where(
            model.__table__.c.id == ident)).mappings().first()
        if row is None or row['deleted']:
            return False
        size_column = 'size' if model is models.Volume else 'volume_size'
        if not db_api.conditional_update(
                context, model, {'updated_at': model.updated_at},
                {'id': ident, 'deleted': False,
                 size_column: row[size_column]},
                [~sa.exists().where(ALLOCATIONS.c.consumer_id == ident)]):
            return False
        if model is models.Volume:
            host, size, kind = row['host'], row['size'], \
                claims.VOLUME_CONSUMER
        else:
            host = conn.execute(sa.select(VOLUMES.c.host).where(
                VOLUMES.c.id == row['volume_id'])).scalar()
            size, kind = row['volume_size'], claims.SNAPSHOT_CONSUMER
        # The usage first: a row made now counts from placement, which
        # does not hold this one yet.
        quota.charge(context, CONF, row['project_id'], gigabytes=size,
                     enforce=False)
        type_quota.charge(context, row['project_id'], row['volume_type_id'],
                          gigabytes=size, enforce=False)
        try:
            claims.write_allocation(context, ident, host, size,
                                    row['project_id'], row['user_id'], kind)
        except claims.NoRoom as exc:
            LOG.warning('%s %s: %s; left without an allocation',
                        model.cas_name, ident, exc)
            raise _Skipped() from None
    return True


class _Skipped(Exception):
    """Rolls the one volume's transaction back."""


def _migrate(context, model, query, batch_size):
    found = _ids(context, query(batch_size))
    done = 0
    for ident in found:
        try:
            done += bool(_allocate(context, model, ident))
        except _Skipped:
            pass
    return len(found), done


def allocate_volumes(context, batch_size):
    """Online migration: volumes without their allocation get it."""
    return _migrate(context, models.Volume, _unallocated_volumes,
                    batch_size)


def allocate_snapshots(context, batch_size):
    """Online migration: snapshots without their allocation get it."""
    return _migrate(context, models.Snapshot, _unallocated_snapshots,
                    batch_size)


# -- the audit -----------------------------------------------------------------

def _orphans(context):
    """Consumers holding DISK_GB on a pool that are no live volume,
    snapshot or migration in flight."""
    live = sa.union(
        sa.select(VOLUMES.c.id).where(VOLUMES.c.deleted == sa.false()),
        sa.select(SNAPSHOTS.c.id).where(SNAPSHOTS.c.deleted == sa.false()),
        # A migration in flight holds its volume's source pool.
        sa.select(VOLUMES.c.migration_id).where(
            VOLUMES.c.deleted == sa.false(),
            VOLUMES.c.migration_status == 'migrating'))
    query = sa.select(ALLOCATIONS.c.consumer_id).distinct().select_from(
        ALLOCATIONS.join(PROVIDERS, PROVIDERS.c.id ==
                         ALLOCATIONS.c.resource_provider_id)).where(
        PROVIDERS.c.name.contains('#'),
        ALLOCATIONS.c.consumer_id.not_in(live))
    return _ids(context, query)


def _wrong_sizes(context):
    """(volume id, size, held) of live volumes whose allocation is not
    their size (extends in flight aside)."""
    held = sa.select(ALLOCATIONS.c.consumer_id,
                     sa.func.sum(ALLOCATIONS.c.used).label('used')).group_by(
        ALLOCATIONS.c.consumer_id).subquery()
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(VOLUMES.c.id, VOLUMES.c.size,
                                      held.c.used).join_from(
            VOLUMES, held, held.c.consumer_id == VOLUMES.c.id).where(
            VOLUMES.c.deleted == sa.false(),
            VOLUMES.c.status.not_in(('extending',)),
            held.c.used != VOLUMES.c.size)).all()


def audit(context, fix=False, out=print):
    """Report (and with ``fix`` repair) drift; returns how many problems
    were found."""
    problems = 0
    for consumer in _orphans(context):
        problems += 1
        out('allocation of %s: no such live volume or snapshot' % consumer)
        if fix:
            alloc_obj.delete_for_consumer(context, consumer)
    for what, query in (('volume', _unallocated_volumes),
                        ('snapshot', _unallocated_snapshots)):
        for ident in _ids(context, query(None)):
            problems += 1
            out('%s %s: no allocation' % (what, ident))
    for volume_id, size, used in _wrong_sizes(context):
        problems += 1
        out('volume %s: %d GiB, allocation %d' % (volume_id, size, used))
    if fix:
        allocate_volumes(context, None)
        allocate_snapshots(context, None)
        for volume_id, size, used in _wrong_sizes(context):
            _resize(context, volume_id)
    # What was repaired above changed placement: projects are recounted.
    for project_id, row, counted in quota.drift(context):
        problems += 1
        out('project %s: usage %s, holds %s' % (project_id, row, counted))
        if fix:
            quota.recount(context, project_id)
    for project_id, type_id, row, counted in type_quota.drift(context):
        problems += 1
        out('project %s, volume type %s: usage %s, holds %s'
            % (project_id, type_id, row, counted))
        if fix:
            type_quota.recount(context, project_id, type_id)
    out('%d problem(s)%s' % (problems, ', repaired' if fix and problems
                             else ''))
    return problems


@db_api.retry_on_deadlock
def _resize(context, volume_id):
    """The allocation of the volume back to its size, holding its row (a
    compare-and-swap that its size and status are as read)."""
    import objects
    with session.writer.connection.using(context):
        volume = objects.Volume.get_by_id(context, volume_id)
        if db_api.conditional_update(
                context, models.Volume, {'updated_at': models.Volume.updated_at},
                {'id': volume_id, 'size': volume.size,
                 'status': volume.status}):
            claims.resize_volume(context, volume, volume.size,
                                 enforce=False)


def command(args):
    """``volapi-manage placement audit [--fix]``: exit 0 when nothing was
    found, 1 when drift was found (and, with --fix, repaired)."""
    from volapi import context as volapi_context
    import objects
    objects.register_all()
    found = audit(volapi_context.get_admin_context(), fix=args.fix)
    return 1 if found else 0
