"""/v3/[{project_id}/]default-types (3.62): a project's own default volume
type, which its volumes created without a type get (see
volapi.volume.api.default_type); stored by objects.default_type.

Cinder first asks Keystone whether the project exists (a 404 if not);
volapi does not talk to Keystone, so any project id is taken.
"""
import pecan
from oslo_utils import uuidutils

from objects import default_type
from objects import volume_type as type_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import parameter_types as types
from volapi.api.views import default_types as views
from volapi.policies import default_types as policies

# Cinder's schema: other top-level keys are ignored.
SET_BODY = {
    'type': 'object',
    'properties': {'default_type': {
        'type': 'object',
        'properties': {'volume_type': types.name},
        'required': ['volume_type'],
        'additionalProperties': False}},
    'required': ['default_type'],
}


def _authorized(rule, project_id):
    """The caller's context once the version and ``rule`` on
    ``project_id`` allow the request (Cinder's 404, then its 403)."""
    request = pecan.request
    common.require_version(request, mv.DEFAULT_TYPE_OVERRIDES)
    context = request.ctx
    if not policy.authorize(context, rule, {'project_id': project_id},
                            do_raise=False):
        raise errors.Forbidden('You are not authorized to perform this '
                               'operation.')
    return context


def _type_not_found(ident):
    """Cinder's 400 for a type that is not (or no longer) there."""
    if uuidutils.is_uuid_like(ident):
        return errors.BadRequest('Volume type %s could not be found.'
                                 % ident)
    return errors.BadRequest('Volume type with name %s could not be found.'
                             % ident)


class DefaultTypeController:
    """/default-types/{project_id}"""

    def __init__(self, project_id):
        self.project_id = project_id

    index = rest.by_method()

    @index.when(method='PUT')
    @rest.json(200)
    def set(self):
        common.require_version(pecan.request, mv.DEFAULT_TYPE_OVERRIDES)
        return self._set()

    @validation.schema(SET_BODY)
    def _set(self, body):
        context = _authorized(policies.SET, self.project_id)
        common.storable_name('project_id', self.project_id)
        wanted = body['default_type']['volume_type']
        try:
            volume_type = type_obj.VolumeType.get(
                context, wanted, include_private=context.is_admin)
            return views.show(default_type.set_type(
                context, self.project_id, volume_type.id))
        except type_obj.VolumeTypeNotFound:
            raise _type_not_found(wanted) from None

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        context = _authorized(policies.GET, self.project_id)
        default = default_type.get(context, self.project_id)
        if default is None:
            raise errors.NotFound('Default type for project %s not found.'
                                  % self.project_id)
        return views.show(default)

    @index.when(method='DELETE')
    @rest.json(204)
    def unset(self):
        context = _authorized(policies.UNSET, self.project_id)
        default_type.unset(context, self.project_id)


class DefaultTypesController(rest.Collection):
    """/default-types"""

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context = _authorized(policies.GET_ALL, pecan.request.ctx.project_id)
        return views.collection(default_type.get_all(context))

    def member(self, project_id):
        return DefaultTypeController(project_id)
