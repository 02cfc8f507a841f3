"""A volume worker's pools as placement resource providers.

The backend is a root provider named ``host@backend`` and each pool a
child ``host@backend#pool``: the provider's name is the host a volume in
that pool records, so a candidate names the worker that serves it. Each
pool has a DISK_GB inventory from the driver's report (reserved from
``[volume] reserved_percentage``, the over-subscription ratio as the
allocation ratio of a thin pool), traits from its capabilities and the
backend's name, and the availability zone as an aggregate.

Providers get uuids derived from their names, so every worker of a
cluster (and every restart) names the same rows. Every change goes through
the placement object layer in process: a compare-and-swap on the
provider's generation, re-read and retried after a lost race; nothing is
written when the report has not changed, so claims on a pool do not race
with its worker's reports.
"""
import math
import re
import uuid

from oslo_log import log as logging

from objects.placement import aggregate as agg_obj
from objects.placement import exception as placement_exc
from objects.placement import inventory as inv_obj
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj

LOG = logging.getLogger(__name__)

DISK_GB = 'DISK_GB'
# Fixed: uuids derived from it must never change.
NAMESPACE = uuid.UUID('2b0f6b5c-5a43-4b4e-9f0e-8f1c4c2f0a11')
THIN_TRAIT = 'CUSTOM_VOLAPI_THIN_PROVISIONING'
MULTIATTACH_TRAIT = 'CUSTOM_VOLAPI_MULTIATTACH'


def provider_uuid(name):
    return str(uuid.uuid5(NAMESPACE, 'provider:' + name))


def zone_aggregate(zone):
    """The aggregate uuid standing for availability zone ``zone``."""
    return str(uuid.uuid5(NAMESPACE, 'availability-zone:' + zone))


def backend_trait(backend_name):
    """The trait every pool of backend ``backend_name`` has: what a type's
    ``volume_backend_name`` extra spec requires."""
    return 'CUSTOM_VOLAPI_BACKEND_' + re.sub(r'[^A-Z0-9_]', '_',
                                             backend_name.upper())


def pool_name_of(host):
    """'pool' of 'host@backend#pool'; None without one."""
    if not host or '#' not in host:
        return None
    return host.partition('#')[2]


def inventory_of(pool, reserved_percentage, over_subscription_ratio):
    """The DISK_GB inventory placement gets for a pool the driver
    reported."""
    total = max(int(pool['total_gb']), 0)
    reserved = min(int(math.ceil(total * reserved_percentage / 100.0)),
                   total)
    thin = bool(pool.get('thin_provisioning_support'))
    return {'total': total, 'reserved': reserved, 'min_unit': 1,
            'max_unit': max(total, 1), 'step_size': 1,
            'allocation_ratio': float(over_subscription_ratio) if thin
            else 1.0}


def traits_of(pool, backend_name):
    traits = {backend_trait(backend_name)}
    if pool.get('thin_provisioning_support'):
        traits.add(THIN_TRAIT)
    if pool.get('multiattach'):
        traits.add(MULTIATTACH_TRAIT)
    return traits


class PoolReporter:
    """Tells placement what the pools of one worker are (:meth:`report`,
    at start-up and then every ``capacity_report_interval``)."""

    def __init__(self, context, conf, driver, server_name):
        self.context = context
        self.conf = conf
        self.driver = driver
        self.server_name = server_name
        self.backend_name = conf.volume.backend_name
        self.zone = conf.api.storage_availability_zone

    def report(self):
        """Make placement agree with the driver's pools; returns
        {pool name: provider uuid}."""
        root = self._ensure_provider(self.server_name, None)
        reported = {}
        for pool in self.driver.get_pools():
            name = '%s#%s' % (self.server_name, pool['pool_name'])
            provider = self._ensure_provider(name, root.uuid)
            self._set_inventory(provider, self.inventory(pool))
            self._set_traits(provider, traits_of(pool, self.backend_name))
            self._set_zone(provider)
            reported[pool['pool_name']] = provider.uuid
        return reported

    def pool_provider(self, pool):
        """The provider of ``pool`` (as get_pools() reports it), created if
        missing, with its traits and zone but not its inventory: what a
        reshape (volapi.volume.reshape) needs before it moves inventory
        and allocations there in one write."""
        root = self._ensure_provider(self.server_name, None)
        provider = self._ensure_provider(
            '%s#%s' % (self.server_name, pool['pool_name']), root.uuid)
        self._set_traits(provider, traits_of(pool, self.backend_name))
        self._set_zone(provider)
        return provider

    def inventory(self, pool):
        """The DISK_GB inventory placement gets for ``pool``."""
        return inventory_of(pool, self.conf.volume.reserved_percentage,
                            self.conf.volume.max_over_subscription_ratio)

    def _ensure_provider(self, name, parent_uuid):
        ident = provider_uuid(name)
        try:
            return rp_obj.get_by_uuid(self.context, ident)
        except placement_exc.ResourceProviderNotFound:
            pass
        try:
            provider = rp_obj.create(self.context, ident, name,
                                     parent_provider_uuid=parent_uuid)
            LOG.info('pool provider %s (%s) created', name, ident)
            return provider
        except placement_exc.ResourceProviderExists:
            # Another worker of the cluster made it meanwhile.
            return rp_obj.get_by_uuid(self.context, ident)

    def _set_inventory(self, provider, wanted):
        current = {row['resource_class']: row for row in
                   inv_obj.get_all_by_provider(self.context, provider.id)}
        have = current.get(DISK_GB)
        if have is not None and len(current) == 1 and all(
                have[field] == wanted[field] for field in inv_obj.FIELDS):
            return

        def write(rp):
            return inv_obj.set_inventories(self.context, rp, rp.generation,
                                           {DISK_GB: wanted})
        try:
            rp_obj.retry_from_last_read(self.context, provider, write)
        except placement_exc.InventoryInUse:
            # The pool shrank below what its volumes hold: placement keeps
            # the old inventory and new claims find no room.
            LOG.warning('pool %s: capacity %s GiB is below what is '
                        'allocated; inventory not changed', provider.name,
                        wanted['total'])

    def _set_traits(self, provider, wanted):
        have = {t['name'] for t in trait_obj.get_all_for_provider(
            self.context, provider.id)}
        if have == wanted:
            return
        for name in sorted(wanted):
            try:
                trait_obj.create(self.context, name)
            except placement_exc.TraitExists:
                pass
        trait_obj.set_for_provider(self.context, provider, wanted)

    def _set_zone(self, provider):
        wanted = [zone_aggregate(self.zone)]
        if agg_obj.get_for_provider(self.context, provider.id) == wanted:
            return
        agg_obj.set_for_provider(self.context, provider, wanted)
