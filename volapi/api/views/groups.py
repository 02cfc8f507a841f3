"""Group and group type bodies, as Cinder's groups and group_types view
builders return them."""
from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.policies import groups as group_policies

# Cinder's GROUP_GROUPSNAPSHOT_PROJECT_ID and GROUP_VOLUME_LIST.
PROJECT_ID_SHOWN = (3, 58)
VOLUME_LIST = (3, 25)
REPLICATION = (3, 38)


def group_type(request, kind):
    view = {'id': kind.id, 'name': kind.name,
            'description': kind.description, 'is_public': kind.is_public}
    if policy.authorize(request.ctx, group_policies.TYPE_SHOW_SPECS,
                        do_raise=False):
        view['group_specs'] = kind.group_specs
    return view


def group_types(request, kinds):
    return {'group_types': [group_type(request, k) for k in kinds]}


def summary(group):
    return {'id': group.id, 'name': group.name}


def detail(request, group, volume_ids=None):
    version = request.api_version
    view = {
        'id': group.id,
        'status': group.status,
        'availability_zone': group.availability_zone,
        'created_at': group.created_at,
        'name': group.name,
        'description': group.description,
        'group_type': group.group_type_id,
        'volume_types': list(group.volume_type_ids),
    }
    if version >= mv.GROUP_SNAPSHOTS:
        view['group_snapshot_id'] = group.group_snapshot_id
        view['source_group_id'] = group.source_group_id
    if version >= VOLUME_LIST and volume_ids is not None:
        view['volumes'] = volume_ids
    if version >= REPLICATION:
        view['replication_status'] = 'disabled'
    if version >= PROJECT_ID_SHOWN and policy.authorize(
            request.ctx, group_policies.PROJECT_ATTRIBUTE, do_raise=False):
        view['project_id'] = group.project_id
    return view


def collection(request, groups, detailed, limit):
    items = [detail(request, g) if detailed else summary(g)
             for g in groups]
    body = {'groups': items}
    links = common.next_link(request, 'groups', items, limit)
    if links:
        body['group_links'] = links
    return body
