"""Moving a volume to another pool: os-migrate_volume, retype with
``migration_policy=on-demand``, os-migrate_volume_completion.

A move is claimed seed 001's way, in the transaction of the transition
that starts it ('migrate' or 'retype_migrate'): the volume's allocation
moves to the destination pool (checked against its capacity) and a
migration consumer, whose uuid the volume records as ``migration_id``,
holds what the volume held on the source, so both pools stay reserved
while the data is copied (volapi.volume.claims.claim_migration). The
workers of the source copy the data (volapi.volume.manager); one
transaction ends the move ('migrate_done': the volume points at the
destination, the migration's allocation goes) or rolls it back
('migrate_failed': the allocations as they were).

A destination that fills before the claim lands makes the next candidate
be tried, as volume create does (``[volume] claim_attempts``).
"""
import uuid

from objects import volume_type as type_obj
from volapi import conf as volapi_conf
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume import scheduler
from volapi.volume.transitions import engine

CONF = volapi_conf.CONF


def _destinations(context, volume, host, extra_specs):
    """Pools to try, best first: ``host`` if it names a pool, the pools of
    ``host`` if it names a backend (``host@backend``), the scheduler's
    choice without it; never the volume's own pool."""
    if host and '#' in host:
        return [host]
    candidates = scheduler.candidate_hosts(context, volume.size, extra_specs,
                                           volume.availability_zone)
    if host:
        candidates = [c for c in candidates if c.partition('#')[0] == host]
    return [c for c in candidates if c != volume.host]


def _claiming_move(name, dest, version, params):
    """The build (volapi.volume.api.in_one_transaction) of transition
    ``name`` moving the volume to ``dest`` under a new migration id, with
    its claim."""
    migration_id = str(uuid.uuid4())

    def build(ctx, volume):
        steps = [engine.prepare(ctx, name, volume, version=version,
                                dest_host=dest, migration_id=migration_id,
                                cascade=False, **params),
                 lambda ctx: claims.claim_migration(ctx, volume, dest,
                                                    migration_id)]
        if 'new_type_id' in params:
            # A retype's: the volume's counts move to the new type now.
            steps.append(lambda ctx: claims.retype_volume(
                ctx, volume, params['new_type_id']))
        return steps
    return build


def _start(context, volume, name, host, extra_specs, authorize, version,
           **params):
    """Run transition ``name`` on ``volume`` (as read, to choose the
    candidates; the transaction reads it again) with the claim of a
    destination, trying the candidates in turn; returns (volume,
    destination)."""
    volume_id = volume.id
    tried = []
    for dest in _destinations(context, volume, host, extra_specs)[
            :CONF.volume.claim_attempts]:
        try:
            return volume_api.claiming_on_volume(
                context, volume_id,
                _claiming_move(name, dest, version, params), authorize), dest
        except claims.NoRoom as exc:
            tried.append(str(exc))
    raise volume_api.InvalidRequest(
        'No valid host was found to migrate volume %s to%s.' % (
            volume_id, ': ' + '; '.join(tried) if tried else
            ' (no pool with room and the traits its type requires)'))


def migrate(context, volume_id, host=None, force_host_copy=False,
            lock_volume=False, version=None, authorize=None):
    """os-migrate_volume (admin): move the volume to pool ``host``
    (``host@backend#pool``; a backend lets the scheduler pick its pool;
    None lets it pick any). With ``lock_volume`` the volume is in
    'maintenance' meanwhile. The data is always copied by the workers
    (``force_host_copy`` asks for nothing more)."""
    volume = volume_api.get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    params = {'status': 'maintenance'} if lock_volume else {}
    # The destinations are chosen for the type read here.
    volume, dest = _start(context, volume, 'migrate', host,
                          _extra_specs(context, volume.volume_type_id),
                          authorize, version,
                          planned_type_id=volume.volume_type_id, **params)
    volume_api.worker_client().migrate_volume(context, volume, dest)


def retype(context, volume, volume_type, migration_policy, version=None,
           authorize=None):
    """The retype of ``volume`` (as read) to ``volume_type`` when its pool
    lacks what the type requires: a migration with ``on-demand``, refused
    with ``never`` (Cinder fails it later; this says so at once). False if
    the volume can stay where it is."""
    if not volume.host or scheduler.pool_has(context, volume.host,
                                             volume_type.extra_specs):
        return False
    if migration_policy != 'on-demand':
        raise volume_api.InvalidRequest(
            "Retype of volume %s to type %s needs a migration (its pool %s "
            "does not have what the type requires), and migration_policy "
            "is 'never'." % (volume.id, volume_type.name, volume.host))
    volume, dest = _start(
        context, volume, 'retype_migrate', None, volume_type.extra_specs,
        authorize, version, new_type_id=volume_type.id,
        multiattach=type_obj.is_multiattach(volume_type.extra_specs))
    volume_api.worker_client().migrate_volume(context, volume, dest)
    return True


def complete(context, volume_id, new_volume, error=False, version=None,
             authorize=None):
    """os-migrate_volume_completion (admin): end the migration
    ``new_volume`` (the volume's ``migration_id``) from outside. With
    ``error`` it is rolled back now (the copy, if one is under way, is
    discarded); without, it is acknowledged once the workers have moved
    the data. Returns the id of the volume that stays (Cinder's
    save_volume_id).

    The rollback checks ``new_volume`` on the volume its transaction
    loaded, whose migration_id migrate_failed's compare-and-swap expects:
    a migration that began since is never the one rolled back."""
    if error:
        def build(ctx, volume):
            _check_named(volume, new_volume)
            return [engine.prepare(ctx, 'migrate_failed', volume,
                                   version=version)]
        volume_api.on_volume(context, volume_id, build, authorize)
        return volume_id
    volume = volume_api.get_volume(context, volume_id)
    if authorize is not None:
        authorize(volume)
    _check_named(volume, new_volume)
    if volume.migration_status != 'success':
        raise volume_api.InvalidRequest(
            'The migration of volume %s is %s; the workers complete it once '
            'the data is copied.' % (volume_id, volume.migration_status))
    return volume_id


def _check_named(volume, new_volume):
    if new_volume != volume.migration_id:
        raise volume_api.InvalidRequest(
            'new_volume %s is not the migration of volume %s.'
            % (new_volume, volume.id))


def _extra_specs(context, volume_type_id):
    if not volume_type_id:
        return {}
    try:
        return type_obj.VolumeType.get(context, volume_type_id).extra_specs
    except type_obj.VolumeTypeNotFound:
        return {}
