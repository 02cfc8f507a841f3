"""/v3/[{project_id}/]backups: create, list, show, update (3.9), delete,
restore, and the admin actions os-reset_status and os-force_delete.

Each is a use case of volapi.volume.backups: one transaction of
compare-and-swaps (the backup's, its volume's) with the quota claim or
release that goes with it, then a cast to a worker of the volume's
backend.
"""
import pecan
from oslo_utils import strutils

from volapi import request_text
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import backups as schemas
from volapi.api.views import backups as views
from volapi.policies import backup_actions as action_policies
from volapi.policies import backups as policies
from volapi.volume import backup_records
from volapi.volume import backups as backup_api
import objects

# Query parameter -> column, for filters (Cinder's for a backup list) and
# sort keys ('name' from 3.37).
FILTERS = {'status': 'status', 'volume_id': 'volume_id',
           'name': 'display_name'}
SORT_KEYS = {'id': 'id', 'status': 'status', 'size': 'size',
             'volume_id': 'volume_id', 'created_at': 'created_at',
             'updated_at': 'updated_at', 'display_name': 'display_name',
             'availability_zone': 'availability_zone',
             'container': 'container'}


def _text(spec, key):
    value = spec.get(key)
    return value.strip() if isinstance(value, str) else value


def _flag(spec, key):
    value = spec.get(key)
    return value is not None and strutils.bool_from_string(value,
                                                           strict=True)


def _attributes_shown(context):
    return policy.authorize(context, policies.ATTRIBUTES, do_raise=False)


def _show(context, backup):
    metadata = objects.Backup.metadata_of(context, [backup.id])
    return views.show(pecan.request, backup, metadata[backup.id],
                      _attributes_shown(context))


class BackupController:
    """/backups/{backup_id}"""

    def __init__(self, backup_id):
        self.backup_id = backup_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        context = pecan.request.ctx
        backup = backup_api.get(context, self.backup_id)
        policy.authorizer(context, policies.GET)(backup)
        return _show(context, backup)

    @index.when(method='PUT')
    @rest.json(200)
    def update(self, **params):
        common.require_version(pecan.request, mv.BACKUP_UPDATE)
        return self._update()

    @validation.schema(schemas.update_v343, min_version=mv.BACKUP_METADATA)
    @validation.schema(schemas.update,
                       max_version=mv.prior(mv.BACKUP_METADATA))
    def _update(self, body):
        context = pecan.request.ctx
        spec = body['backup'] or {}
        values = {}
        if 'name' in spec:
            values['display_name'] = _text(spec, 'name')
        if 'description' in spec:
            values['display_description'] = _text(spec, 'description')
        backup = backup_api.update(
            context, self.backup_id, values, spec.get('metadata'),
            policy.authorizer(context, policies.UPDATE))
        return {'backup': views.summary(pecan.request, backup)}

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self, **params):
        context = pecan.request.ctx
        backup_api.delete(context, self.backup_id,
                          version=pecan.request.api_version,
                          authorize=policy.authorizer(context, policies.DELETE))

    @pecan.expose()
    def restore(self):
        """POST /backups/{id}/restore (any other method: 405)."""
        if pecan.request.method != 'POST':
            raise errors.MethodNotAllowed()
        return self._restore()

    @rest.json(202)
    @validation.schema(schemas.restore)
    def _restore(self, body):
        context = pecan.request.ctx
        spec = body['restore'] or {}
        restored = backup_api.restore(
            context, self.backup_id, volume_id=spec.get('volume_id'),
            name=spec.get('name'), version=pecan.request.api_version,
            authorize=policy.authorizer(context, policies.RESTORE))
        return views.restored(restored)

    export_record = rest.by_method()

    @export_record.when(method='GET')
    @rest.json(200)
    def _export_record(self, **params):
        context = pecan.request.ctx
        record = backup_records.export(
            context, self.backup_id,
            policy.authorizer(context, policies.EXPORT))
        return {'backup-record': record}

    @pecan.expose()
    def action(self):
        """POST /backups/{id}/action: ``{"<action>": <argument>}``;
        answers 202 with an empty body, as Cinder does."""
        return common.run_action(_ACTIONS, self.backup_id)


def _reset_status(context, backup_id, argument, **call):
    backup_api.reset_status(context, backup_id, argument['status'], **call)


def _force_delete(context, backup_id, argument, **call):
    backup_api.delete(context, backup_id, force=True, **call)


# action name -> (argument schema, policy, handler)
_ACTIONS = {
    'os-reset_status': (schemas.reset_status, action_policies.RESET_STATUS,
                        _reset_status),
    'os-force_delete': (schemas.force_delete, action_policies.FORCE_DELETE,
                        _force_delete),
}


class BackupsController(rest.Listing):
    """/backups, /backups/detail and /backups/{backup_id}"""

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    @staticmethod
    def listed(detailed):
        return _list(detailed)

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create_v351, min_version=mv.BACKUP_AZ)
    @validation.schema(schemas.create_v343, min_version=mv.BACKUP_METADATA,
                       max_version=mv.prior(mv.BACKUP_AZ))
    @validation.schema(schemas.create,
                       max_version=mv.prior(mv.BACKUP_METADATA))
    def create(self, body, **params):
        request = pecan.request
        context = request.ctx
        spec = body['backup']
        backup = backup_api.create(
            context, spec['volume_id'], name=_text(spec, 'name'),
            description=_text(spec, 'description'),
            container=spec.get('container'),
            incremental=_flag(spec, 'incremental'),
            force=_flag(spec, 'force'),
            snapshot_id=spec.get('snapshot_id'),
            metadata=spec.get('metadata'),
            availability_zone=spec.get('availability_zone'),
            version=request.api_version,
            authorize=policy.authorizer(context, policies.CREATE))
        return views.created(request, backup)

    import_record = rest.by_method()

    @import_record.when(method='POST')
    @rest.json(201)
    @validation.schema(schemas.import_record)
    def _import_record(self, body):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.IMPORT)
        spec = body['backup-record']
        backup = backup_records.import_record(
            context, spec['backup_service'], spec['backup_url'])
        return views.created(request, backup)

    def member(self, backup_id):
        return BackupController(backup_id)


def _sort_keys(version):
    """The sort keys, with 'name' (its column) from 3.37; before, Cinder
    refuses it as any unknown key."""
    keys = dict(SORT_KEYS)
    if version >= mv.BACKUP_SORT_NAME:
        keys['name'] = 'display_name'
    return keys


def _list(detailed):
    request = pecan.request
    context = request.ctx
    policy.authorize(context, policies.GET_ALL)
    params = request.GET
    if 'all_tenants' in params and \
            not strutils.is_valid_boolstr(params['all_tenants']):
        raise errors.BadRequest(
            "Invalid input received: all_tenants must be a boolean, got "
            "'%s'." % request_text.excerpt(params['all_tenants']))
    query = common.list_query(context, params,
                              _sort_keys(request.api_version),
                              FILTERS)
    backups = objects.Backup.get_all(context, **query)
    ids = [b.id for b in backups]
    metadata = objects.Backup.metadata_of(context, ids)
    count = None
    if request.api_version >= mv.SUPPORT_COUNT_INFO and \
            'with_count' in params:
        if common.boolean_param('with_count', params['with_count']):
            count = objects.Backup.count(context, query['project_id'],
                                         query['filters'])
    return views.collection(
        request, backups, metadata, detailed, query['limit'], count,
        detailed and _attributes_shown(context))
