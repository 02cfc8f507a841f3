"""/v3/{project_id}/group_types (3.11+): list and show (everyone; private
types to administrators only), create, update and delete (administrators).

A name is unique among live group types by a unique constraint (409 for
two creates of one name); delete is one compare-and-swap that also
requires no live group to have the type (objects.group_type)."""
import pecan

from objects import group_type as group_type_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import groups as schemas
from volapi.api.v3 import group_specs
from volapi.api.views import groups as views
from volapi.policies import groups as group_policies

SORT_KEYS = ('id', 'name', 'description', 'is_public', 'created_at',
             'updated_at')


def _get(context, ident):
    if ident == 'default':
        # volapi has no default group type (Cinder's default_group_type
        # option, unset by default).
        raise errors.NotFound('Default group type not found.')
    try:
        return group_type_obj.GroupType.get(
            context, ident, include_private=context.is_admin)
    except group_type_obj.GroupTypeNotFound:
        raise errors.NotFound('Group type %s could not be found.'
                              % ident) from None


class GroupTypeController:

    def __init__(self, ident):
        self.ident = ident
        self.group_specs = group_specs.GroupSpecsController(self._load)

    def _load(self, context):
        return _get(context, self.ident)

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        request = pecan.request
        common.require_version(request, mv.GROUP_TYPE)
        return {'group_type': views.group_type(
            request, _get(request.ctx, self.ident))}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.type_update)
    def update(self, body):
        request = pecan.request
        common.require_version(request, mv.GROUP_TYPE)
        context = request.ctx
        policy.authorize(context, group_policies.TYPE_UPDATE)
        changes = body['group_type']
        name = changes.get('name')
        description = changes.get('description')
        is_public = changes.get('is_public')
        if name is not None:
            name = name.strip()
            if not name:
                raise errors.BadRequest('Group type name can not be empty.')
        if name is None and description is None and is_public is None:
            raise errors.BadRequest('Specify group type name, description or '
                                    'a combination thereof.')
        kind = _get(context, self.ident)
        try:
            kind.update(name=name, description=description,
                        is_public=None if is_public is None
                        else common.boolean_field(is_public, 'is_public'))
        except group_type_obj.GroupTypeExists as e:
            raise errors.Conflict(str(e)) from None
        return {'group_type': views.group_type(request,
                                               _get(context, kind.id))}

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        request = pecan.request
        common.require_version(request, mv.GROUP_TYPE)
        context = request.ctx
        policy.authorize(context, group_policies.TYPE_DELETE)
        try:
            _get(context, self.ident).destroy()
        except group_type_obj.GroupTypeInUse:
            raise errors.BadRequest(
                'Target group type is still in use.') from None


class GroupTypesController(rest.Collection):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        request = pecan.request
        common.require_version(request, mv.GROUP_TYPE)
        context = request.ctx
        params = request.GET
        limit, marker, offset = common.pagination_params(params)
        keys, dirs = common.sort_params(params, 'created_at', 'asc')
        for key in keys:
            if key not in SORT_KEYS:
                raise common.invalid_sort_key(key)
        kinds = group_type_obj.GroupType.get_all(
            context, include_private=context.is_admin, limit=limit,
            marker=marker, sort_keys=keys, sort_dirs=dirs, offset=offset)
        return views.group_types(request, kinds)

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.type_create)
    def create(self, body):
        request = pecan.request
        common.require_version(request, mv.GROUP_TYPE)
        context = request.ctx
        policy.authorize(context, group_policies.TYPE_CREATE)
        spec = body['group_type']
        name = common.type_name(spec)
        description = spec.get('description')
        kind = group_type_obj.GroupType(
            context, name=name,
            description=description.strip() if description else description,
            is_public=common.boolean_field(spec.get('is_public', True),
                                           'is_public'),
            group_specs=spec.get('group_specs') or {})
        try:
            kind.create()
        except group_type_obj.GroupTypeExists as e:
            raise errors.Conflict(str(e)) from None
        return {'group_type': views.group_type(request, kind)}

    def member(self, ident):
        return GroupTypeController(ident)
