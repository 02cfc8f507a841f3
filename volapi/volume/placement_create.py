"""Volume create on placement: choose a pool, claim it, insert the volume.

The volume row, its workers row, the project's quota usage and the
volume's DISK_GB allocation on the chosen pool are written in ONE
transaction (``insert``, the caller's, runs our claim first). The pools
tried are the scheduler's candidates, best first, or the source's pool
for a volume made from a snapshot or another volume. A pool that fills
before our claim lands (another create won the race) makes us try the
next one, at most ``[volume] claim_attempts``. With no pool left the
volume is inserted in 'error', holding no pool, and a user message says
why (Cinder answers 202 and the volume goes to 'error' too).
"""
from oslo_config import cfg
from oslo_log import log as logging

from db import api as db_api
from db import models
from db import session
from objects import message
from objects import quota
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
        volume_id = db_api.read_columns(context, models.Snapshot, snapshot_id,
                                        ['volume_id'])['volume_id']
    if not volume_id:
        return None
    row = db_api.read_columns(context, models.Volume, volume_id, ['host'])
    return row['host'] if row else None


def _read_committed(context):
    # Claims queue on the project's usage row and the pool's provider row:
    # at READ COMMITTED (PostgreSQL) each statement sees what the claim it
    # waited for committed, instead of failing and starting over.
    with session.writer.connection.using(context) as conn:
        session.read_committed(conn)


def create(context, volume, extra_specs, insert, source_host=None):
    """Insert ``volume`` ('creating', no host yet) on a pool.

    ``insert(first, creating)`` runs one transaction: ``first()``, then
    the caller's checks and the volume's rows (with its workers row only
    if ``creating``). Sets ``volume.host``, or leaves the volume in
    'error'. OverQuota if the project's quota refuses it."""
    if source_host:
        hosts = [source_host]
    else:
        hosts = scheduler.candidate_hosts(context, volume.size, extra_specs,
                                          volume.availability_zone)
    for host in hosts[:CONF.volume.claim_attempts]:
        volume.host = host

        def claim():
            _read_committed(context)
            claims.claim_volume(context, volume)
        try:
            insert(claim, True)
            return volume
        except claims.NoRoom as exc:
            LOG.info('volume %s: %s; trying the next pool', volume.id, exc)
    volume.host = None
    volume.status = 'error'

    def count():
        _read_committed(context)
        claims.count_volume(context, volume)
        message.record(context, volume.project_id, 'VOLUME', volume.id,
                       message.SCHEDULE_ALLOCATE_VOLUME,
                       message.NO_BACKEND_AVAILABLE)
    insert(count, False)
    LOG.warning('volume %s: no pool can hold %d GiB; it is in error',
                volume.id, volume.size)
    return volume
