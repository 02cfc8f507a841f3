"""Snapshot bodies, field for field as Cinder's v3 view builder (with the
extended snapshot attributes on show and detail) returns them."""
from volapi.api import common
from volapi.api import microversion as mv

COLLECTION = 'snapshots'


def summary(request, snapshot, metadata):
    view = {
        'id': snapshot.id,
        'created_at': snapshot.created_at,
        'updated_at': snapshot.updated_at,
        'name': snapshot.display_name,
        'description': snapshot.display_description,
        'volume_id': snapshot.volume_id,
        'status': snapshot.status,
        'size': snapshot.volume_size,
        'metadata': metadata,
    }
    version = request.api_version
    if version >= mv.GROUP_SNAPSHOTS:
        view['group_snapshot_id'] = snapshot.group_snapshot_id
    if version >= mv.SNAPSHOT_LIST_USER_ID:
        view['user_id'] = snapshot.user_id
    return view


def detail(request, snapshot, metadata):
    view = summary(request, snapshot, metadata)
    view['os-extended-snapshot-attributes:progress'] = snapshot.progress
    view['os-extended-snapshot-attributes:project_id'] = snapshot.project_id
    if request.api_version >= mv.USE_QUOTA:
        # Cinder's temporary snapshots (of backups, of image volumes) do
        # not count; volapi makes none, so every snapshot counts.
        view['consumes_quota'] = True
    return view


def show(request, snapshot, metadata):
    return {'snapshot': detail(request, snapshot, metadata)}


def collection(request, snapshots, metadata, detailed, limit, count=None):
    build = detail if detailed else summary
    items = [build(request, s, metadata[s.id]) for s in snapshots]
    body = {'snapshots': items}
    links = common.next_link(
        request, 'snapshots/detail' if detailed else 'snapshots', items,
        limit)
    if links:
        body['snapshots_links'] = links
    if count is not None:
        body['count'] = count
    return body
