"""Encryption, as a Cinder without encrypted volume types answers it:
volapi has no key manager, so no type is encrypted and no volume either.

- ``GET /types/{type_id}/encryption`` is ``{}`` (Cinder's answer for a
  type without encryption; Horizon asks it of every type it lists), and
  one of its specs is Cinder's 404;
- making a type encrypted (``POST``) is a 400 that says why; changing or
  deleting its specs is Cinder's 404 (there are none);
- ``GET /volumes/{volume_id}/encryption`` is the metadata of an
  unencrypted volume, ``{"encryption_key_id": null}``.
"""
import pecan

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.policies import types as type_policies
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api

NO_KEY_MANAGER = ('volapi has no key manager: volume types cannot be '
                  'encrypted.')


def _not_found(volume_type):
    return errors.NotFound('Volume type encryption for type %s does not '
                           'exist.' % volume_type.id)


class TypeEncryptionSpecController:

    def __init__(self, load_type):
        self.load_type = load_type

    def _refuse(self, rule):
        context = pecan.request.ctx
        policy.authorize(context, rule)
        raise _not_found(self.load_type(context))

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        self._refuse(type_policies.ENCRYPTION_GET)

    @index.when(method='PUT')
    @rest.json(200)
    def update(self):
        self._refuse(type_policies.ENCRYPTION_UPDATE)

    @index.when(method='DELETE')
    @rest.json(200)
    def delete(self):
        self._refuse(type_policies.ENCRYPTION_DELETE)


class TypeEncryptionController(rest.Collection):

    def __init__(self, load_type):
        self.load_type = load_type

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.ENCRYPTION_GET)
        self.load_type(context)
        return {}

    @index.when(method='POST')
    @rest.json(200)
    def create(self):
        context = pecan.request.ctx
        policy.authorize(context, type_policies.ENCRYPTION_CREATE)
        self.load_type(context)
        raise errors.BadRequest(NO_KEY_MANAGER)

    def member(self, spec):
        return TypeEncryptionSpecController(self.load_type)


class VolumeEncryptionKeyController:

    def __init__(self, volume_id, key):
        self.volume_id, self.key = volume_id, key

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        metadata = _volume_metadata(self.volume_id)
        if self.key not in metadata:
            raise errors.NotFound('Volume %s has no encryption metadata '
                                  '%s.' % (self.volume_id, self.key))
        return metadata[self.key]


class VolumeEncryptionController(rest.Collection):

    def __init__(self, volume_id):
        self.volume_id = volume_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return _volume_metadata(self.volume_id)

    def member(self, key):
        return VolumeEncryptionKeyController(self.volume_id, key)


def _volume_metadata(volume_id):
    context = pecan.request.ctx
    volume = volume_api.get_volume(context, volume_id)
    policy.authorizer(context, volume_policies.ENCRYPTION_METADATA)(volume)
    return {'encryption_key_id': None}
