"""/volumes/{volume_id}/metadata[/{key}].

Every metadata write is one transaction that first compare-and-swaps the
volume (it must exist, be the caller's, and not be in 'maintenance', as in
Cinder) and then changes the rows; the volume's row lock serialises
concurrent writers of one volume's metadata.
"""
import pecan
import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import models
from db import session
from objects import volume_list
from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volumes as schemas
from volapi.policies import volumes as volume_policies

METADATA = models.VolumeMetadata.__table__


@db_api.retry_on_deadlock
def _write(context, volume_id, metadata=None, replace_all=False,
           delete_key=None, values=None):
    """Returns False only when ``delete_key`` was not there.

    ``values`` are more volume columns written by the same compare-and-swap,
    so that a refused write changes nothing at all."""
    with session.writer.connection.using(context) as conn:
        db_api.update_or_explain(
            context, models.Volume, volume_id,
            dict(values or {}, updated_at=timeutils.utcnow()),
            {'status': cond.Not('maintenance')}, project_only=True)
        mine = METADATA.c.volume_id == volume_id
        if delete_key is not None:
            return conn.execute(METADATA.delete().where(
                mine, METADATA.c.key == delete_key)).rowcount > 0
        if replace_all:
            conn.execute(METADATA.delete().where(
                mine, METADATA.c.key.not_in(list(metadata))))
        for key, value in metadata.items():
            updated = conn.execute(METADATA.update().where(
                mine, METADATA.c.key == key).values(value=value)).rowcount
            if not updated:
                conn.execute(METADATA.insert().values(
                    volume_id=volume_id, key=key, value=value))
        return True


def _read(context, volume_id):
    with session.reader.connection.using(context) as conn:
        return dict(conn.execute(sa.select(METADATA.c.key, METADATA.c.value)
                                 .where(METADATA.c.volume_id == volume_id))
                    .all())


def replace(context, volume, metadata, values=None):
    """Make ``metadata`` the volume's whole metadata (and set the volume
    columns ``values`` in the same compare-and-swap)."""
    _write(context, volume.id, metadata, replace_all=True, values=values)


def _volume(volume_id, action):
    context = pecan.request.ctx
    volume = volume_list.get(context, volume_id)
    policy.authorize(context, action, {'project_id': volume.project_id})
    return context, volume


class MetadataItemController:

    def __init__(self, volume_id, key):
        self.volume_id, self.key = volume_id, key

    def _volume(self, action):
        return _volume(self.volume_id, action)

    @pecan.expose(generic=True)
    def index(self, *args, **kwargs):
        raise errors.MethodNotAllowed()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        context, volume = self._volume(volume_policies.METADATA_GET)
        metadata = _read(context, volume.id)
        if self.key not in metadata:
            raise errors.NotFound('Metadata item was not found')
        return {'meta': {self.key: metadata[self.key]}}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata_item)
    def update(self, body):
        context, volume = self._volume(volume_policies.METADATA_UPDATE)
        meta = body['meta']
        if self.key not in meta:
            raise errors.BadRequest('Request body and URI mismatch')
        _write(context, volume.id, meta)
        return {'meta': meta}

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self):
        context, volume = self._volume(volume_policies.METADATA_DELETE)
        if not _write(context, volume.id, delete_key=self.key):
            raise errors.NotFound('Metadata item was not found')


class MetadataController:

    def __init__(self, volume_id):
        self.volume_id = volume_id

    def _volume(self, action):
        return _volume(self.volume_id, action)

    @pecan.expose(generic=True)
    def index(self, *args, **kwargs):
        raise errors.MethodNotAllowed()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context, volume = self._volume(volume_policies.METADATA_GET)
        return {'metadata': _read(context, volume.id)}

    @index.when(method='POST')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def create(self, body):
        context, volume = self._volume(volume_policies.METADATA_UPDATE)
        _write(context, volume.id, body['metadata'])
        return {'metadata': _read(context, volume.id)}

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.metadata)
    def update_all(self, body):
        context, volume = self._volume(volume_policies.METADATA_UPDATE)
        replace(context, volume, body['metadata'])
        return {'metadata': body['metadata']}

    @pecan.expose()
    def _lookup(self, key, *remainder):
        return MetadataItemController(self.volume_id, key), remainder
