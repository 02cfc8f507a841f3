"""/v3/{project_id}/group_snapshots (3.14+): create, list (summary and
detail; filters, sort and pages from 3.29), show, delete, and the
``reset_status`` action (3.19, administrators). The use cases are
``volapi.volume.group_snapshots``'s."""
import pecan

from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import group_snapshots as schemas
from volapi.api.views import group_snapshots as views
from volapi.policies import group_snapshots as policies
from volapi.volume import group_snapshots as group_snapshot_api

SORT_KEYS = ('id', 'name', 'description', 'status', 'created_at',
             'updated_at', 'group_id', 'group_type_id')
# Cinder's resource filters of 'group_snapshot', and its name.
FILTERS = ('name', 'status', 'group_id')


def _text(value):
    return value.strip() if value else value


def _reset_status(context, group_snapshot_id, argument, **call):
    group_snapshot_api.reset_status(context, group_snapshot_id,
                                    argument['status'], **call)


# action name -> (argument schema, policy, handler)
_ACTIONS = {
    'reset_status': (schemas.reset_status, policies.RESET_STATUS,
                     _reset_status),
}


class GroupSnapshotController:

    def __init__(self, group_snapshot_id):
        self.group_snapshot_id = group_snapshot_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        request = pecan.request
        common.require_version(request, mv.GROUP_SNAPSHOTS)
        context = request.ctx
        group_snapshot = group_snapshot_api.get(context,
                                                self.group_snapshot_id)
        policy.authorizer(context, policies.GET)(group_snapshot)
        return {'group_snapshot': views.detail(request, group_snapshot)}

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self, **params):
        request = pecan.request
        common.require_version(request, mv.GROUP_SNAPSHOTS)
        context = request.ctx
        group_snapshot_api.delete(
            context, self.group_snapshot_id, version=request.api_version,
            authorize=policy.authorizer(context, policies.DELETE))

    @pecan.expose()
    def action(self, **params):
        common.require_version(pecan.request, mv.GROUP_SNAPSHOT_RESET_STATUS)
        return common.run_action(_ACTIONS, self.group_snapshot_id)


class GroupSnapshotsController(rest.Listing):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    def listed(self, detailed):
        request = pecan.request
        common.require_version(request, mv.GROUP_SNAPSHOTS)
        context = request.ctx
        policy.authorize(context, policies.GET_ALL,
                         {'project_id': context.project_id})
        query = {}
        all_tenants = False
        limit = None
        if request.api_version >= mv.GROUP_SNAPSHOT_PAGINATION:
            # Before 3.29 Cinder reads no parameter of the list.
            all_tenants, query = common.filtered_listing(
                dict(request.GET), SORT_KEYS, FILTERS)
            limit = query['limit']
        group_snapshots = group_snapshot_api.get_all(
            context, all_projects=all_tenants, **query)
        return views.collection(request, group_snapshots, detailed, limit)

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create, min_version=mv.GROUP_SNAPSHOTS)
    def create(self, body):
        request = pecan.request
        common.require_version(request, mv.GROUP_SNAPSHOTS)
        context = request.ctx
        spec = body['group_snapshot']
        group_snapshot = group_snapshot_api.create(
            context, spec['group_id'], name=_text(spec.get('name')),
            description=_text(spec.get('description')),
            version=request.api_version,
            authorize=policy.authorizer(context, policies.CREATE))
        return {'group_snapshot': views.summary(group_snapshot)}

    def member(self, group_snapshot_id):
        return GroupSnapshotController(group_snapshot_id)
