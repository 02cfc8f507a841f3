"""Inventories of resource providers.

Every write is one transaction that first compare-and-swaps the provider's
generation (``expected -> expected + 1``) with the conditions the change
needs as subqueries in the same UPDATE: "no allocation of a class being
removed", "usage fits the new capacity", "the inventory exists / does not
exist yet". Allocation writers bump the same generation, so no allocation
can slip in between the check and the inventory change. Only then are the
inventory rows written, under the provider row the swap holds.

The operations without a generation from the client (POST, DELETE of one
class or of all) swap from the generation they read and, when that loses a
race, read again and retry rather than answer 409.
"""
import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import models
from db import session
from objects.placement import exception
from objects.placement import resource_class as rc_obj
from objects.placement import resource_provider as rp_obj

INVENTORIES = models.Inventory.__table__
ALLOCATIONS = models.Allocation.__table__
FIELDS = ('total', 'reserved', 'min_unit', 'max_unit', 'step_size',
          'allocation_ratio')


def capacity(data):
    return (data['total'] - data['reserved']) * data['allocation_ratio']


def get_all_by_provider(context, provider_id):
    """The provider's inventories: a list of mappings with
    ``resource_class`` (name), the FIELDS, created_at and updated_at."""
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(sa.select(INVENTORIES).where(
            INVENTORIES.c.resource_provider_id == provider_id).order_by(
                INVENTORIES.c.resource_class_id)).mappings().all()
    names = rc_obj.names_from_ids(context,
                                  [r['resource_class_id'] for r in rows])
    return [dict(row, resource_class=names[row['resource_class_id']])
            for row in rows if row['resource_class_id'] in names]


def of_class_by_provider(context, provider_ids, class_id):
    """{provider id: its inventory row of ``class_id`` (a mapping)} for
    those of ``provider_ids`` that have one (one query)."""
    if not provider_ids:
        return {}
    with session.reader.connection.using(context) as conn:
        rows = conn.execute(sa.select(INVENTORIES).where(
            INVENTORIES.c.resource_provider_id.in_(list(provider_ids)),
            INVENTORIES.c.resource_class_id == class_id)).mappings().all()
    return {row['resource_provider_id']: row for row in rows}


# -- the conditions ---------------------------------------------------------------

def _used(provider_id, class_ids):
    return sa.exists().where(
        ALLOCATIONS.c.resource_provider_id == provider_id,
        ALLOCATIONS.c.resource_class_id.in_(class_ids))


def _classes_in_use(context, provider, class_ids=None, keep_ids=None):
    """Names of the provider's allocated classes among ``class_ids`` (or
    outside ``keep_ids``), for the InventoryInUse message."""
    query = sa.select(ALLOCATIONS.c.resource_class_id).where(
        ALLOCATIONS.c.resource_provider_id == provider.id).distinct()
    if class_ids is not None:
        query = query.where(ALLOCATIONS.c.resource_class_id.in_(class_ids))
    if keep_ids is not None:
        query = query.where(ALLOCATIONS.c.resource_class_id.not_in(keep_ids))
    with session.reader.connection.using(context) as conn:
        ids = conn.execute(query).scalars().all()
    names = rc_obj.names_from_ids(context, ids)
    # In class id order, as Placement names them.
    return ', '.join(names[i] for i in sorted(ids) if i in names)


def _in_use_error(context, provider, **which):
    return lambda: exception.InventoryInUse(
        resource_classes=_classes_in_use(context, provider, **which),
        resource_provider=provider.uuid)


def _none_allocated_outside(context, provider, keep_ids):
    criterion = ~sa.exists().where(
        ALLOCATIONS.c.resource_provider_id == provider.id,
        ALLOCATIONS.c.resource_class_id.not_in(keep_ids)) if keep_ids \
        else ~sa.exists().where(
            ALLOCATIONS.c.resource_provider_id == provider.id)
    return rp_obj.Requirement(
        criterion, 'must have no allocations of the inventories removed',
        _in_use_error(context, provider, keep_ids=list(keep_ids)))


def _none_allocated(context, provider, class_id, name):
    return rp_obj.Requirement(
        ~_used(provider.id, [class_id]),
        'must have no allocations of %s' % name,
        _in_use_error(context, provider, class_ids=[class_id]))


def _usage_fits(context, provider, class_id, name, data):
    """Usage of the class is within the new capacity: an inventory is not
    shrunk under what is already allocated."""
    return rp_obj.Requirement(
        _allocated(provider.id, class_id) <= capacity(data),
        'must have usage of %s within its new capacity' % name,
        _in_use_error(context, provider, class_ids=[class_id]))


def _allocated(provider_id, class_id):
    """SQL: the sum of the allocations of the class on the provider (none
    as a rule when its inventory is being created; a reshape moving them
    in has not moved them yet)."""
    return sa.select(sa.func.coalesce(sa.func.sum(ALLOCATIONS.c.used), 0)) \
        .where(ALLOCATIONS.c.resource_provider_id == provider_id,
               ALLOCATIONS.c.resource_class_id == class_id) \
        .scalar_subquery()


def _has_inventory(provider, class_id):
    return sa.exists().where(
        INVENTORIES.c.resource_provider_id == provider.id,
        INVENTORIES.c.resource_class_id == class_id)


# -- the write -------------------------------------------------------------------

@db_api.retry_on_deadlock
def _write(context, provider, generation, desired, replace, requirements):
    """Swap the generation with ``requirements``, then make the rows:
    ``desired`` {class name: fields, or None to delete}; with ``replace``
    every class not in ``desired`` goes. Returns (new generation, the
    provider's inventories)."""
    with session.writer.connection.using(context):
        ids = rc_obj.ids_from_names(context, desired)
        conditions = list(requirements(ids))
        if replace:
            keep = [ids[n] for n, data in desired.items() if data is not None]
            conditions.insert(0, _none_allocated_outside(
                context, provider, keep))
        for name, data in desired.items():
            if data is None:
                conditions.append(_none_allocated(
                    context, provider, ids[name], name))
            else:
                conditions.append(_usage_fits(
                    context, provider, ids[name], name, data))
        new_generation = rp_obj.increment_generation(
            context, provider.id, generation, conditions)
        rc_obj.hold_custom(context, {n: ids[n] for n, d in desired.items()
                                     if d is not None})
        _write_rows(context, provider, ids, desired, replace)
        return new_generation, get_all_by_provider(context, provider.id)


def _write_rows(context, provider, ids, desired, replace):
    now = timeutils.utcnow()
    with session.writer.connection.using(context) as conn:
        gone = [ids[n] for n, data in desired.items() if data is None]
        if replace:
            keep = [ids[n] for n, data in desired.items() if data is not None]
            where = [INVENTORIES.c.resource_provider_id == provider.id]
            if keep:
                where.append(INVENTORIES.c.resource_class_id.not_in(keep))
            conn.execute(INVENTORIES.delete().where(*where))
        elif gone:
            conn.execute(INVENTORIES.delete().where(
                INVENTORIES.c.resource_provider_id == provider.id,
                INVENTORIES.c.resource_class_id.in_(gone)))
        for name, data in desired.items():
            if data is None:
                continue
            values = {f: data[f] for f in FIELDS}
            # The provider row is held by the swap, so whether the row
            # exists cannot change between these two statements.
            if not db_api.conditional_update(
                    context, models.Inventory, dict(values, updated_at=now),
                    {'resource_provider_id': provider.id,
                     'resource_class_id': ids[name]}):
                conn.execute(INVENTORIES.insert().values(
                    resource_provider_id=provider.id,
                    resource_class_id=ids[name], created_at=now,
                    allocated=_allocated(provider.id, ids[name]), **values))


# -- the operations ------------------------------------------------------------

def set_inventories(context, provider, generation, inventories):
    """Replace all inventories (PUT .../inventories) at ``generation``."""
    return _write(context, provider, generation, inventories, True,
                  lambda ids: ())


def delete_all(context, provider):
    """Remove all inventories (DELETE .../inventories, 1.5)."""
    return rp_obj.retry_from_last_read(context, provider, lambda rp: _write(
        context, rp, rp.generation, {}, True, lambda ids: ()))


def add(context, provider, name, data):
    """Add the inventory of a class the provider has none of (POST)."""
    def requirements(ids):
        yield rp_obj.Requirement(
            ~_has_inventory(provider, ids[name]),
            'must have no inventory of %s yet' % name,
            exception.InventoryExists(resource_class=name,
                                      resource_provider=provider.uuid))
    return rp_obj.retry_from_last_read(context, provider, lambda rp: _write(
        context, rp, rp.generation, {name: data}, False, requirements))


def update(context, provider, generation, name, data):
    """Change the inventory of one class at ``generation`` (PUT
    .../inventories/{class})."""
    def requirements(ids):
        yield _existing(provider, ids[name], name)
    return _write(context, provider, generation, {name: data}, False,
                  requirements)


def delete(context, provider, name):
    """Remove the inventory of one class (DELETE .../inventories/{class})."""
    def requirements(ids):
        yield _existing(provider, ids[name], name,
                        exception.InventoryNotFoundForDelete)
    return rp_obj.retry_from_last_read(context, provider, lambda rp: _write(
        context, rp, rp.generation, {name: None}, False, requirements))


def _existing(provider, class_id, name,
              missing=exception.InventoryWithResourceClassNotFound):
    return rp_obj.Requirement(
        _has_inventory(provider, class_id),
        'must have inventory of %s' % name, missing(resource_class=name))
