"""Handler of GET /allocation_candidates (1.10)."""
import webob.exc

from objects.placement import allocation_candidate as ac
from objects.placement import exception
from volapi.placement import microversion
from volapi.placement import request_groups
from volapi.placement import util
from volapi.placement.schemas import allocation_candidate as schema
from volapi.policies import placement as policies


@microversion.version_handler('1.10')
@util.check_accept('application/json')
def list_allocation_candidates(req):
    """The ways the request groups can be allocated now, and a summary of
    each provider of the trees they use."""
    context = req.context
    context.can(policies.ALLOCATION_CANDIDATES_LIST)
    version = req.version
    util.validate_query_params(req, schema.for_version(version))
    params = request_groups.request_wide_params(req)
    groups = request_groups.request_groups(req, params)
    if not params.group_policy and len(
            [g for g in groups.values() if g.use_same_provider]) > 1:
        raise webob.exc.HTTPBadRequest(
            'The "group_policy" parameter is required when specifying '
            'more than one "resources{N}" parameter.')
    try:
        found = ac.get_candidates(
            context, groups, limit=params.limit,
            group_policy=params.group_policy,
            root_required=params.root_required,
            root_forbidden=params.root_forbidden,
            same_subtrees=params.same_subtrees,
            nested_aware=version.matches((1, 29)),
            randomize=context.config.placement.randomize_allocation_candidates)
    except exception.ResourceClassNotFound as exc:
        raise webob.exc.HTTPBadRequest(
            'Invalid resource class in resources parameter: %s' % exc)
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPBadRequest(str(exc))
    as_dict, with_mappings = version.matches((1, 12)), version.matches(
        (1, 34))
    return util.send_json(req, {
        'allocation_requests': [
            _allocation_request(r, as_dict, with_mappings)
            for r in found.allocation_requests],
        'provider_summaries': _summaries(found.provider_summaries, groups,
                                         version)})


def _allocation_request(request, as_dict, with_mappings):
    if not as_dict:
        # Before 1.12: the list form of PUT /allocations/{consumer}.
        return {'allocations': [
            {'resource_provider': {'uuid': uuid}, 'resources': resources}
            for uuid, resources in request.allocations.items()]}
    data = {'allocations': {uuid: {'resources': resources}
                            for uuid, resources in
                            request.allocations.items()}}
    if with_mappings:
        data['mappings'] = request.mappings
    return data


def _summaries(summaries, groups, version):
    """Traits from 1.17; every class (not only the requested ones) from
    1.27; parent and root uuids from 1.29."""
    every_class = version.matches((1, 27))
    with_traits, with_tree = version.matches((1, 17)), version.matches(
        (1, 29))
    requested = set().union(*(g.resources for g in groups.values()))
    result = {}
    for uuid, summary in summaries.items():
        data = result[uuid] = {'resources': summary.resources if every_class
                               else {name: amounts for name, amounts in
                                     summary.resources.items()
                                     if name in requested}}
        if with_traits:
            data['traits'] = summary.traits
        if with_tree:
            data['parent_provider_uuid'] = summary.parent_provider_uuid
            data['root_provider_uuid'] = summary.root_provider_uuid
    return result
