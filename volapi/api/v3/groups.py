"""/v3/{project_id}/groups (3.13+): create, list (summary and detail),
show, update (name, description, add_volumes, remove_volumes) and the
``delete`` and ``reset_status`` actions; ``POST /groups/action``
create-from-src (3.14). Group replication is not served. The use cases are
``volapi.volume.groups``'s and ``volapi.volume.group_sources``'s."""
import pecan
from oslo_utils import strutils

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import group_snapshots as source_schemas
from volapi.api.schemas import groups as schemas
from volapi.api.views import groups as views
from volapi.policies import groups as group_policies
from volapi.volume import group_sources
from volapi.volume import groups as group_api

SORT_KEYS = ('id', 'name', 'description', 'status', 'created_at',
             'updated_at', 'availability_zone', 'group_type_id')
FILTERS = ('name', 'status', 'availability_zone', 'group_type_id')


def _text(value):
    return value.strip() if value else value


class GroupController:

    def __init__(self, group_id):
        self.group_id = group_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        request = pecan.request
        common.require_version(request, mv.GROUP_VOLUME)
        context = request.ctx
        group = group_api.get(context, self.group_id)
        policy.authorizer(context, group_policies.GET)(group)
        volume_ids = None
        if request.api_version >= views.VOLUME_LIST and \
                common.boolean_param('list_volume',
                                     params.get('list_volume', 'false')):
            volume_ids = group.volume_ids()
        return {'group': views.detail(request, group, volume_ids)}

    @index.when(method='PUT')
    @rest.json(202)
    @validation.schema(schemas.update)
    def update(self, body):
        request = pecan.request
        common.require_version(request, mv.GROUP_VOLUME)
        context = request.ctx
        spec = body['group']
        group_api.update(
            context, self.group_id, name=_text(spec.get('name')),
            description=_text(spec.get('description')),
            add_volumes=spec.get('add_volumes'),
            remove_volumes=spec.get('remove_volumes'),
            version=request.api_version,
            authorize=policy.authorizer(context, group_policies.UPDATE))

    @pecan.expose()
    def action(self, **params):
        request = pecan.request
        if request.method != 'POST':
            raise errors.MethodNotAllowed()
        common.require_version(request, mv.GROUP_VOLUME)
        return common.run_action(_ACTIONS, self.group_id)


def _delete(context, group_id, argument, **call):
    group_api.delete(context, group_id,
                     delete_volumes=strutils.bool_from_string(
                         argument.get('delete-volumes', False)), **call)


def _reset_status(context, group_id, argument, **call):
    common.require_version(pecan.request, mv.GROUP_VOLUME_RESET_STATUS)
    group_api.reset_status(context, group_id, argument['status'], **call)


# action name -> (argument schema, policy, handler)
_ACTIONS = {
    'delete': (schemas.delete, group_policies.DELETE, _delete),
    'reset_status': (schemas.reset_status, group_policies.RESET_STATUS,
                     _reset_status),
}


class GroupsController(rest.Listing):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    def listed(self, detailed):
        request = pecan.request
        common.require_version(request, mv.GROUP_VOLUME)
        context = request.ctx
        policy.authorize(context, group_policies.GET_ALL,
                         {'project_id': context.project_id})
        params = dict(request.GET)
        params.pop('list_volume', None)
        all_tenants, query = common.filtered_listing(params, SORT_KEYS,
                                                     FILTERS)
        groups = group_api.get_all(context, all_projects=all_tenants,
                                   **query)
        return views.collection(request, groups, detailed, query['limit'])

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create)
    def create(self, body):
        request = pecan.request
        common.require_version(request, mv.GROUP_VOLUME)
        context = request.ctx
        policy.authorize(context, group_policies.CREATE,
                         {'project_id': context.project_id})
        spec = body['group']
        group = group_api.create(
            context, _text(spec.get('name')), _text(spec.get('description')),
            spec['group_type'], spec['volume_types'],
            availability_zone=spec.get('availability_zone'),
            version=request.api_version)
        return {'group': views.summary(group)}

    @pecan.expose()
    def action(self, **params):
        """POST /groups/action: {"create-from-src": {...}}."""
        request = pecan.request
        if request.method != 'POST':
            # Cinder routes only POST here: anything else looks for a
            # group named 'action'.
            raise errors.NotFound('Group action could not be found.')
        common.require_version(request, mv.GROUP_SNAPSHOTS)
        body = validation.parse_body(request)
        if not isinstance(body, dict) or 'create-from-src' not in body:
            names = sorted(body) if isinstance(body, dict) else []
            raise common.no_such_action(names[0] if names else '')
        validation.validate(source_schemas.create_from_src, body)
        context = request.ctx
        policy.authorize(context, group_policies.CREATE,
                         {'project_id': context.project_id})
        spec = body['create-from-src']
        group = group_sources.create_from_src(
            context, name=_text(spec.get('name')),
            description=_text(spec.get('description')),
            group_snapshot_id=spec.get('group_snapshot_id'),
            source_group_id=spec.get('source_group_id'),
            version=request.api_version)
        return rest.respond({'group': views.summary(group)}, 202)

    def member(self, group_id):
        return GroupController(group_id)
