"""/group_types/{id}/group_specs[/{key}] (3.11+, administrators, as in
Cinder). Writes run as one transaction that compare-and-swaps the type
(it must still be live)."""
import pecan

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import groups as schemas
from volapi.policies import groups as group_policies


class GroupSpecController:

    def __init__(self, load_type, key):
        self.load_type, self.key = load_type, key

    def _missing(self, kind):
        return errors.NotFound('Group Type %s has no extra spec with key %s.'
                               % (kind.id, self.key))

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        context = _allowed(group_policies.SPEC_GET)
        kind = self.load_type(context)
        if self.key not in kind.group_specs:
            raise self._missing(kind)
        return {self.key: kind.group_specs[self.key]}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.spec_update)
    def update(self, body):
        context = _allowed(group_policies.SPEC_UPDATE)
        if self.key not in body:
            raise errors.BadRequest('Request body and URI mismatch')
        self.load_type(context).set_specs(body)
        return body

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        context = _allowed(group_policies.SPEC_DELETE)
        kind = self.load_type(context)
        if not kind.delete_spec(self.key):
            raise self._missing(kind)


class GroupSpecsController(rest.Collection):

    def __init__(self, load_type):
        # load_type(context) -> the GroupType the URL names, or a 404.
        self.load_type = load_type

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context = _allowed(group_policies.SPEC_GET_ALL)
        return {'group_specs': self.load_type(context).group_specs}

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.specs_create)
    def create(self, body):
        context = _allowed(group_policies.SPEC_CREATE)
        self.load_type(context).set_specs(body['group_specs'])
        return body

    def member(self, key):
        return GroupSpecController(self.load_type, key)


def _allowed(rule):
    request = pecan.request
    common.require_version(request, mv.GROUP_TYPE)
    policy.authorize(request.ctx, rule)
    return request.ctx
