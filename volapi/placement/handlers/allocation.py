"""Handlers of /allocations, /allocations/{consumer_uuid} and
/resource_providers/{uuid}/allocations.

Bodies, statuses, error codes and messages are Placement's, microversion by
microversion (list form before 1.12, project and user from 1.8, consumer
generations from 1.28, mappings from 1.34, consumer types from 1.38). The
writes are objects.placement.allocation's: one transaction each, provider
and consumer generations bumped by compare-and-swap.
"""
import re
import uuid as uuidlib

from oslo_utils import uuidutils
import webob.exc

from objects.placement import allocation as alloc_obj
from objects.placement import allocation_reads as alloc_reads
from objects.placement import consumer as consumer_obj
from objects.placement import exception
from volapi.placement import errors
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.schemas import allocation as schema
from volapi.policies import placement as policies

NULL_CONSUMER_TYPE = 'unknown'


# What clients normally send: already canonical, nothing to parse.
_CANONICAL_UUID = re.compile(
    r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z')


def canonical_uuid(value):
    """The canonical form of a uuid Placement accepts (dashless, any case),
    or None if it is not one."""
    if isinstance(value, str) and _CANONICAL_UUID.match(value):
        return value
    if not uuidutils.is_uuid_like(value):
        return None
    return str(uuidlib.UUID(value))


# -- reading -------------------------------------------------------------------

@util.check_accept('application/json')
def list_for_consumer(req):
    """GET /allocations/{consumer_uuid}: the consumer's allocations by
    provider; with project and user from 1.12, generation from 1.28, type
    from 1.38. A consumer with none has ``{"allocations": {}}``."""
    req.context.can(policies.ALLOCATIONS_LIST)
    consumer_uuid = req.path_item('consumer_uuid')
    found = alloc_reads.get_for_consumer(
        req.context, canonical_uuid(consumer_uuid) or consumer_uuid)
    if found is None:
        return util.send_json(req, {'allocations': {}})
    version = req.version
    body = {'allocations': found['allocations']}
    if version.matches((1, 12)):
        body['project_id'] = found['project_id']
        body['user_id'] = found['user_id']
    if version.matches((1, 28)):
        body['consumer_generation'] = found['consumer_generation']
    if version.matches((1, 38)):
        body['consumer_type'] = found['consumer_type'] or NULL_CONSUMER_TYPE
    return util.send_json(req, body, last_modified=found['last_modified'])


@util.check_accept('application/json')
def list_for_resource_provider(req):
    """GET /resource_providers/{uuid}/allocations: the provider's
    allocations by consumer, with the provider's generation (and each
    consumer's from 1.28)."""
    req.context.can(policies.PROVIDER_ALLOCATIONS_LIST)
    uuid = req.path_item('uuid')
    found = alloc_reads.get_for_provider(req.context,
                                         canonical_uuid(uuid) or uuid)
    if found is None:
        raise webob.exc.HTTPNotFound(
            "Resource provider '%s' not found: No resource provider with "
            "uuid %s found" % (uuid, uuid))
    with_generation = req.version.matches((1, 28))
    allocations = {
        consumer: ({'resources': held['resources'],
                    'consumer_generation': held['consumer_generation']}
                   if with_generation else {'resources': held['resources']})
        for consumer, held in found['allocations'].items()}
    return util.send_json(
        req, {'allocations': allocations,
              'resource_provider_generation':
                  found['resource_provider_generation']},
        last_modified=found['last_modified'])


# -- writing -------------------------------------------------------------------

def consumer_allocations(consumer_uuid, data, version):
    """A ConsumerAllocations from one consumer's part of a validated body."""
    allocations = data['allocations']
    if not version.matches((1, 12)):
        # The list form; a provider named twice keeps its last entry, as
        # Placement's conversion does.
        allocations = {item['resource_provider']['uuid']: item
                       for item in allocations}
    return alloc_obj.ConsumerAllocations(
        consumer_uuid,
        {canonical_uuid(rp) or rp: dict(item['resources'])
         for rp, item in allocations.items()},
        project_id=data.get('project_id'),
        user_id=data.get('user_id'),
        generation=(data['consumer_generation']
                    if version.matches((1, 28)) else consumer_obj.UNCHECKED),
        consumer_type=(data['consumer_type'] if version.matches((1, 38))
                       else consumer_obj.UNCHECKED))


def allocations_by_consumer(data, version):
    """ConsumerAllocations from a body keyed by consumer uuid (POST
    /allocations, POST /reshaper)."""
    requests = {}
    for key, part in data.items():
        consumer_uuid = canonical_uuid(key)
        if consumer_uuid is None:
            raise webob.exc.HTTPBadRequest(
                'Malformed consumer_uuid: %s' % key)
        if consumer_uuid in requests:
            raise webob.exc.HTTPBadRequest(
                'Consumer %s is named more than once' % consumer_uuid)
        requests[consumer_uuid] = consumer_allocations(consumer_uuid, part,
                                                       version)
    return list(requests.values())


def _write(req, requests, unknown_class_message):
    try:
        alloc_obj.replace_all(req.context, requests)
    except alloc_obj.AllocationProviderNotFound as exc:
        raise webob.exc.HTTPBadRequest(exc.format_message())
    except exception.ResourceClassNotFound as exc:
        raise webob.exc.HTTPBadRequest(unknown_class_message % exc)
    except alloc_obj.InvalidInventory as exc:
        raise webob.exc.HTTPConflict(
            'Unable to allocate inventory: %s' % exc)
    except consumer_obj.ConsumerGenerationConflict as exc:
        raise webob.exc.HTTPConflict(exc.format_message(),
                                     comment=errors.CONCURRENT_UPDATE)
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict(
            'Inventory and/or allocations changed while attempting to '
            'allocate: %s' % exc, comment=errors.CONCURRENT_UPDATE)
    return util.send_empty(req, 204)


@util.require_json
def set_allocations_for_consumer(req):
    """PUT /allocations/{consumer_uuid}: replace the consumer's
    allocations (empty, from 1.28: remove them)."""
    req.context.can(policies.ALLOCATIONS_UPDATE)
    consumer_uuid = canonical_uuid(req.path_item('consumer_uuid'))
    if consumer_uuid is None:
        raise webob.exc.HTTPBadRequest(
            'Malformed consumer_uuid: %s' % req.path_item('consumer_uuid'))
    data = util.extract_json(req.body, schema.put_schema(req.version))
    return _write(req, [consumer_allocations(consumer_uuid, data,
                                             req.version)],
                  'Unable to allocate inventory for consumer %s: %%s'
                  % consumer_uuid)


@microversion.version_handler('1.13')
@util.require_json
def set_allocations(req):
    """POST /allocations (1.13): replace the allocations of several
    consumers in one transaction, all or nothing."""
    req.context.can(policies.ALLOCATIONS_MANAGE)
    data = util.extract_json(req.body, schema.post_schema(req.version))
    requests = allocations_by_consumer(data, req.version)
    return _write(req, requests, 'Unable to allocate inventory %s')


def delete_allocations(req):
    """DELETE /allocations/{consumer_uuid}: remove all of the consumer's
    allocations (404 if it has none)."""
    req.context.can(policies.ALLOCATIONS_DELETE)
    consumer_uuid = req.path_item('consumer_uuid')
    try:
        alloc_obj.delete_for_consumer(
            req.context, canonical_uuid(consumer_uuid) or consumer_uuid)
    except alloc_obj.AllocationsNotFound:
        raise webob.exc.HTTPNotFound(
            "No allocations for consumer '%s'" % consumer_uuid)
    return util.send_empty(req, 204)
