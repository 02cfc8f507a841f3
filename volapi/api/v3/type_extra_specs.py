"""/types/{type_id}/extra_specs[/{key}] (Cinder's types_extra_specs).

Reads follow the type's visibility; writes are administrators' and run as
one transaction that compare-and-swaps the type (it must still be live)."""
import pecan

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import types as schemas
from volapi.policies import types as type_policies


class ExtraSpecController:

    def __init__(self, load_type, key):
        self.load_type, self.key = load_type, key

    def _missing(self, volume_type):
        return errors.NotFound(
            'Volume Type %s has no extra specs with key %s.'
            % (volume_type.id, self.key))

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.EXTRA_SPECS_SHOW)
        volume_type = self.load_type(context)
        if self.key not in volume_type.extra_specs:
            raise self._missing(volume_type)
        return {self.key: volume_type.extra_specs[self.key]}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.extra_spec_item)
    def update(self, body):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.EXTRA_SPECS_MANAGE)
        if self.key not in body:
            raise errors.BadRequest('Request body and URI mismatch')
        self.load_type(context).set_extra_specs(body)
        return body

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.EXTRA_SPECS_MANAGE)
        volume_type = self.load_type(context)
        if not volume_type.delete_extra_spec(self.key):
            raise self._missing(volume_type)


class ExtraSpecsController(rest.Collection):

    def __init__(self, load_type):
        # load_type(context) -> the VolumeType the URL names, or a 404.
        self.load_type = load_type

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.EXTRA_SPECS_INDEX)
        return {'extra_specs': self.load_type(context).extra_specs}

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.extra_specs)
    def create(self, body):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.EXTRA_SPECS_MANAGE)
        self.load_type(context).set_extra_specs(body['extra_specs'])
        return {'extra_specs': body['extra_specs']}

    def member(self, key):
        return ExtraSpecController(self.load_type, key)
