"""POST /reshaper: new inventories for some providers and new allocations
for some consumers, in one transaction.

It is an allocation write (objects.placement.allocation) in which the
providers being reshaped are compare-and-swapped from the generation the
client gave, and their conditions are about the final picture: the new
inventories (from the request, as literals) against the usage that will be
left once the consumers' allocations have moved. So moving inventory and
its allocations to a child provider, or from one class to another, is one
step with no moment where either is missing, and nothing else can allocate
the inventory being moved while it happens.
"""
import sqlalchemy as sa

from db import conditions as cond
from db import models
from db import session
from objects.placement import allocation as alloc_obj
from objects.placement import exception
from objects.placement import inventory as inv_obj
from objects.placement import resource_class as rc_obj
from objects.placement import resource_provider as rp_obj

ALLOCATIONS = models.Allocation.__table__
PROVIDERS = models.ResourceProvider.__table__


class InventoryProviderNotFound(exception.ResourceProviderNotFound):
    """A provider named in ``inventories`` does not exist."""


class ResourceProviderGenerationConflict(
        exception.ResourceProviderConcurrentUpdateDetected):
    msg_fmt = ('resource provider generation conflict for provider '
               '%(uuid)s: actual: %(actual)s, given: %(given)s')


def _held_by_others(consumer_uuids):
    """SQL, correlated to the provider row being updated: allocations on it
    of consumers other than ``consumer_uuids``."""
    query = [ALLOCATIONS.c.resource_provider_id == PROVIDERS.c.id]
    if consumer_uuids:
        query.append(ALLOCATIONS.c.consumer_id.not_in(
            sorted(consumer_uuids)))
    return query


class ReshapeWriter(alloc_obj.AllocationWriter):
    """An allocation write that also replaces the inventories of
    ``inventories``: ``{provider uuid: (generation, {class name: fields})}``
    (fields as in objects.placement.inventory, defaults applied)."""

    # The inventories are written between the swaps and the allocations.
    carry_writes = False

    def __init__(self, context, inventories, requests):
        self.inventories = inventories
        super().__init__(context, requests)
        self.inventory_class_ids = rc_obj.ids_from_names(context, [
            name for _, classes in inventories.values() for name in classes])
        self.class_names.update(
            {i: n for n, i in self.inventory_class_ids.items()})

    def _check_new_allocations_fit_units(self):
        """What the request alone decides: an allocation on a reshaped
        provider is of a class its new inventory has, in amounts its units
        allow."""
        for r in self.requests:
            for rp_uuid, resources in r.allocations.items():
                if rp_uuid not in self.inventories:
                    continue
                classes = self.inventories[rp_uuid][1]
                for name, amount in resources.items():
                    data = classes.get(name)
                    if data is None:
                        raise alloc_obj.InvalidInventory(
                            resource_class=name, resource_provider=rp_uuid)
                    if not (data['min_unit'] <= amount <= data['max_unit']
                            and amount % data['step_size'] == 0):
                        raise alloc_obj.InvalidAllocationConstraintsViolated(
                            resource_class=name, resource_provider=rp_uuid)

    # -- providers -------------------------------------------------------------
    def providers_to_look_up(self):
        return list(self.inventories) + self.wanted_providers

    def check_before_consumers(self, conn):
        """As Placement: the reshaped providers exist and have the
        generation the client gave, before anything about consumers. (The
        providers' compare-and-swaps check the generations again; this
        only orders the errors.)"""
        for uuid in self.inventories:
            if uuid not in self.provider_ids:
                raise InventoryProviderNotFound(uuid=uuid)
        current = dict(conn.execute(
            sa.select(PROVIDERS.c.uuid, PROVIDERS.c.generation).where(
                PROVIDERS.c.uuid.in_(sorted(self.inventories)))).all())
        for uuid, (given, _) in self.inventories.items():
            if current[uuid] != given:
                raise ResourceProviderGenerationConflict(
                    uuid=uuid, actual=current[uuid], given=given)

    def check_providers(self):
        super().check_providers()
        self._check_new_allocations_fit_units()

    def _reshaped(self, provider_id):
        # Providers only held by the consumers' old allocations were not
        # looked up: they are not being reshaped.
        return self.provider_uuids.get(provider_id) in self.inventories

    def generation_steps(self, old):
        """As Placement 16.0.0's reshape, which writes each reshaped
        provider's inventories twice (an interim union, skipped when the
        new inventories are empty, and the final ones) around the
        allocation write: up to 3 for a reshaped provider."""
        steps = super().generation_steps(old)
        for uuid, (_, classes) in self.inventories.items():
            provider_id = self.provider_ids[uuid]
            steps[provider_id] = steps.get(provider_id, 0) + 1 + bool(classes)
        return steps

    def expected_provider_values(self, provider_id):
        if not self._reshaped(provider_id):
            return {}
        return {'generation':
                self.inventories[self.provider_uuids[provider_id]][0]}

    def failure(self, provider_id, exc):
        if isinstance(exc.condition, cond.Expect):
            uuid = self.provider_uuids[provider_id]
            return ResourceProviderGenerationConflict(
                uuid=uuid, actual=exc.actual,
                given=self.inventories[uuid][0])
        return super().failure(provider_id, exc)

    def requirements(self, provider_id, demands):
        if not self._reshaped(provider_id):
            return super().requirements(provider_id, demands)
        uuid = self.provider_uuids[provider_id]
        classes = self.inventories[uuid][1]
        keep = [self.inventory_class_ids[name] for name in classes]
        others = _held_by_others(self.consumer_uuids)
        if keep:
            others_outside = others + [
                ALLOCATIONS.c.resource_class_id.not_in(keep)]
        else:
            others_outside = others
        requirements = [rp_obj.Requirement(
            ~sa.exists().where(*others_outside),
            'must have no allocations of the inventories removed',
            lambda: exception.InventoryInUse(
                resource_classes=self._classes_left(provider_id, keep),
                resource_provider=uuid))]
        for name, data in sorted(classes.items()):
            class_id = self.inventory_class_ids[name]
            demand = demands.get(class_id)
            new_total = demand.total if demand else 0
            used = sa.select(sa.func.coalesce(
                sa.func.sum(ALLOCATIONS.c.used), 0)).where(
                    *others, ALLOCATIONS.c.resource_class_id == class_id
            ).scalar_subquery() + sa.literal(new_total, sa.BigInteger)
            if demand is not None and demand.grows:
                error = alloc_obj.InvalidAllocationCapacityExceeded(
                    resource_class=name, resource_provider=uuid)
            else:
                error = exception.InventoryInUse(resource_classes=name,
                                                 resource_provider=uuid)
            requirements.append(rp_obj.Requirement(
                used <= inv_obj.capacity(data),
                'must have usage of %s within its new capacity' % name,
                error))
        return requirements

    def _classes_left(self, provider_id, keep):
        """Names of the classes other consumers hold on the provider that
        the new inventory drops (for InventoryInUse)."""
        query = sa.select(ALLOCATIONS.c.resource_class_id).where(
            ALLOCATIONS.c.resource_provider_id == provider_id).distinct()
        if self.consumer_uuids:
            query = query.where(ALLOCATIONS.c.consumer_id.not_in(
                self.consumer_uuids))
        with session.reader.connection.using(self.context) as conn:
            ids = conn.execute(query).scalars().all()
        names = rc_obj.names_from_ids(self.context, ids)
        return ', '.join(sorted(names[i] for i in ids
                                if i in names and i not in keep))

    # -- inventories ------------------------------------------------------------
    def before_allocations(self, conn):
        for uuid in sorted(self.inventories, key=self.provider_ids.get):
            classes = self.inventories[uuid][1]
            ids = {name: self.inventory_class_ids[name] for name in classes}
            rc_obj.hold_custom(self.context, ids)
            # The rows as PUT .../inventories writes them; the provider's
            # row is held by its swap.
            provider = rp_obj.ResourceProvider(id=self.provider_ids[uuid],
                                               uuid=uuid)
            inv_obj._write_rows(self.context, provider, ids, classes, True)


def reshape(context, inventories, requests):
    """Replace the inventories of the providers in ``inventories`` and the
    allocations of the consumers in ``requests`` (ConsumerAllocations), all
    in one transaction.

    Raises what allocation.replace_all raises, InventoryProviderNotFound,
    ResourceProviderGenerationConflict and InventoryInUse.
    """
    alloc_obj.run(context, ReshapeWriter(context, inventories, requests))
