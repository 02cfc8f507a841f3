"""Handlers of /resource_providers/{uuid}/aggregates (1.1).

Up to 1.18 the body is a plain list of aggregate uuids and the generation
is neither shown nor checked; from 1.19 both are, in an object.
"""
import webob.exc

from objects.placement import aggregate as agg_obj
from objects.placement import exception
from objects.placement import resource_provider as rp_obj
from volapi.placement import errors
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.handlers import provider_path
from volapi.placement.schemas import aggregate as schema
from volapi.policies import placement as policies

_GENERATION_VERSION = (1, 19)


def _send(req, generation, uuids):
    body = {'aggregates': uuids}
    if req.version.matches(_GENERATION_VERSION):
        body['resource_provider_generation'] = generation
    # Placement keeps no time of association: "now" it is.
    return util.send_json(req, body)


@microversion.version_handler('1.1')
@util.check_accept('application/json')
def get_aggregates(req):
    req.context.can(policies.AGGREGATES_LIST)
    provider = rp_obj.get_by_uuid(req.context, req.path_item('uuid'))
    return _send(req, provider.generation,
                 agg_obj.get_for_provider(req.context, provider.id))


@microversion.version_handler('1.1')
@util.require_json
def set_aggregates(req):
    context = req.context
    context.can(policies.AGGREGATES_UPDATE)
    with_generation = req.version.matches(_GENERATION_VERSION)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    data = util.extract_json(
        req.body, schema.PUT_AGGREGATES_SCHEMA_V1_19 if with_generation
        else schema.PUT_AGGREGATES_SCHEMA_V1_1)
    generation = None
    if with_generation:
        generation = data['resource_provider_generation']
        provider_path.check_generation(provider, generation)
        uuids = data['aggregates']
    else:
        uuids = data
    try:
        generation = agg_obj.set_for_provider(context, provider, uuids,
                                              generation)
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict('Update conflict: %s' % exc,
                                     comment=errors.CONCURRENT_UPDATE)
    return _send(req, generation, uuids)
