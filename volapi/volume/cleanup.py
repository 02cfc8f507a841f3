"""Repairing operations that nobody will finish.

An operation in flight is a ``workers`` row (see objects.worker). When its
worker dies, or its message is lost, the resource would stay ``extending``
forever. The cleanup finds such rows (held by a service whose heartbeat is
older than ``service_down_time``, or unclaimed for longer than
``[volume] unclaimed_work_timeout``), takes each over with a
compare-and-swap (so two cleaners never repair the same row, and a holder
that comes back to life keeps its work), ends the resource's transition
with the repair named by ``table.CLEANUP`` (``extending ->
error_extending`` ...) and deletes the row.

It runs in every volume worker at start-up (also taking back the rows of
its own previous life) and every ``[volume] cleanup_interval`` seconds, and
for admins through ``POST /workers/cleanup`` (:func:`cleanup`). Repairs are
database work only, so any process can do them.
"""
import datetime

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import timeutils

from db import exceptions as db_exc
import objects
from objects import worker as worker_obj
from volapi.volume.transitions import engine
from volapi.volume.transitions import table

LOG = logging.getLogger(__name__)
CONF = cfg.CONF

RESOURCES = {table.WORKER_TYPES['volume']: 'Volume',
             table.WORKER_TYPES['snapshot']: 'Snapshot',
             table.WORKER_TYPES['attachment']: 'VolumeAttachment',
             table.WORKER_TYPES['backup']: 'Backup'}

SERVICE_FILTERS = ('service_id', 'host', 'binary', 'is_up', 'disabled',
                   'cluster_name')
RESOURCE_FILTERS = ('resource_type', 'resource_id')


def stale(own_service_id=None, unclaimed_timeout=None, busy=None):
    """SQL: the workers rows nobody alive is working on (see
    objects.worker.stale_criterion), for this process's settings."""
    now = timeutils.utcnow()
    if unclaimed_timeout is None:
        unclaimed_timeout = CONF.volume.unclaimed_work_timeout
    down_before = now - datetime.timedelta(seconds=CONF.service_down_time)
    own_idle = None
    if busy is not None:
        # A claim newer than down_before may not be in ``busy`` yet.
        own_idle = (busy[0], busy[1], down_before)
    return worker_obj.stale_criterion(
        down_before=down_before,
        unclaimed_before=now - datetime.timedelta(seconds=unclaimed_timeout),
        own_service_id=own_service_id, own_idle=own_idle)


class ClaimLost(Exception):
    """The claimed workers row changed; the repair is rolled back."""


def repair(context, worker, stale, cleaner_id=None):
    """Take ``worker`` over and repair its resource; False if someone else
    (another cleaner, or its holder, alive after all) has it."""
    if not worker.claim_for_cleanup(stale, service_id=cleaner_id):
        return False
    return repair_claimed(context, worker)


def repair_claimed(context, worker):
    """Repair the resource of ``worker``, a row claim_for_cleanup took;
    False if the row changed since (e.g. reset_status and a new operation)."""
    name = table.CLEANUP.get((worker.resource_type, worker.status))
    what = '%s %s (%s)' % (worker.resource_type, worker.resource_id,
                           worker.status)
    left = table.NOTHING_TO_REPAIR.get((worker.resource_type,
                                        worker.status))
    if left is not None:
        LOG.warning('cleanup: %s dropped unfinished: %s', what, left)
    elif name is None:
        LOG.error('cleanup: no repair is known for %s; dropping the row',
                  what)
    else:
        def still_claimed(ctx):
            if not worker.still_claimed(ctx):
                raise ClaimLost()

        try:
            resource = getattr(objects, RESOURCES[worker.resource_type]) \
                .get_by_id(context, worker.resource_id, include_deleted=True)
            # The transition deletes the workers row with the repair, in one
            # transaction with the proof that the row is still the claimed one.
            engine.run(context, still_claimed,
                       engine.prepare(context, name, resource))
            LOG.warning('cleanup: %s repaired by %s', what, name)
        except ClaimLost:
            LOG.info('cleanup: %s not repaired: its row changed since the '
                     'claim (a new operation began)', what)
            return False
        except (db_exc.ConditionNotMet, db_exc.NotFound) as e:
            # The resource has moved on; only the row was left behind.
            LOG.info('cleanup: %s needs no repair: %s', what, e)
        except db_exc.ConcurrentUpdate as e:
            LOG.warning('cleanup: %s not repaired: %s', what, e)
            return False
    worker.delete_if_held()
    return True


def clean_stale(context, cleaner_id=None, own_service_id=None,
                unclaimed_timeout=None, busy=None, resource_type=None,
                resource_id=None, service_ids=None):
    """Repair every stale row (narrowed by the filters); the Workers
    repaired. ``own_service_id`` is for a service starting up: it also
    takes back the rows of its previous life. ``busy``, (service_id,
    resource ids), is for a running service: it also takes back its own
    rows, claimed more than service_down_time ago, of resources it is not
    working on."""
    criterion = stale(own_service_id, unclaimed_timeout, busy)
    candidates = objects.Worker.get_stale(
        context, criterion, resource_type=resource_type,
        resource_id=resource_id, service_ids=service_ids)
    return [w for w in candidates
            if repair(context, w, criterion, cleaner_id=cleaner_id)]


def cleanup(context, filters):
    """``POST /workers/cleanup``: repair the work of the services matching
    ``filters`` (Cinder's keys: service_id, host, binary, is_up, disabled,
    cluster_name, resource_id, resource_type).

    Returns ``(cleaning, unavailable)``, lists of objects.Service: the
    matching services that are down, whose operations in flight were
    repaired now, and those that are up, whose operations are in progress
    and left alone. Without a service filter, operations nobody claimed
    within ``unclaimed_work_timeout`` are repaired too.
    """
    unknown = set(filters) - set(SERVICE_FILTERS) - set(RESOURCE_FILTERS)
    if unknown:
        raise ValueError('unknown cleanup filters: %s'
                         % ', '.join(sorted(unknown)))
    resource_filters = {k: filters[k] for k in RESOURCE_FILTERS
                        if filters.get(k) is not None}
    by_service = any(filters.get(k) is not None for k in SERVICE_FILTERS)
    services = _services(context, filters)
    cleaning = [s for s in services if not s.is_up(CONF.service_down_time)]
    unavailable = [s for s in services if s.is_up(CONF.service_down_time)]
    if cleaning:
        clean_stale(context, service_ids=[s.id for s in cleaning],
                    **resource_filters)
    if not by_service:
        clean_stale(context, service_ids=[None], **resource_filters)
    return cleaning, unavailable


def _services(context, filters):
    services = objects.Service.get_all(
        context, service_id=filters.get('service_id'),
        host=filters.get('host'), binary=filters.get('binary'),
        disabled=filters.get('disabled'),
        cluster_name=filters.get('cluster_name'))
    is_up = filters.get('is_up')
    if is_up is not None:
        services = [s for s in services
                    if s.is_up(CONF.service_down_time) == is_up]
    return services
