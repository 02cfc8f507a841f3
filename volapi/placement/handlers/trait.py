"""Handlers of /traits, /traits/{name} and
/resource_providers/{uuid}/traits (1.6)."""
import webob.exc

from objects.placement import exception
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from volapi.placement import errors
from volapi.placement import microversion
from volapi.placement import util
from volapi.placement.handlers import provider_path
from volapi.placement.schemas import trait as schema
from volapi.policies import placement as policies


def _name_filter(value):
    try:
        op, operand = value.split(':', 1)
    except ValueError:
        raise webob.exc.HTTPBadRequest(
            'Badly formatted name parameter. Expected name query string '
            'parameter in form: ?name=[in|startswith]:[name1,name2|prefix]. '
            'Got: "%s"' % value)
    if op == 'in':
        return {'name_in': operand.split(',')}
    if op == 'startswith':
        return {'prefix': operand}
    return {}


def _send_traits(req, traits, extra=None):
    last_modified = None
    for trait in traits:
        last_modified = util.pick_last_modified(
            last_modified, trait['updated_at'], trait['created_at'])
    body = {'traits': [t['name'] for t in traits]}
    body.update(extra or {})
    return util.send_json(req, body, last_modified=last_modified)


@microversion.version_handler('1.6')
@util.check_accept('application/json')
def list_traits(req):
    req.context.can(policies.TRAITS_LIST)
    util.validate_query_params(req, schema.LIST_TRAIT_SCHEMA)
    filters = {}
    if 'name' in req.GET:
        filters = _name_filter(req.GET['name'])
    if 'associated' in req.GET:
        associated = req.GET['associated'].lower()
        if associated not in ('true', 'false'):
            raise webob.exc.HTTPBadRequest(
                'The query parameter "associated" only accepts "true" or '
                '"false"')
        filters['associated'] = associated == 'true'
    return _send_traits(req, trait_obj.get_all(req.context, **filters))


@microversion.version_handler('1.6')
def get_trait(req):
    req.context.can(policies.TRAITS_SHOW)
    try:
        trait = trait_obj.get_by_name(req.context, req.path_item('name'))
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPNotFound(exc.format_message())
    util.set_modified(req, trait['created_at'])
    return util.send_empty(req, 204)


@microversion.version_handler('1.6')
def put_trait(req):
    """PUT a custom trait: 201 when made, 204 when it existed."""
    req.context.can(policies.TRAITS_UPDATE)
    name = req.path_item('name')
    try:
        util.validate(name, schema.CUSTOM_TRAIT, '%s')
    except webob.exc.HTTPBadRequest:
        raise webob.exc.HTTPBadRequest(
            'The trait is invalid. A valid trait must be no longer than 255 '
            'characters, start with the prefix "CUSTOM_" and use following '
            'characters: "A"-"Z", "0"-"9" and "_"')
    try:
        trait = trait_obj.create(req.context, name)
        status = 201
    except exception.TraitExists:
        trait = trait_obj.get_by_name(req.context, name)
        status = 204
    req.response.location = util.trait_url(req.environ, name)
    util.set_modified(req, trait['created_at'])
    return util.send_empty(req, status)


@microversion.version_handler('1.6')
def delete_trait(req):
    req.context.can(policies.TRAITS_DELETE)
    try:
        trait_obj.destroy(req.context, req.path_item('name'))
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPNotFound(exc.format_message())
    except exception.TraitCannotDeleteStandard as exc:
        raise webob.exc.HTTPBadRequest(exc.format_message())
    except exception.TraitInUse as exc:
        raise webob.exc.HTTPConflict(exc.format_message())
    return util.send_empty(req, 204)


@microversion.version_handler('1.6')
@util.check_accept('application/json')
def list_traits_for_resource_provider(req):
    req.context.can(policies.PROVIDER_TRAITS_LIST)
    provider = provider_path.provider(req)
    return _send_traits(
        req, trait_obj.get_all_for_provider(req.context, provider.id),
        {'resource_provider_generation': provider.generation})


@microversion.version_handler('1.6')
@util.require_json
def update_traits_for_resource_provider(req):
    """PUT the provider's whole set of traits at a generation."""
    context = req.context
    context.can(policies.PROVIDER_TRAITS_UPDATE)
    data = util.extract_json(req.body, schema.SET_TRAITS_FOR_RP_SCHEMA)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    generation = data['resource_provider_generation']
    provider_path.check_generation(provider, generation)
    try:
        generation = trait_obj.set_for_provider(
            context, provider, data['traits'], generation)
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPBadRequest('No such trait %s'
                                       % exc.kwargs['names'])
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict(exc.format_message(),
                                     comment=errors.CONCURRENT_UPDATE)
    # What was set, not a re-read that could show a later writer's set.
    return _send_traits(
        req, trait_obj.get_all(context, name_in=set(data['traits'])),
        {'resource_provider_generation': generation})


@microversion.version_handler('1.6')
def delete_traits_for_resource_provider(req):
    context = req.context
    context.can(policies.PROVIDER_TRAITS_DELETE)
    provider = rp_obj.get_by_uuid(context, req.path_item('uuid'))
    try:
        trait_obj.set_for_provider(context, provider, [])
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict(exc.format_message(),
                                     comment=errors.CONCURRENT_UPDATE)
    return util.send_empty(req, 204)
