"""Group snapshot bodies, as Cinder's group_snapshots view builder returns
them."""
from volapi.api import common
from volapi.api import policy
from volapi.api.views import groups as group_views
from volapi.policies import group_snapshots as policies


def summary(group_snapshot):
    """The create's answer (Cinder's summary, group_type_id included)."""
    return {'id': group_snapshot.id, 'name': group_snapshot.name,
            'group_type_id': group_snapshot.group_type_id}


def detail(request, group_snapshot):
    view = {
        'id': group_snapshot.id,
        'group_id': group_snapshot.group_id,
        'group_type_id': group_snapshot.group_type_id,
        'status': group_snapshot.status,
        'created_at': group_snapshot.created_at,
        'name': group_snapshot.name,
        'description': group_snapshot.description,
    }
    if request.api_version >= group_views.PROJECT_ID_SHOWN and \
            policy.authorize(request.ctx, policies.PROJECT_ATTRIBUTE,
                             do_raise=False):
        view['project_id'] = group_snapshot.project_id
    return view


def collection(request, group_snapshots, detailed, limit):
    # The summary list leaves group_type_id out (Cinder pops it).
    items = [detail(request, g) if detailed
             else {'id': g.id, 'name': g.name} for g in group_snapshots]
    body = {'group_snapshots': items}
    links = common.next_link(
        request, 'group_snapshots/detail' if detailed else 'group_snapshots',
        items, limit)
    if links:
        body['group_snapshot_links'] = links
    return body
