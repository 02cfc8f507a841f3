"""/v3/{project_id}/volumes: create, list, show, update, delete.

Create inserts the row ('creating') in one transaction with the guards that
keep its volume type, source snapshot or source volume from being deleted
meanwhile, then hands the volume to ``volapi.volume.api.created``, which casts to a worker. Delete is ``volapi.volume.api.delete``'s
compare-and-swap.
"""
import uuid

import pecan
from oslo_utils import strutils

from db import api as db_api
from db import exceptions as db_exc
from db import models
from db import session
from objects import volume as volume_obj
from objects import volume_list
from objects import volume_type as type_obj
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import quota_errors
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volumes as schemas
from volapi.api.v3 import filters
from volapi.api.v3 import service_errors
from volapi.api.v3 import volume_metadata
from volapi.api.views import volumes as views
from volapi import conf as volapi_conf
from volapi.policies import volumes as volume_policies
from volapi.volume import api as volume_api
from volapi.volume import placement_create
from volapi.volume.transitions import engine

CONF = volapi_conf.CONF




def _show(volume):
    attachments = volume_list.load_details(volume._context, [volume])
    return views.show(pecan.request, volume, attachments.get(volume.id, ()))


def _show_by_id(context, volume_id, action=volume_policies.GET):
    """Read the volume and what its view needs in one transaction."""
    with session.reader.connection.using(context):
        volume = volume_list.get(context, volume_id)
        policy.authorize(context, action, {'project_id': volume.project_id})
        return _show(volume)


class VolumeController:
    """/volumes/{volume_id} and what hangs below it."""

    def __init__(self, volume_id):
        self.volume_id = volume_id
        self.metadata = volume_metadata.MetadataController(volume_id)

    @pecan.expose(generic=True)
    def index(self, *args, **kwargs):
        raise errors.MethodNotAllowed()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        return _show_by_id(pecan.request.ctx, self.volume_id)

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.update_v353,
                       min_version=mv.SUPPORT_VOLUME_SCHEMA_CHANGES)
    @validation.schema(schemas.update, max_version=(3, 52))
    def update(self, body):
        context = pecan.request.ctx
        volume = volume_list.get(context, self.volume_id)
        policy.authorize(context, volume_policies.UPDATE,
                         {'project_id': volume.project_id})
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
        metadata = changes.get('metadata')
        if metadata is not None:
            # One compare-and-swap for both, so a refused metadata change
            # (e.g. in 'maintenance') leaves the name unchanged too.
            volume_metadata.replace(context, volume, metadata, values)
        elif values:
            # Name and description are free for any status; the only
            # condition is that the volume is still there.
            volume.conditional_update_or_raise(values, expected_values={})
        return _show_by_id(context, self.volume_id, volume_policies.UPDATE)

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self, **params):
        context = pecan.request.ctx
        volume = volume_list.get(context, self.volume_id)
        policy.authorize(context, volume_policies.DELETE,
                         {'project_id': volume.project_id})
        version = pecan.request.api_version
        force = version >= mv.VOLUME_DELETE_FORCE and \
            _boolean_param(params, 'force')
        if force:
            policy.authorize(context, volume_policies.FORCE_DELETE,
                             {'project_id': volume.project_id})
        with service_errors.translated():
            volume_api.delete(
                context, volume, cascade=_boolean_param(params, 'cascade'),
                force=force, version=version)

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


class VolumesController:
    """/volumes, /volumes/detail and /volumes/{volume_id}."""

    @pecan.expose(generic=True)
    def index(self, *args, **kwargs):
        raise errors.MethodNotAllowed()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self):
        return _list(detailed=False)

    @pecan.expose()
    @rest.json(200)
    def detail(self):
        if pecan.request.method != 'GET':
            raise errors.MethodNotAllowed()
        return _list(detailed=True)

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
    @validation.schema(schemas.create, max_version=(3, 52))
    def create(self, body):
        context = pecan.request.ctx
        policy.authorize(context, volume_policies.CREATE)
        volume = _new_volume(context, body['volume'])
        with service_errors.translated():
            volume_api.created(context, volume)
        # Everything the view shows was just written: no need to read it.
        return views.show(pecan.request, volume)

    @pecan.expose()
    def _lookup(self, volume_id, *remainder):
        return VolumeController(volume_id), remainder


def _list(detailed):
    request = pecan.request
    context = request.ctx
    policy.authorize(context, volume_policies.GET_ALL)
    query = filters.VolumeQuery(request)
    with session.reader.connection.using(context):
        return _read_list(request, context, query, detailed)


def _read_list(request, context, query, detailed):
    volumes = volume_list.get_all(
        context, project_id=query.project_id, filters=query.filters,
        limit=query.limit, marker=query.marker, sort_keys=query.sort_keys,
        sort_dirs=query.sort_dirs, offset=query.offset) \
        if query.filters is not None else []
    attachments = volume_list.load_details(context, volumes) \
        if detailed else None
    count = None
    if query.with_count:
        count = volume_list.count(context, query.project_id,
                                  query.filters) \
            if query.filters is not None else 0
    return views.collection(request, volumes, attachments, detailed,
                            query.limit, count)


# -- create -------------------------------------------------------------------

def _text(spec, key, legacy_key):
    value = spec.get(key, spec.get(legacy_key))
    return value.strip() if isinstance(value, str) else value


def _volume_type(context, spec, source_type_id):
    wanted = spec.get('volume_type')
    if wanted:
        try:
            return type_obj.VolumeType.get(
                context, wanted, include_private=context.is_admin)
        except db_exc.NotFound:
            raise errors.NotFound(
                'Volume type with name %s could not be found.' % wanted
            ) from None
    if source_type_id:
        try:
            return type_obj.VolumeType.get(context, source_type_id)
        except db_exc.NotFound:
            pass
    default = CONF.api.default_volume_type
    if default and default != type_obj.DEFAULT_TYPE_NAME:
        try:
            return type_obj.VolumeType.get(context, default)
        except db_exc.NotFound:
            pass
    return type_obj.VolumeType.get_default(context)


def _size(spec, source_size, what):
    size = spec.get('size')
    if size is None:
        if source_size is None:
            raise errors.BadRequest(
                'Invalid input received: Invalid volume size provided for '
                'create request: None (size argument must be an integer '
                '(or string representation of an integer) and greater than '
                'zero).')
        return source_size
    size = int(size)
    if source_size is not None and size < source_size:
        raise errors.BadRequest(
            'Invalid input received: Volume size %(size)sGB cannot be '
            'smaller than the %(what)s size %(source)sGB. They must be >= '
            'original %(what)s size.' % {'size': size, 'what': what,
                                          'source': source_size})
    return size


def _source(context, model, ident, what):
    """Row of a source snapshot or volume the caller may read, or 404."""
    row = db_api.read_columns(context, model, ident,
                              ['project_id', 'deleted', 'volume_type_id',
                               'volume_size' if model is models.Snapshot
                               else 'size'])
    if row is None or row['deleted'] or (
            not context.is_admin and row['project_id'] != context.project_id):
        raise errors.NotFound('%s %s could not be found.' % (what, ident))
    return row


def _guard(context, model, ident, expected_status):
    """A compare-and-swap that writes nothing new but fails unless the
    source still has ``expected_status``: run in the insert's transaction,
    it conflicts with a concurrent delete of the source."""
    def guard():
        db_api.update_or_explain(
            context, model, ident, {'status': model.status},
            {'status': expected_status}, project_only=True)
    return guard


def _new_volume(context, spec):
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
    for key, what in (('backup_id', 'Backup'),
                      ('consistencygroup_id', 'ConsistencyGroup'),
                      ('group_id', 'Group')):
        if spec.get(key):
            raise errors.NotFound('%s %s could not be found.'
                                  % (what, spec[key]))
    zone = spec.get('availability_zone') or \
        CONF.api.storage_availability_zone
    if zone != CONF.api.storage_availability_zone:
        raise errors.BadRequest(
            "Invalid input received: Availability zone '%s' is invalid."
            % zone)
    guards = []
    source_size = source_type_id = None
    snapshot_id, source_volid = spec.get('snapshot_id'), \
        spec.get('source_volid')
    if snapshot_id and source_volid:
        raise errors.BadRequest(
            'Invalid input received: only one of snapshot_id and '
            'source_volid may be given.')
    if snapshot_id:
        row = _source(context, models.Snapshot, snapshot_id, 'Snapshot')
        source_size, source_type_id = row['volume_size'], \
            row['volume_type_id']
        guards.append(_guard(context, models.Snapshot, snapshot_id,
                             'available'))
        what = 'snapshot'
    elif source_volid:
        row = _source(context, models.Volume, source_volid, 'Volume')
        source_size, source_type_id = row['size'], row['volume_type_id']
        guards.append(_guard(context, models.Volume, source_volid,
                             ('available', 'in-use')))
        what = 'volume'
    else:
        what = 'volume'
    size = _size(spec, source_size, what)
    volume_type = _volume_type(context, spec, source_type_id)
    guards.insert(0, volume_type.guard_in_use)
    multiattach = type_obj.is_multiattach(volume_type.extra_specs)
    volume_id = str(uuid.uuid4())
    volume = volume_obj.Volume(
        context, id=volume_id, user_id=context.user_id,
        project_id=context.project_id,
        size=size, availability_zone=zone, status='creating',
        attach_status='detached',
        display_name=_text(spec, 'name', 'display_name'),
        display_description=_text(spec, 'description',
                                  'display_description'),
        volume_type_id=volume_type.id, snapshot_id=snapshot_id,
        source_volid=source_volid, bootable=False, multiattach=multiattach,
        metadata=spec.get('metadata') or {}, deleted=False)

    def insert(claim, creating):
        # The workers row goes in with the volume row, so a crash between
        # the two can never leave a 'creating' volume that no cleanup
        # would find.
        track = [lambda: engine.track_worker(
            context, 'volume', volume_id, 'creating')] if creating else []
        volume.create([claim] + guards + track)

    try:
        placement_create.create(
            context, volume, volume_type.extra_specs, insert,
            source_host=placement_create.source_host(
                context, snapshot_id, source_volid))
    except placement_create.OverQuota as exc:
        raise quota_errors.over_limit(exc) from None
    volume.volume_type = volume_type
    return volume
