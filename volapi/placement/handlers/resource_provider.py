"""Handlers of /resource_providers and /resource_providers/{uuid}."""
import uuid as uuidlib

from oslo_utils import uuidutils
import webob.exc

from objects.placement import exception
from objects.placement import resource_class as rc_obj
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from volapi.placement import errors
from volapi.placement import util
from volapi.placement.schemas import common
from volapi.placement.schemas import resource_provider as schema
from volapi.policies import placement as policies


def _links(environ, provider, version):
    url = util.resource_provider_url(environ, provider.uuid)
    links = [{'rel': 'self', 'href': url}]
    relations = ['inventories', 'usages']
    if version >= (1, 1):
        relations.append('aggregates')
    if version >= (1, 6):
        relations.append('traits')
    if version >= (1, 11):
        relations.append('allocations')
    links.extend({'rel': rel, 'href': '%s/%s' % (url, rel)}
                 for rel in relations)
    return links


def serialize(environ, provider, version):
    data = {
        'uuid': provider.uuid,
        'name': provider.name,
        'generation': provider.generation,
        'links': _links(environ, provider, version),
    }
    if version.matches((1, 14)):
        data['parent_provider_uuid'] = provider.parent_provider_uuid
        data['root_provider_uuid'] = provider.root_provider_uuid
    return data


def _modified(provider):
    return util.pick_last_modified(None, provider.updated_at,
                                   provider.created_at)


@util.require_json
def create_resource_provider(req):
    """POST: 201 with no body up to 1.19, 200 with the provider from 1.20;
    a Location header either way."""
    context = req.context
    context.can(policies.RESOURCE_PROVIDERS_CREATE)
    version = req.version
    data = util.extract_json(
        req.body, schema.POST_RP_SCHEMA_V1_14 if version.matches((1, 14))
        else schema.POST_RESOURCE_PROVIDER_SCHEMA)
    # Dashless uuids are accepted and stored in the canonical form.
    data['uuid'] = str(uuidlib.UUID(data['uuid'])) if data.get('uuid') \
        else uuidutils.generate_uuid()
    try:
        provider = rp_obj.create(context, data['uuid'], data['name'],
                                 data.get('parent_provider_uuid'))
    except exception.ResourceProviderExists as exc:
        duplicate = ', '.join('%s: %s' % (column, data[column])
                              for column in exc.columns)
        raise webob.exc.HTTPConflict(
            'Conflicting resource provider %s already exists.' % duplicate,
            comment=errors.DUPLICATE_NAME)
    except exception.ObjectActionError as exc:
        raise webob.exc.HTTPBadRequest(
            'Unable to create resource provider "%s", %s: %s'
            % (data['name'], data['uuid'], exc))
    response = req.response
    response.location = util.resource_provider_url(req.environ, provider.uuid)
    if version.matches((1, 20)):
        return util.send_json(req, serialize(req.environ, provider, version),
                              last_modified=_modified(provider))
    return util.send_empty(req, 201)


@util.check_accept('application/json')
def get_resource_provider(req):
    req.context.can(policies.RESOURCE_PROVIDERS_SHOW)
    provider = rp_obj.get_by_uuid(req.context, req.path_item('uuid'))
    return util.send_json(req, serialize(req.environ, provider, req.version),
                          last_modified=_modified(provider))


@util.require_json
def update_resource_provider(req):
    """PUT: name and (1.14) parent; 1.37 allows re-parenting and
    un-parenting. The generation is not part of it."""
    context = req.context
    context.can(policies.RESOURCE_PROVIDERS_UPDATE)
    version = req.version
    uuid = req.path_item('uuid')
    # 404 before looking at the body, as Placement.
    rp_obj.get_by_uuid(context, uuid)
    data = util.extract_json(
        req.body, schema.PUT_RP_SCHEMA_V1_14 if version.matches((1, 14))
        else schema.PUT_RESOURCE_PROVIDER_SCHEMA)
    changes = {key: data[key] for key in ('name', 'parent_provider_uuid')
               if key in data}
    try:
        provider = rp_obj.update(context, uuid,
                                 allow_reparenting=version.matches((1, 37)),
                                 **changes)
    except exception.ResourceProviderExists:
        raise webob.exc.HTTPConflict(
            'Conflicting resource provider %s already exists.'
            % data.get('name'), comment=errors.DUPLICATE_NAME)
    except exception.ObjectActionError as exc:
        raise webob.exc.HTTPBadRequest(
            'Unable to save resource provider %s: %s' % (uuid, exc))
    except exception.ConcurrentUpdateDetected as exc:
        raise webob.exc.HTTPConflict(
            'Unable to save resource provider %s: %s' % (uuid, exc),
            comment=errors.CONCURRENT_UPDATE)
    return util.send_json(req, serialize(req.environ, provider, version),
                          last_modified=_modified(provider))


def delete_resource_provider(req):
    context = req.context
    context.can(policies.RESOURCE_PROVIDERS_DELETE)
    uuid = req.path_item('uuid')
    try:
        rp_obj.destroy(context, rp_obj.get_by_uuid(context, uuid))
    except exception.ResourceProviderInUse as exc:
        raise webob.exc.HTTPConflict(
            'Unable to delete resource provider %s: %s' % (uuid, exc),
            comment=errors.PROVIDER_IN_USE)
    except exception.CannotDeleteParentResourceProvider:
        raise webob.exc.HTTPConflict(
            'Unable to delete parent resource provider %s: It has child '
            'resource providers.' % uuid,
            comment=errors.PROVIDER_CANNOT_DELETE_PARENT)
    except exception.NotFound:
        raise webob.exc.HTTPNotFound(
            'No resource provider with uuid %s found for delete' % uuid)
    return util.send_empty(req, 204)


@util.check_accept('application/json')
def list_resource_providers(req):
    """GET with filters: name, uuid; member_of (1.3; repeatable 1.24,
    ``!`` 1.32); resources (1.4); in_tree (1.14); required (1.18; ``!``
    1.22; ``in:`` and repeatable 1.39)."""
    context = req.context
    context.can(policies.RESOURCE_PROVIDERS_LIST)
    version = req.version
    util.validate_query_params(req, schema.list_schema(version))
    params = req.GET
    filters = {key: params[key] for key in ('name', 'uuid', 'in_tree')
               if key in params}
    if 'member_of' in params:
        filters['member_of'], filters['forbidden_aggs'] = \
            util.normalize_member_of_qs_params(req)
    try:
        if 'resources' in params:
            amounts = util.normalize_resources_qs_param(params['resources'])
            ids = rc_obj.ids_from_names(context, amounts)
            filters['resources'] = {ids[n]: a for n, a in amounts.items()}
        if 'required' in params:
            required, forbidden = util.normalize_required_traits(req)
            filters['required'], filters['forbidden_traits'] = \
                _trait_ids(context, required, forbidden)
    except exception.ResourceClassNotFound as exc:
        raise webob.exc.HTTPBadRequest(
            'Invalid resource class in resources parameter: %s' % exc)
    except exception.TraitNotFound as exc:
        raise webob.exc.HTTPBadRequest(
            'Invalid trait(s) in "required" parameter: %s' % exc)
    if any(amount > common.MAX_INT
           for amount in filters.get('resources', {}).values()):
        providers = []  # no inventory can hold more than MAX_INT
    else:
        providers = rp_obj.get_all_by_filters(context, **filters)
    last_modified = None
    for provider in providers:
        last_modified = util.pick_last_modified(
            last_modified, provider.updated_at, provider.created_at)
    return util.send_json(
        req, {'resource_providers': [serialize(req.environ, p, version)
                                     for p in providers]},
        last_modified=last_modified)


def _trait_ids(context, required, forbidden):
    names = set(forbidden).union(*required) if required else set(forbidden)
    ids = trait_obj.ids_by_name(context, names)
    unknown = names - set(ids)
    if unknown:
        raise exception.TraitNotFound(names=', '.join(sorted(unknown)))
    return ([{ids[n] for n in group} for group in required],
            {ids[n] for n in forbidden})
