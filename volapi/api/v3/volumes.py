"""/v3/{project_id}/volumes: create, list, show, update, delete.

Parses the request, checks the policy and renders the answer; the use
cases are ``volapi.volume.api``'s (update, delete ...) and
``volapi.volume.create``'s.
"""
import pecan
from oslo_utils import strutils

from objects import volume_list
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volumes as schemas
from volapi.api.v3 import encryption
from volapi.api.v3 import filters
from volapi.api.v3 import metadata
from volapi.api.views import volumes as views
from volapi import conf as volapi_conf
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api
from volapi.volume import create as volume_create

CONF = volapi_conf.CONF


def _show_by_id(context, volume_id, rule=volume_policies.GET):
    volume, attachments = volume_api.get_volume_details(
        context, volume_id, policy.authorizer(context, rule))
    return views.show(pecan.request, volume, attachments)


class VolumeController:
    """/volumes/{volume_id} and what hangs below it."""

    def __init__(self, volume_id):
        self.volume_id = volume_id
        self.metadata = metadata.MetadataController(metadata.VOLUME,
                                                    volume_id)
        self.encryption = encryption.VolumeEncryptionController(volume_id)

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        return _show_by_id(pecan.request.ctx, self.volume_id)

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.update_v353,
                       min_version=mv.SUPPORT_VOLUME_SCHEMA_CHANGES)
    @validation.schema(schemas.update,
                       max_version=mv.prior(mv.SUPPORT_VOLUME_SCHEMA_CHANGES))
    def update(self, body):
        context = pecan.request.ctx
        changes = body['volume']
        values = {}
        for field, column in (('display_name', 'display_name'),
                              ('name', 'display_name'),
                              ('display_description', 'display_description'),
                              ('description', 'display_description')):
            if field in changes:
                value = changes[field]
                values[column] = value.strip() if isinstance(value, str) \
                    else value
        volume_api.update(context, self.volume_id, values,
                          changes.get('metadata'),
                          policy.authorizer(context, volume_policies.UPDATE))
        return _show_by_id(context, self.volume_id, volume_policies.UPDATE)

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self, **params):
        context = pecan.request.ctx
        version = pecan.request.api_version
        force = version >= mv.VOLUME_DELETE_FORCE and \
            _boolean_param(params, 'force')
        cascade = _boolean_param(params, 'cascade')

        rules = (volume_policies.DELETE,) + (
            (volume_policies.FORCE_DELETE,) if force else ())
        volume_api.delete(context, self.volume_id, cascade=cascade,
                          force=force, version=version,
                          authorize=policy.authorizer(context, *rules))

    @pecan.expose()
    def action(self):
        from volapi.api.v3 import volume_actions
        request = pecan.request
        name, argument = validation.parse_action(request)
        return volume_actions.dispatch(request, request.ctx, self.volume_id,
                                       name, argument)


def _boolean_param(params, name):
    value = params.get(name)
    if value is None:
        return False
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise errors.BadRequest(
            "Invalid value '%s' for %s: must be a boolean." % (value, name)
        ) from None


class VolumesController(rest.Listing):
    """/volumes, /volumes/detail and /volumes/{volume_id}."""

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return self.listed(detailed=False)

    @staticmethod
    def listed(detailed):
        return _list(detailed)

    @pecan.expose()
    @rest.json(200)
    def summary(self):
        request = pecan.request
        if request.api_version < mv.VOLUME_SUMMARY:
            raise errors.NotFound()
        if request.method != 'GET':
            raise errors.MethodNotAllowed()
        context = request.ctx
        policy.authorize(context, volume_policies.GET_ALL)
        query = filters.VolumeQuery(request)
        count, size, metadata = volume_list.summary(
            context, query.project_id, query.filters) \
            if query.filters is not None else (0, 0, {})
        return views.summary_view(
            count, size,
            metadata if request.api_version >= mv.VOLUME_SUMMARY_METADATA
            else None)

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create_v353,
                       min_version=mv.SUPPORT_VOLUME_SCHEMA_CHANGES)
    @validation.schema(schemas.create,
                       max_version=mv.prior(mv.SUPPORT_VOLUME_SCHEMA_CHANGES))
    def create(self, body):
        context = pecan.request.ctx
        policy.authorize(context, volume_policies.CREATE)
        spec = body['volume']
        _refuse_unsupported(spec)
        volume = volume_create.create(
            context, size=spec.get('size'),
            name=_text(spec, 'name', 'display_name'),
            description=_text(spec, 'description', 'display_description'),
            volume_type=spec.get('volume_type'),
            snapshot_id=spec.get('snapshot_id'),
            source_volid=spec.get('source_volid'),
            backup_id=spec.get('backup_id'),
            availability_zone=spec.get('availability_zone'),
            metadata=spec.get('metadata'),
            version=pecan.request.api_version,
            group_id=spec.get('group_id'))
        # Everything the view shows was just written: no need to read it.
        return views.show(pecan.request, volume)

    def member(self, volume_id):
        return VolumeController(volume_id)


def _list(detailed):
    request = pecan.request
    context = request.ctx
    policy.authorize(context, volume_policies.GET_ALL)
    query = filters.VolumeQuery(request)
    if query.filters is None:  # filters no volume can match
        page = volume_api.Page([], {}, {}, 0 if query.with_count else None)
    else:
        page = volume_api.get_all(
            context, detailed=detailed, with_count=query.with_count,
            project_id=query.project_id, filters=query.filters,
            limit=query.limit, marker=query.marker,
            sort_keys=query.sort_keys, sort_dirs=query.sort_dirs,
            offset=query.offset)
    return views.collection(request, page, detailed, query.limit)


# -- create -------------------------------------------------------------------

def _text(spec, key, legacy_key):
    value = spec.get(key, spec.get(legacy_key))
    return value.strip() if isinstance(value, str) else value


def _refuse_unsupported(spec):
    """What Cinder's API takes but this service does not have."""
    if spec.get('multiattach') and strutils.bool_from_string(
            spec['multiattach']):
        raise errors.BadRequest(
            'multiattach parameter has been removed. The default behavior '
            'is to use multiattach enabled volume types. Contact your '
            'administrator to create a multiattach enabled volume type and '
            'use it to create multiattach volumes.')
    if spec.get('imageRef') or spec.get('image_id'):
        raise errors.BadRequest('Invalid input received: creating a volume '
                                'from an image is not supported.')
    if spec.get('consistencygroup_id'):
        raise errors.NotFound('ConsistencyGroup %s could not be found.'
                              % spec['consistencygroup_id'])
