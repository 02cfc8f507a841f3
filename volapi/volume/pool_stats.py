"""The pools as Cinder's ``GET /scheduler-stats/get_pools`` shows them,
read from placement: what the scheduler decides with is what is shown.

A pool is a provider volume workers made (volapi.volume.pools: named
``host@backend#pool``, its uuid derived from that name). Its capabilities
use Cinder's names for what placement knows of it:

- ``total_capacity_gb``: the DISK_GB inventory's total;
- ``reserved_percentage``: the inventory's reserved, as a percentage of
  the total (rounded);
- ``max_over_subscription_ratio``: the allocation ratio (1.0 for a thick
  pool);
- ``allocated_capacity_gb`` and ``provisioned_capacity_gb``: what the
  pool's allocations hold, the sizes of its volumes and snapshots;
- ``free_capacity_gb``: what is left to allocate, (total - reserved) x
  ratio - allocated, never below 0: the room a new volume is checked
  against (Cinder's drivers report the backend's physical free space
  there, which placement does not know);
- ``thin_provisioning_support``, ``thick_provisioning_support`` and
  ``multiattach`` from the pool's traits; ``volume_backend_name`` and
  ``pool_name`` from its name.
"""
import math

from db import session
from objects.placement import inventory as inv_obj
from objects.placement import resource_class as rc_obj
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from volapi.volume import pools
from volapi.volume import scheduler


def _is_pool(provider):
    return '#' in provider.name and \
        provider.uuid == pools.provider_uuid(provider.name)


def _capabilities(provider, disk, traits):
    backend = provider.name.partition('@')[2].partition('#')[0]
    thin = pools.THIN_TRAIT in traits
    total = disk['total'] if disk else 0
    reserved = disk['reserved'] if disk else 0
    allocated = disk['allocated'] if disk else 0
    ratio = disk['allocation_ratio'] if disk else 1.0
    room = inv_obj.capacity(disk) - allocated if disk else 0
    return {
        'pool_name': pools.pool_name_of(provider.name),
        'volume_backend_name': backend,
        'total_capacity_gb': total,
        'free_capacity_gb': max(int(math.floor(room)), 0),
        'allocated_capacity_gb': allocated,
        'provisioned_capacity_gb': allocated,
        'reserved_percentage': int(round(100.0 * reserved / total))
        if total else 0,
        'max_over_subscription_ratio': ratio,
        'thin_provisioning_support': thin,
        'thick_provisioning_support': not thin,
        'multiattach': pools.MULTIATTACH_TRAIT in traits,
    }


def get_pools(context, name=None, extra_specs=None):
    """[{'name': 'host@backend#pool', 'capabilities': {...}}], by name;
    ``name``: only that pool; ``extra_specs``: only the pools with every
    trait a type with those extra specs requires (as the scheduler
    chooses). Three queries, however many pools: providers, their traits,
    their DISK_GB inventories, in one read transaction."""
    wanted = scheduler.required_traits(extra_specs) if extra_specs else set()
    with session.reader.connection.using(context):
        providers = [p for p in rp_obj.get_all_by_filters(context, name=name)
                     if _is_pool(p)]
        ids = [p.id for p in providers]
        traits = trait_obj.names_by_provider(context, ids)
        disks = inv_obj.of_class_by_provider(
            context, ids, rc_obj.STANDARD_IDS[pools.DISK_GB])
    found = [{'name': provider.name,
              'capabilities': _capabilities(provider, disks.get(provider.id),
                                            traits[provider.id])}
             for provider in providers if wanted <= traits[provider.id]]
    return sorted(found, key=lambda pool: pool['name'])
