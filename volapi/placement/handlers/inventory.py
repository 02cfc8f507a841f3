"""Handlers of /resource_providers/{uuid}/inventories[/{resource_class}]."""
import contextlib

import webob.exc

from objects.placement import exception
from objects.placement import inventory as inv_obj
from objects.placement import resource_provider as rp_obj
from volapi.placement import errors
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.handlers import provider_path
from volapi.placement.schemas import common
from volapi.placement.schemas import inventory as schema
from volapi.policies import placement as policies

OUTPUT_FIELDS = inv_obj.FIELDS
# The API's defaults, kept apart from the table's so that a schema change
# cannot change the API.
DEFAULTS = {
    'reserved': 0,
    'min_unit': 1,
    'max_unit': common.MAX_INT,
    'step_size': 1,
    'allocation_ratio': 1.0,
}


# Placement's words for a PUT at a generation the provider is past.
GENERATION_CONFLICT = 'resource provider generation conflict'


@contextlib.contextmanager
def _update_refusals(provider):
    """Placement's answers to an inventory update the objects refuse."""
    try:
        yield
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict('update conflict: %s' % exc,
                                     comment=errors.CONCURRENT_UPDATE)
    except exception.InventoryInUse as exc:
        raise webob.exc.HTTPConflict('update conflict: %s' % exc,
                                     comment=errors.INVENTORY_INUSE)
    except (exception.InvalidInventoryCapacity,
            exception.InvalidInventoryUnits) as exc:
        raise webob.exc.HTTPBadRequest(
            'Unable to update inventory for resource provider %s: %s'
            % (provider.uuid, exc))


def _with_defaults(data):
    inventory = dict(DEFAULTS)
    inventory.update(data)
    inventory.pop('resource_provider_generation', None)
    # A JSON integer beyond 64 bits is no database's float parameter.
    inventory['allocation_ratio'] = float(inventory['allocation_ratio'])
    return inventory


def _serialize(inventory, generation=None):
    data = {field: inventory[field] for field in OUTPUT_FIELDS}
    if generation:
        data['resource_provider_generation'] = generation
    return data


def _send_inventories(req, generation, inventories):
    last_modified = None
    body = {}
    for inventory in inventories:
        last_modified = util.pick_last_modified(
            last_modified, inventory['updated_at'], inventory['created_at'])
        body[inventory['resource_class']] = _serialize(inventory)
    return util.send_json(req, {'resource_provider_generation': generation,
                                'inventories': body},
                          last_modified=last_modified)


def _send_inventory(req, generation, inventory, status=200):
    return util.send_json(
        req, _serialize(inventory, generation), status=status,
        last_modified=util.pick_last_modified(
            None, inventory.get('updated_at'), inventory.get('created_at')))


def _find(inventories, name):
    for inventory in inventories:
        if inventory['resource_class'] == name:
            return inventory
    return None


def _validate(req, provider, name, inventory):
    """What the schema cannot say: a capacity above zero (from 1.26, zero
    too: reserved may equal total), then, stricter than Placement, a
    positive allocation ratio and min_unit <= max_unit."""
    # The ratio first: the capacity of a ratio of -1e308 is -inf.
    if inventory['allocation_ratio'] <= 0:
        raise exception.InvalidInventoryUnits(
            resource_class=name, resource_provider=provider.uuid,
            reason='The allocation_ratio must be greater than 0.')
    capacity = int(inv_obj.capacity(inventory))
    if req.version.matches((1, 26)):
        if capacity < 0:
            raise exception.InvalidInventoryCapacityReservedCanBeTotal(
                resource_class=name, resource_provider=provider.uuid)
    elif capacity <= 0:
        raise exception.InvalidInventoryCapacity(
            resource_class=name, resource_provider=provider.uuid)
    if inventory['min_unit'] > inventory['max_unit']:
        raise exception.InvalidInventoryUnits(
            resource_class=name, resource_provider=provider.uuid,
            reason='The min_unit must not be greater than max_unit.')


@util.check_accept('application/json')
def get_inventories(req):
    req.context.can(policies.INVENTORIES_LIST)
    provider = provider_path.provider(
        req, provider_path.NOT_FOUND_FOR_INVENTORY)
    return _send_inventories(
        req, provider.generation,
        inv_obj.get_all_by_provider(req.context, provider.id))


@util.check_accept('application/json')
def get_inventory(req):
    req.context.can(policies.INVENTORIES_SHOW)
    provider = provider_path.provider(
        req, provider_path.NOT_FOUND_FOR_INVENTORY)
    name = req.path_item('resource_class')
    inventory = _find(inv_obj.get_all_by_provider(req.context, provider.id),
                      name)
    if inventory is None:
        raise webob.exc.HTTPNotFound(
            'No inventory of class %s for %s' % (name, provider.uuid))
    return _send_inventory(req, provider.generation, inventory)


@util.require_json
def create_inventory(req):
    """POST one inventory of a class the provider has none of: 201."""
    context = req.context
    context.can(policies.INVENTORIES_CREATE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    data = _with_defaults(util.extract_json(req.body,
                                            schema.POST_INVENTORY_SCHEMA))
    name = data.pop('resource_class')
    try:
        _validate(req, provider, name, data)
        generation, inventories = inv_obj.add(context, provider, name, data)
    except (exception.ConcurrentUpdateDetected,
            exception.InventoryExists) as exc:
        raise webob.exc.HTTPConflict('Update conflict: %s' % exc,
                                     comment=errors.CONCURRENT_UPDATE)
    except (exception.InvalidInventoryCapacity,
            exception.InvalidInventoryUnits, exception.NotFound) as exc:
        raise webob.exc.HTTPBadRequest(
            'Unable to create inventory for resource provider %s: %s'
            % (provider.uuid, exc))
    req.response.location = util.inventory_url(req.environ, provider.uuid,
                                               name)
    return _send_inventory(req, generation, _find(inventories, name),
                           status=201)


@util.require_json
def set_inventories(req):
    """PUT all inventories at the given generation: classes not named are
    removed (409 placement.inventory.inuse if allocated)."""
    context = req.context
    context.can(policies.INVENTORIES_UPDATE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    data = util.extract_json(req.body, schema.PUT_INVENTORY_SCHEMA)
    provider_path.check_generation(
        provider, data['resource_provider_generation'], GENERATION_CONFLICT)
    inventories = {name: _with_defaults(raw)
                   for name, raw in data['inventories'].items()}
    with _update_refusals(provider):
        try:
            for name, inventory in inventories.items():
                _validate(req, provider, name, inventory)
            generation, written = inv_obj.set_inventories(
                context, provider, data['resource_provider_generation'],
                inventories)
        except exception.ResourceClassNotFound as exc:
            raise webob.exc.HTTPBadRequest(
                'Unknown resource class in inventory for resource provider '
                '%s: %s' % (provider.uuid, exc))
    return _send_inventories(req, generation, written)


@util.require_json
def update_inventory(req):
    """PUT one existing inventory at the given generation."""
    context = req.context
    context.can(policies.INVENTORIES_UPDATE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    name = req.path_item('resource_class')
    data = util.extract_json(req.body, schema.BASE_INVENTORY_SCHEMA)
    provider_path.check_generation(
        provider, data['resource_provider_generation'], GENERATION_CONFLICT)
    inventory = _with_defaults(data)
    with _update_refusals(provider):
        try:
            _validate(req, provider, name, inventory)
            generation, written = inv_obj.update(
                context, provider, data['resource_provider_generation'],
                name, inventory)
        except exception.InventoryWithResourceClassNotFound as exc:
            raise webob.exc.HTTPBadRequest(
                'No inventory record with resource class for resource '
                'provider %s: %s' % (provider.uuid, exc))
    return _send_inventory(req, generation, _find(written, name))


def delete_inventory(req):
    context = req.context
    context.can(policies.INVENTORIES_DELETE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    name = req.path_item('resource_class')
    try:
        inv_obj.delete(context, provider, name)
    except exception.InventoryInUse as exc:
        raise webob.exc.HTTPConflict(
            'Unable to delete inventory of class %s: %s' % (name, exc),
            comment=errors.INVENTORY_INUSE)
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict(
            'Unable to delete inventory of class %s: %s' % (name, exc),
            comment=errors.CONCURRENT_UPDATE)
    except exception.NotFound as exc:
        raise webob.exc.HTTPNotFound(
            'No inventory of class %s found for delete: %s' % (name, exc))
    return util.send_empty(req, 204)


@microversion.version_handler('1.5', status_code=405)
def delete_inventories(req):
    """DELETE all inventories (1.5; before, the method does not exist)."""
    context = req.context
    context.can(policies.INVENTORIES_DELETE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    try:
        inv_obj.delete_all(context, provider)
    except exception.ConcurrentUpdateDetected:
        raise webob.exc.HTTPConflict(
            'Unable to delete inventory for resource provider %s because '
            'the inventory was updated by another process. Please retry '
            'your request.' % provider.uuid,
            comment=errors.CONCURRENT_UPDATE)
    except exception.InventoryInUse as exc:
        # nova's report client matches this message.
        raise webob.exc.HTTPConflict(exc.format_message(),
                                     comment=errors.INVENTORY_INUSE)
    return util.send_empty(req, 204)
