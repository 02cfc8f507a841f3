"""/volumes/{volume_id}/metadata[/{key}].

Every metadata write is the ``update_metadata`` transition of the volume
(it must exist, be the caller's, and not be in 'maintenance', as in
Cinder) with the rows' change in the same transaction
(``volapi.volume.api``).
"""
import pecan

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volumes as schemas
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api


def _call(use_case, volume_id, rule, *args):
    """``use_case(context, volume_id, *args, authorize=...)`` with ``rule``
    checked on the volume."""
    context = pecan.request.ctx
    return use_case(context, volume_id, *args,
                    authorize=policy.authorizer(context, rule))


class MetadataItemController:

    def __init__(self, volume_id, key):
        self.volume_id, self.key = volume_id, key

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        metadata = _call(volume_api.get_metadata, self.volume_id,
                         volume_policies.METADATA_GET)
        if self.key not in metadata:
            raise errors.NotFound('Metadata item was not found')
        return {'meta': {self.key: metadata[self.key]}}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata_item)
    def update(self, body):
        meta = body['meta']
        if self.key not in meta:
            # Only once the caller may see and change the volume.
            _call(volume_api.get_metadata, self.volume_id,
                  volume_policies.METADATA_UPDATE)
            raise errors.BadRequest('Request body and URI mismatch')
        _call(volume_api.update_metadata, self.volume_id,
              volume_policies.METADATA_UPDATE, meta)
        return {'meta': meta}

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self):
        if not _call(volume_api.delete_metadata, self.volume_id,
                     volume_policies.METADATA_DELETE, self.key):
            raise errors.NotFound('Metadata item was not found')


class MetadataController(rest.Collection):

    def __init__(self, volume_id):
        self.volume_id = volume_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return {'metadata': _call(volume_api.get_metadata, self.volume_id,
                                  volume_policies.METADATA_GET)}

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def create(self, body):
        _call(volume_api.update_metadata, self.volume_id,
              volume_policies.METADATA_UPDATE, body['metadata'])
        return {'metadata': _call(volume_api.get_metadata, self.volume_id,
                                  volume_policies.METADATA_UPDATE)}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def update_all(self, body):
        _call(volume_api.replace_metadata, self.volume_id,
              volume_policies.METADATA_UPDATE, body['metadata'])
        return {'metadata': body['metadata']}

    def member(self, key):
        return MetadataItemController(self.volume_id, key)
