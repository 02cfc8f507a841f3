"""Volume create on placement: choose a pool, claim it, insert the volume.

The volume row, its workers row, the project's quota usage and the
volume's DISK_GB allocation on the chosen pool are written in ONE
transaction (volapi.volume.create.create's: the 'create' transition's rows,
then the claim, see volapi.volume.claims.claim_volume). The pools tried
are the scheduler's candidates, best first, or the source's pool for a
volume made from a snapshot or another volume. A pool that fills
before our claim lands (another create won the race) makes us try the
next one, at most ``[volume] claim_attempts``. The candidates may come
from the scheduler's cache (volapi.volume.scheduler.create_hosts): when
those pools all refuse, the candidates are read again and up to
``claim_attempts`` of them tried, so it is a read that decides a volume
no pool can hold. With no pool left the volume is inserted in 'error',
holding no pool, and a user message says why (Cinder answers 202 and the
volume goes to 'error' too).
"""
from oslo_config import cfg
from oslo_log import log as logging

from db import api as db_api
from db import models
from objects import quota
from objects import type_quota
from volapi.volume import claims
from volapi.volume import scheduler

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

OverQuota = quota.OverQuota


def source_host(context, snapshot_id=None, source_volid=None):
    """The pool of the volume a new volume is made from (a snapshot's
    volume's): the new volume goes there, where its data is."""
    volume_id = source_volid
    if snapshot_id:
        snapshot = db_api.read_columns(context, models.Snapshot, snapshot_id,
                                       ['volume_id'])
        # Gone meanwhile: the transaction's hold of the snapshot says so.
        volume_id = snapshot and snapshot['volume_id']
    if not volume_id:
        return None
    row = db_api.read_columns(context, models.Volume, volume_id, ['host'])
    return row['host'] if row else None


class Plan:
    """What a create reads before its transaction: the pools to try, best
    first, whether the project's usage rows exist, and the scheduler's
    cached answer the pools come from (None: read now, or the source's)."""

    __slots__ = ('hosts', 'rows_present', 'cached')

    def __init__(self, hosts, rows_present, cached=None):
        self.hosts = hosts
        self.rows_present = rows_present
        self.cached = cached


def plan(context, volume, extra_specs, source_host=None):
    """The Plan of ``volume`` (no host yet), of a type with
    ``extra_specs``: reads only, so the caller may run them in the
    transaction of its other reads."""
    present = type_quota.rows_present(context, volume.project_id,
                                      volume.volume_type_id)
    if source_host:
        return Plan([source_host], present)
    hosts, cached = scheduler.create_hosts(context, volume.size, extra_specs,
                                           volume.availability_zone)
    return Plan(hosts, present, cached)


def create(context, volume, insert, plan):
    """Insert ``volume`` (no host yet) on a pool of ``plan``.

    ``insert(name)`` runs the transaction that inserts the volume with
    transition ``name``: 'create' (after the claim of the pool
    ``volume.host`` names, volapi.volume.claims) or 'create_no_pool'. Leaves
    ``volume.host`` set, or the volume in 'error'. OverQuota if the
    project's quota refuses it."""
    type_quota.ensure_rows(context, volume.project_id, volume.volume_type_id,
                           plan.rows_present)
    if _claim_one(volume, insert, plan.hosts, plan.cached):
        return volume
    if plan.cached is not None:
        # The cached pools may have been stale: a read decides.
        LOG.info('volume %s: reading the pools again', volume.id)
        if _claim_one(volume, insert, scheduler.refresh(context, plan.cached),
                      None):
            return volume
    volume.host = None
    insert('create_no_pool')
    LOG.warning('volume %s: no pool can hold %d GiB; it is in error',
                volume.id, volume.size)
    return volume


def _claim_one(volume, insert, hosts, cached):
    """True once the volume is inserted on one of ``hosts`` (tried in
    order, at most claim_attempts); a pool without room is dropped from
    the ``cached`` answer it came from."""
    for host in hosts[:CONF.volume.claim_attempts]:
        volume.host = host
        try:
            insert('create')
            return True
        except claims.NoRoom as exc:
            LOG.info('volume %s: %s; trying the next pool', volume.id, exc)
            if cached is not None:
                scheduler.forget_host(cached, host)
    return False
