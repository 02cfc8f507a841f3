"""/volumes/{volume_id}/metadata[/{key}] and
/snapshots/{snapshot_id}/metadata[/{key}]: one controller, given the use
cases of its resource.

Every metadata write is one transaction: the resource's compare-and-swap
(it must exist and be the caller's; a volume not in 'maintenance', as in
Cinder) with the rows' change (``volapi.volume.api``,
``volapi.volume.snapshots``).
"""
import dataclasses
import typing

import pecan

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volumes as schemas
from volapi.policies import snapshots as snapshot_policies
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api
from volapi.volume import snapshots as snapshot_api


@dataclasses.dataclass(frozen=True)
class Owner:
    """The metadata use cases of one kind of resource, each
    ``(context, owner_id, ..., authorize=)``, and the rules they check."""
    get: typing.Callable
    update: typing.Callable
    replace: typing.Callable
    delete: typing.Callable
    get_rule: str
    update_rule: str
    delete_rule: str


VOLUME = Owner(volume_api.get_metadata, volume_api.update_metadata,
               volume_api.replace_metadata, volume_api.delete_metadata,
               volume_policies.METADATA_GET, volume_policies.METADATA_UPDATE,
               volume_policies.METADATA_DELETE)
SNAPSHOT = Owner(snapshot_api.get_metadata, snapshot_api.update_metadata,
                 snapshot_api.replace_metadata, snapshot_api.delete_metadata,
                 snapshot_policies.METADATA_GET,
                 snapshot_policies.METADATA_UPDATE,
                 snapshot_policies.METADATA_DELETE)


def _call(use_case, owner_id, rule, *args):
    """``use_case(context, owner_id, *args, authorize=...)`` with ``rule``
    checked on the resource."""
    context = pecan.request.ctx
    return use_case(context, owner_id, *args,
                    authorize=policy.authorizer(context, rule))


class MetadataItemController:

    def __init__(self, owner, owner_id, key):
        self.owner, self.owner_id, self.key = owner, owner_id, key

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        metadata = _call(self.owner.get, self.owner_id, self.owner.get_rule)
        if self.key not in metadata:
            raise errors.NotFound('Metadata item was not found')
        return {'meta': {self.key: metadata[self.key]}}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata_item)
    def update(self, body):
        meta = body['meta']
        if self.key not in meta:
            # Only once the caller may see and change the resource.
            _call(self.owner.get, self.owner_id, self.owner.update_rule)
            raise errors.BadRequest('Request body and URI mismatch')
        _call(self.owner.update, self.owner_id, self.owner.update_rule,
              meta)
        return {'meta': meta}

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self):
        if not _call(self.owner.delete, self.owner_id,
                     self.owner.delete_rule, self.key):
            raise errors.NotFound('Metadata item was not found')


class MetadataController(rest.Collection):

    def __init__(self, owner, owner_id):
        self.owner, self.owner_id = owner, owner_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return {'metadata': _call(self.owner.get, self.owner_id,
                                  self.owner.get_rule)}

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def create(self, body):
        _call(self.owner.update, self.owner_id, self.owner.update_rule,
              body['metadata'])
        return {'metadata': _call(self.owner.get, self.owner_id,
                                  self.owner.update_rule)}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def update_all(self, body):
        _call(self.owner.replace, self.owner_id, self.owner.update_rule,
              body['metadata'])
        return {'metadata': body['metadata']}

    def member(self, key):
        return MetadataItemController(self.owner, self.owner_id, key)
