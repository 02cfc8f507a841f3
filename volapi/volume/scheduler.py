"""Choosing the pools a new volume may go to.

The candidates come from the query that answers ``GET
/allocation_candidates`` (objects.placement.allocation_candidate): DISK_GB
of the volume's size, the traits the volume type requires (its extra specs
``trait:<NAME>=required``, as Nova flavors say it, and
``volume_backend_name``), the availability zone as ``member_of``. They are
ordered by ``[volume] pool_weigher``. Nothing here holds capacity: the
claim's compare-and-swap in the volume's create transaction decides, and a
lost race moves on to the next pool (volapi.volume.placement_create).
"""
import sqlalchemy as sa
from oslo_config import cfg

from db import models
from db import session
from objects.placement import allocation_candidate as ac_obj
from objects.placement import exception as placement_exc
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from volapi.volume import pools

CONF = cfg.CONF
PROVIDERS = models.ResourceProvider.__table__


def required_traits(extra_specs):
    """The trait names a volume type's extra specs require."""
    traits = set()
    for key, value in (extra_specs or {}).items():
        if key.startswith('trait:') and str(value).strip() == 'required':
            traits.add(key[len('trait:'):])
    backend = (extra_specs or {}).get('volume_backend_name')
    if backend:
        traits.add(pools.backend_trait(backend))
    return traits


def candidate_hosts(context, size, extra_specs, zone):
    """Hosts (``host@backend#pool``) of the pools that can hold ``size``
    GiB for a volume of a type with ``extra_specs`` in ``zone``, best
    first."""
    group = ac_obj.RequestGroup(
        resources={pools.DISK_GB: size},
        required_traits=[{name} for name in sorted(
            required_traits(extra_specs))],
        member_of=[{pools.zone_aggregate(zone)}] if zone else [])
    try:
        candidates = ac_obj.get_candidates(context, {'': group})
    except placement_exc.TraitNotFound:
        return []  # a trait no pool has, since no one ever made it

    free = {}
    for request in candidates.allocation_requests:
        for provider_uuid in request.allocations:
            summary = candidates.provider_summaries[provider_uuid]
            disk = summary.resources[pools.DISK_GB]
            free[provider_uuid] = disk['capacity'] - disk['used']
    # A provider deleted since the candidates were read (a pool a reshape
    # removed) has no name left: it is no candidate.
    names = _names(context, free)
    most_free_first = CONF.volume.pool_weigher == 'most_free'
    ordered = sorted((u for u in free if u in names), key=lambda u: (
        -free[u] if most_free_first else free[u], names[u]))
    return [names[u] for u in ordered]


def pool_has(context, host, extra_specs):
    """True if pool ``host`` has every trait a type with ``extra_specs``
    requires (a retype keeps the volume where it is)."""
    wanted = required_traits(extra_specs)
    if not wanted:
        return True
    try:
        provider = rp_obj.get_by_uuid(context, pools.provider_uuid(host))
    except placement_exc.ResourceProviderNotFound:
        return False
    have = {t['name'] for t in trait_obj.get_all_for_provider(
        context, provider.id)}
    return wanted <= have


def _names(context, provider_uuids):
    if not provider_uuids:
        return {}
    with session.reader.connection.using(context) as conn:
        return dict(conn.execute(sa.select(PROVIDERS.c.uuid, PROVIDERS.c.name)
                                 .where(PROVIDERS.c.uuid.in_(
                                     list(provider_uuids)))).all())
