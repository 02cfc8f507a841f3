"""A private volume type's access list (Cinder's os-volume-type-access,
admin): ``GET /types/{id}/os-volume-type-access`` lists the projects that
may use it, ``POST /types/{id}/action`` with ``addProjectAccess`` or
``removeProjectAccess`` (``{"project": ...}``) changes it
(objects.type_access). Those projects see the type in their lists and
create volumes of it."""
import pecan

from objects import type_access
from volapi.api import common
from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import types as schemas
from volapi.policies import types as type_policies
from volapi import request_text


class AccessListController:

    def __init__(self, load_type):
        self.load_type = load_type

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.ACCESS_LIST)
        volume_type = self.load_type(context)
        if volume_type.is_public:
            raise errors.NotFound('Access list not available for public '
                                  'volume types.')
        return {'volume_type_access': [
            {'volume_type_id': volume_type.id, 'project_id': project}
            for project in type_access.projects(context, volume_type.id)]}


def _not_applicable(refusal, type_id):
    if refusal.public:
        return errors.BadRequest('Invalid volume type: Type access '
                                 'modification is not applicable to public '
                                 'volume type.')
    return errors.NotFound('Volume type %s could not be found.' % type_id)


def _change(context, change, volume_type, project):
    """``change`` (type_access.add or remove) with Cinder's answers to
    its refusals."""
    pair = '%s / %s' % (volume_type.id, request_text.excerpt(project))
    try:
        change(context, volume_type.id, project)
    except type_access.AccessExists:
        raise errors.Conflict('Volume type access for %s combination '
                              'already exists.' % pair) from None
    except type_access.AccessNotFound:
        raise errors.NotFound('Volume type access not found for %s '
                              'combination.' % pair) from None
    except type_access.AccessRefused as refusal:
        raise _not_applicable(refusal, volume_type.id) from None


ACTIONS = {'addProjectAccess': (type_policies.ACCESS_ADD, type_access.add),
           'removeProjectAccess': (type_policies.ACCESS_REMOVE,
                                   type_access.remove)}


def act(load_type):
    """POST /types/{id}/action: answers 202 with no body, as Cinder."""
    request = pecan.request
    name, argument = validation.parse_action(request)
    if name not in ACTIONS:
        raise common.no_such_action(name)
    rule, change = ACTIONS[name]
    context = request.ctx
    policy.authorize(context, rule)
    validation.validate(schemas.project_access, argument)
    _change(context, change, load_type(context), argument['project'])
    return rest.respond(None, 202)
