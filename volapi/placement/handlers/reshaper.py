"""Handler of POST /reshaper (1.30): move inventories and the allocations
on them in one transaction, e.g. VGPU inventory from a compute node to a
new child provider per GPU, or a custom class to its new standard name.
"""
import webob.exc

from objects.placement import allocation as alloc_obj
from objects.placement import consumer as consumer_obj
from objects.placement import exception
from objects.placement import reshaper as reshaper_obj
from objects.placement import resource_provider as rp_obj
from volapi.placement import errors
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.handlers import allocation
from volapi.placement.handlers import inventory
from volapi.placement.schemas import reshaper as schema
from volapi.policies import placement as policies


def _inventories(req, data):
    """{provider uuid: (generation, {class: fields with defaults})},
    each inventory checked as PUT .../inventories checks it."""
    inventories = {}
    for key, part in data.items():
        uuid = allocation.canonical_uuid(key) or key
        provider = rp_obj.ResourceProvider(uuid=uuid)
        classes = {}
        for name, raw in part['inventories'].items():
            classes[name] = inventory._with_defaults(raw)
            try:
                inventory._validate(req, provider, name, classes[name])
            except (exception.InvalidInventoryCapacity,
                    exception.InvalidInventoryUnits) as exc:
                raise webob.exc.HTTPBadRequest(
                    'Bad inventory %s for resource provider %s: %s'
                    % (name, uuid, exc))
        inventories[uuid] = (part['resource_provider_generation'], classes)
    return inventories


@microversion.version_handler('1.30')
@util.require_json
def reshape(req):
    context = req.context
    context.can(policies.RESHAPE)
    data = util.extract_json(req.body, schema.post_schema(req.version))
    inventories = _inventories(req, data['inventories'])
    requests = allocation.allocations_by_consumer(data['allocations'],
                                                  req.version)
    try:
        reshaper_obj.reshape(context, inventories, requests)
    except reshaper_obj.InventoryProviderNotFound as exc:
        raise webob.exc.HTTPBadRequest(
            'Resource provider %s in inventories not found: %s'
            % (exc.kwargs['uuid'], exc),
            comment=errors.RESOURCE_PROVIDER_NOT_FOUND)
    except (reshaper_obj.ResourceProviderGenerationConflict,
            consumer_obj.ConsumerGenerationConflict) as exc:
        raise webob.exc.HTTPConflict(exc.format_message(),
                                     comment=errors.CONCURRENT_UPDATE)
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict('update conflict: %s' % exc,
                                     comment=errors.CONCURRENT_UPDATE)
    except alloc_obj.AllocationProviderNotFound as exc:
        raise webob.exc.HTTPBadRequest(exc.format_message())
    except exception.NotFound as exc:
        # An unknown resource class.
        raise webob.exc.HTTPBadRequest('malformed reshaper data: %s' % exc)
    except exception.InventoryInUse as exc:
        raise webob.exc.HTTPConflict('update conflict: %s' % exc,
                                     comment=errors.INVENTORY_INUSE)
    except alloc_obj.InvalidInventory as exc:
        raise webob.exc.HTTPConflict(
            'Unable to allocate inventory: %s' % exc)
    return util.send_empty(req, 204)
