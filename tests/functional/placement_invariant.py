"""The invariant between volumes and placement, checked after a test.

For every pool: its allocations are exactly those of its live volumes and
snapshots, each the size it holds (a volume being extended may hold its
new size already; a volume being migrated holds its destination, and its
migration the source), each consumer owned by the project of its volume
or snapshot (or, made for allocations older than consumer records, by
placement's incomplete owner); ``inventories.allocated`` is their sum; and every project's
quota usage row says what the project holds.
"""
import collections

import fixtures
import sqlalchemy as sa

from db import models
from db import session
from volapi import conf as volapi_conf
from volapi.volume import pools

VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__
ALLOCATIONS = models.Allocation.__table__
PROVIDERS = models.ResourceProvider.__table__
INVENTORIES = models.Inventory.__table__
USAGES = models.QuotaUsage.__table__
CONSUMERS = models.Consumer.__table__
PROJECTS = models.Project.__table__


def violations(context):
    """What is wrong, in words (empty: the invariant holds)."""
    found = []
    with session.reader.connection.using(context) as conn:
        held = {row.consumer_id: (row.name, row.used) for row in conn.execute(
            sa.select(ALLOCATIONS.c.consumer_id, ALLOCATIONS.c.used,
                      PROVIDERS.c.name).select_from(ALLOCATIONS.join(
                          PROVIDERS, PROVIDERS.c.id ==
                          ALLOCATIONS.c.resource_provider_id))
            .where(PROVIDERS.c.name.contains('#')))}
        volumes = conn.execute(sa.select(
            VOLUMES.c.id, VOLUMES.c.host, VOLUMES.c.size, VOLUMES.c.status,
            VOLUMES.c.project_id, VOLUMES.c.migration_id,
            VOLUMES.c.migration_status).where(
                VOLUMES.c.deleted == sa.false())).all()
        snapshots = conn.execute(sa.select(
            SNAPSHOTS.c.id, SNAPSHOTS.c.volume_id, SNAPSHOTS.c.volume_size,
            SNAPSHOTS.c.project_id).where(SNAPSHOTS.c.deleted == sa.false())
        ).all()
        allocated = conn.execute(sa.select(
            PROVIDERS.c.name, INVENTORIES.c.allocated).select_from(
                INVENTORIES.join(PROVIDERS, PROVIDERS.c.id ==
                                 INVENTORIES.c.resource_provider_id))).all()
        usages = {row.project_id: row for row in conn.execute(
            sa.select(USAGES))}
        owners = dict(conn.execute(sa.select(
            CONSUMERS.c.uuid, PROJECTS.c.external_id).select_from(
                CONSUMERS.join(PROJECTS, PROJECTS.c.id ==
                               CONSUMERS.c.project_id))).all())
    live = set()
    host_of = {}
    gigabytes = collections.Counter()
    for volume in volumes:
        live.add(volume.id)
        host_of[volume.id] = volume.host
        migrating = volume.migration_status == 'migrating'
        if migrating:
            # The volume holds the destination, its migration the source.
            live.add(volume.migration_id)
            if volume.migration_id in held and \
                    held[volume.migration_id] != (volume.host, volume.size):
                found.append('migration %s of volume %s holds %s, not %s'
                             % (volume.migration_id, volume.id,
                                held[volume.migration_id],
                                (volume.host, volume.size)))
        if volume.id not in held:
            continue
        pool, used = held[volume.id]
        gigabytes[volume.project_id] += used
        if pool == volume.host if migrating else pool != volume.host:
            found.append('volume %s is on %s but holds %s'
                         % (volume.id, volume.host, pool))
        if used != volume.size and volume.status not in (
                'extending', 'error_extending'):
            found.append('volume %s of %d GiB holds %d'
                         % (volume.id, volume.size, used))
    for snapshot in snapshots:
        live.add(snapshot.id)
        if snapshot.id not in held:
            continue
        pool, used = held[snapshot.id]
        gigabytes[snapshot.project_id] += used
        if pool != host_of.get(snapshot.volume_id) or \
                used != snapshot.volume_size:
            found.append('snapshot %s holds %d on %s' % (
                snapshot.id, used, pool))
    # Records made for allocations from before consumer records belong to
    # placement's incomplete owner until their owner writes them.
    incomplete = volapi_conf.CONF.placement.incomplete_consumer_project_id
    for row in list(volumes) + list(snapshots):
        if row.id in held and owners.get(row.id) not in (row.project_id,
                                                         incomplete):
            found.append('consumer %s is owned by %s, its row by %s' % (
                row.id, owners.get(row.id), row.project_id))
    for consumer in set(held) - live:
        found.append('allocation of %s, which is gone' % consumer)
    sums = collections.Counter()
    for pool, used in held.values():
        sums[pool] += used
    for name, total in allocated:
        if '#' in name and total != sums[name]:
            found.append('pool %s: allocated %d, allocations %d'
                         % (name, total, sums[name]))
    counts = collections.Counter(v.project_id for v in volumes)
    snapshot_counts = collections.Counter(s.project_id for s in snapshots)
    for project, row in usages.items():
        actual = (counts[project], snapshot_counts[project],
                  gigabytes[project])
        if (row.volumes, row.snapshots, row.gigabytes) != actual:
            found.append('project %s: usage row %s, holds %s' % (
                project, (row.volumes, row.snapshots, row.gigabytes),
                actual))
    return found


class PoolInvariant(fixtures.Fixture):
    """Fails the test at cleanup if the invariant does not hold."""

    def __init__(self, test):
        super().__init__()
        self.test = test

    def _setUp(self):
        self.addCleanup(self.check)

    def check(self):
        found = violations(self.test.context)
        if found:
            raise AssertionError('pools and volumes disagree:\n'
                                 + '\n'.join(found))


def disk_gb(context, pool_host):
    """(total, reserved, allocation_ratio, allocated) of a pool's DISK_GB."""
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(
            INVENTORIES.c.total, INVENTORIES.c.reserved,
            INVENTORIES.c.allocation_ratio, INVENTORIES.c.allocated)
            .select_from(INVENTORIES.join(
                PROVIDERS, PROVIDERS.c.id ==
                INVENTORIES.c.resource_provider_id))
            .where(PROVIDERS.c.uuid == pools.provider_uuid(pool_host))).one()
