"""/v3/{project_id}/types: list, show (by id, by name, or ``default``),
create and delete (administrators).

A type's name is unique among live types by a unique constraint, so two
concurrent creates of one name cannot both succeed (409). Delete is one
compare-and-swap that also requires that no live volume uses the type.
"""
import pecan

from objects import volume_type as type_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import types as schemas
from volapi.api.v3 import encryption
from volapi.api.v3 import type_access
from volapi.api.v3 import type_extra_specs
from volapi.api.views import types as views
from volapi import conf as volapi_conf
from volapi.policies import types as type_policies
from volapi import request_text
from volapi.volume import api as volume_api

CONF = volapi_conf.CONF
# The list's filters (is_public an admin's only, as in Cinder).
FILTERS = ('is_public', 'extra_specs')
SORT_KEYS = ('id', 'name', 'description', 'is_public', 'created_at',
             'updated_at')


def _get(context, ident):
    if ident == 'default':
        return volume_api.default_type(context)
    try:
        return type_obj.VolumeType.get(context, ident,
                                       include_private=context.is_admin)
    except type_obj.VolumeTypeNotFound:
        raise errors.NotFound('Volume type %s could not be found.'
                              % ident) from None


class TypeController:

    def __init__(self, ident):
        self.ident = ident
        self.extra_specs = type_extra_specs.ExtraSpecsController(self._load)
        self.encryption = encryption.TypeEncryptionController(self._load)
        # Cinder's name of the path is not an identifier.
        setattr(self, 'os-volume-type-access',
                type_access.AccessListController(self._load))

    def _load(self, context):
        return _get(context, self.ident)

    @pecan.expose()
    def action(self):
        return type_access.act(self._load)

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        request = pecan.request
        return views.show(request, _get(request.ctx, self.ident))

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.update)
    def update(self, body):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.MANAGE)
        changes = body['volume_type']
        name = changes.get('name')
        description = changes.get('description')
        is_public = changes.get('is_public')
        if name is None and description is None and is_public is None:
            raise errors.BadRequest('Specify volume type name, description, '
                                    'is_public or a combination thereof.')
        if name is not None:
            name = name.strip()
            if not name:
                raise errors.BadRequest('Volume type name can not be empty.')
        volume_type = _get(context, self.ident)
        try:
            volume_type.update(
                name=name, description=description,
                is_public=None if is_public is None
                else common.boolean_field(is_public, 'is_public'))
        except type_obj.VolumeTypeExists as e:
            raise errors.Conflict(str(e)) from None
        return views.show(pecan.request, _get(context, volume_type.id))

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.MANAGE)
        volume_type = _get(context, self.ident)
        default = errors.BadRequest('Default volume type can not be '
                                    'deleted.')
        if volume_type.id == type_obj.DEFAULT_TYPE_ID:
            raise default
        try:
            # The configured default's name is checked by the delete's
            # compare-and-swap: a rename may give it to this type.
            volume_type.destroy(default_name=CONF.api.default_volume_type)
        except type_obj.DefaultVolumeType:
            raise default from None
        except type_obj.VolumeTypeInUse:
            raise errors.BadRequest(
                'Volume Type %s deletion is not allowed with volumes '
                'present with the type.' % volume_type.id) from None
        except type_obj.VolumeTypeIsDefault:
            raise errors.BadRequest(
                'The volume type %s is a default volume type and cannot be '
                'deleted.' % volume_type.id) from None


class TypesController(rest.Collection):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        request = pecan.request
        context = request.ctx
        params = request.GET
        limit, marker, offset = common.pagination_params(params)
        keys, dirs = common.sort_params(params, 'created_at', 'asc')
        for key in keys:
            if key not in SORT_KEYS:
                raise common.invalid_sort_key(key)
        is_public = None
        if context.is_admin and params.get('is_public') not in (None,
                                                                'None'):
            is_public = common.boolean_field(params['is_public'], 'is_public')
        extra_specs = None
        if 'extra_specs' in params and request.api_version >= \
                mv.VOLUME_TYPE_EXTRA_SPECS_FILTER:
            extra_specs = _extra_specs_filter(params['extra_specs'])
        volume_types = type_obj.VolumeType.get_all(
            context, include_private=context.is_admin, is_public=is_public,
            limit=limit, marker=marker, sort_keys=keys, sort_dirs=dirs,
            offset=offset, extra_specs=extra_specs)
        return views.collection(request, volume_types)

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.create)
    def create(self, body):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, type_policies.MANAGE)
        spec = body['volume_type']
        name = common.type_name(spec)
        description = spec.get('description')
        is_public = common.boolean_field(
            spec.get('os-volume-type-access:is_public', True), 'is_public')
        volume_type = type_obj.VolumeType(
            context, name=name,
            description=description.strip() if description else description,
            is_public=is_public, extra_specs=spec.get('extra_specs') or {})
        try:
            volume_type.create()
        except type_obj.VolumeTypeExists as e:
            raise errors.Conflict(str(e)) from None
        return views.show(request, volume_type)

    def member(self, ident):
        return TypeController(ident)


def _extra_specs_filter(value):
    specs = request_text.python_literal(value)
    if not isinstance(specs, dict):
        raise errors.BadRequest('Invalid input received: extra_specs=%s '
                                '(must be a dict)'
                                % request_text.excerpt(value))
    try:
        specs = {str(k): str(v) for k, v in specs.items()}
    except ValueError:
        # str() refuses integers of thousands of digits (0xfff...).
        raise errors.BadRequest('Invalid input received: extra_specs=%s '
                                '(a number too long to compare)'
                                % request_text.excerpt(value)) from None
    problem = request_text.unstorable_message(specs)
    if problem:
        raise errors.BadRequest('Invalid input received: extra_specs: %s'
                                % problem)
    return specs
