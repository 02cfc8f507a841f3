"""/v3/[{project_id}/]snapshots: create, list, show, rename, delete, and
the admin actions os-reset_status, os-force_delete and os-unmanage
(volapi.volume.snapshot_manage).

Create is the ``snapshot_create`` transition: a compare-and-swap on the
volume and the insert of the snapshot row in one transaction, so a
concurrent volume delete ("must have no snapshots") cannot pass. Delete is
the ``snapshot_delete`` transition (``snapshot_force_delete`` for
os-force_delete). Both then cast to a worker.
"""
import pecan
from oslo_utils import strutils

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.v3 import metadata
from volapi.api.schemas import snapshots as schemas
from volapi.api.views import snapshots as views
from volapi.policies import manageable_snapshots as manage_policies
from volapi.policies import snapshots as policies
from volapi.volume import snapshot_manage
from volapi.volume import snapshots as snapshot_api
import objects

# Query parameter -> column, for filters and sort keys.
FILTERS = {'status': 'status', 'volume_id': 'volume_id',
           'name': 'display_name'}
SORT_KEYS = dict(FILTERS, id='id', size='volume_size',
                 created_at='created_at', updated_at='updated_at')


def _get(context, snapshot_id, rule):
    snapshot = snapshot_api.get(context, snapshot_id)
    policy.authorizer(context, rule)(snapshot)
    return snapshot


def _show(context, snapshot):
    metadata = objects.Snapshot.metadata_of(context, [snapshot.id])
    return views.show(pecan.request, snapshot, metadata[snapshot.id])


def _text(spec, key, legacy_key):
    value = spec.get(key, spec.get(legacy_key))
    return value.strip() if isinstance(value, str) else value


class SnapshotController:
    """/snapshots/{snapshot_id}"""

    def __init__(self, snapshot_id):
        self.snapshot_id = snapshot_id
        self.metadata = metadata.MetadataController(metadata.SNAPSHOT,
                                                    snapshot_id)

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        context = pecan.request.ctx
        return _show(context, _get(context, self.snapshot_id, policies.GET))

    @index.when(method='PUT')
    @rest.json(200)
    @validation.schema(schemas.update)
    def update(self, body, **params):
        context = pecan.request.ctx
        spec = body['snapshot']
        values = {}
        if 'name' in spec or 'display_name' in spec:
            values['display_name'] = _text(spec, 'name', 'display_name')
        if 'description' in spec or 'display_description' in spec:
            values['display_description'] = _text(spec, 'description',
                                                  'display_description')
        snapshot = snapshot_api.update(
            context, self.snapshot_id, values,
            policy.authorizer(context, policies.UPDATE))
        return _show(context, snapshot)

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self, **params):
        context = pecan.request.ctx
        snapshot_api.delete(context, self.snapshot_id,
                            version=pecan.request.api_version,
                            authorize=policy.authorizer(context,
                                                        policies.DELETE))

    @pecan.expose()
    def action(self):
        """POST /snapshots/{id}/action: ``{"<action>": <argument>}``;
        answers 202 with an empty body, as Cinder does."""
        return common.run_action(_ACTIONS, self.snapshot_id)


def _reset_status(context, snapshot_id, argument, **call):
    snapshot_api.reset_status(context, snapshot_id, argument['status'],
                              **call)


def _update_status(context, snapshot_id, argument, **call):
    snapshot_api.update_status(context, snapshot_id, argument['status'],
                               argument.get('progress'), **call)


def _unmanage(context, snapshot_id, argument, **call):
    snapshot_manage.unmanage(context, snapshot_id, **call)


def _force_delete(context, snapshot_id, argument, **call):
    snapshot_api.delete(context, snapshot_id, force=True, **call)


# action name -> (argument schema, policy, handler)
_ACTIONS = {
    'os-reset_status': (schemas.reset_status, policies.RESET_STATUS,
                        _reset_status),
    'os-force_delete': (schemas.force_delete, policies.FORCE_DELETE,
                        _force_delete),
    'os-update_snapshot_status': (schemas.update_snapshot_status,
                                  policies.UPDATE_STATUS, _update_status),
    'os-unmanage': (schemas.unmanage, manage_policies.UNMANAGE, _unmanage),
}


class SnapshotsController(rest.Listing):
    """/snapshots, /snapshots/detail and /snapshots/{snapshot_id}"""

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
    @validation.schema(schemas.create)
    def create(self, body, **params):
        request = pecan.request
        context = request.ctx
        spec = body['snapshot']
        force = _in_use_allowed(spec.get('force'), request.api_version)
        snapshot = snapshot_api.create(
            context, spec['volume_id'],
            name=_text(spec, 'name', 'display_name'),
            description=_text(spec, 'description',
                              'display_description'),
            force=force, metadata=spec.get('metadata'),
            version=request.api_version,
            authorize=policy.authorizer(context, policies.CREATE))
        return _show(context, snapshot)

    def member(self, snapshot_id):
        return SnapshotController(snapshot_id)


# Cinder's words, spelling and spacing included.
SNAPSHOT_IN_USE_FLAG_MSG = (
    "Since microversion %d.%d the 'force' flag is invalid for this "
    "request.  For backward compatability, however, when the 'force' flag "
    "is passed with a value evaluating to True, it is silently ignored."
    % mv.SNAPSHOT_IN_USE)


def _in_use_allowed(force, version):
    """Whether the volume may be in-use: with ``force`` true before 3.66,
    always from 3.66, where ``force`` false is refused (Cinder's 400)."""
    forced = force is not None and strutils.bool_from_string(force,
                                                             strict=True)
    if version < mv.SNAPSHOT_IN_USE:
        return forced
    if force is not None and not forced:
        raise errors.BadRequest(SNAPSHOT_IN_USE_FLAG_MSG)
    return True


def _list(detailed):
    request = pecan.request
    context = request.ctx
    policy.authorize(context, policies.GET_ALL)
    params = request.GET
    query = common.list_query(context, params, SORT_KEYS, FILTERS)
    # Every volapi snapshot consumes quota (views/snapshots.py).
    outside_quota = _outside_quota_asked(context, params,
                                         request.api_version)
    snapshots = [] if outside_quota else objects.Snapshot.get_all(
        context, **query)
    metadata = objects.Snapshot.metadata_of(context,
                                            [s.id for s in snapshots])
    count = None
    if request.api_version >= mv.SUPPORT_COUNT_INFO and \
            strutils.bool_from_string(params.get('with_count', False)):
        count = 0 if outside_quota else objects.Snapshot.count(
            context, query['project_id'], query['filters'])
    return views.collection(request, snapshots, metadata, detailed,
                            query['limit'], count)


def _outside_quota_asked(context, params, version):
    """Whether the list asks for snapshots that consume no quota: Cinder's
    ``consumes_quota`` filter (``use_quota`` for an administrator), a
    boolean, which its resource filters take from 3.31."""
    names = ('consumes_quota', 'use_quota') if context.is_admin \
        else ('consumes_quota',)
    if version < mv.RESOURCE_FILTER:
        return False
    return any(not common.boolean_param('use_quota', params[name])
               for name in names if name in params)
