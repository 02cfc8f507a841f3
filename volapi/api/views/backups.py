"""Backup bodies, field for field as Cinder's v3 view builder returns
them."""
from volapi.api import common
from volapi.api import microversion as mv

COLLECTION = 'backups'


def summary(request, backup, metadata=None):
    return {'id': backup.id, 'name': backup.display_name,
            'links': common.resource_links(request, COLLECTION, backup.id)}


def detail(request, backup, metadata, attributes=False):
    """``attributes``: the caller may see the project and user (3.18,
    3.56)."""
    view = {
        'id': backup.id,
        'status': backup.status,
        'size': backup.size,
        'object_count': backup.object_count,
        'availability_zone': backup.availability_zone,
        'container': backup.container,
        'created_at': backup.created_at,
        'updated_at': backup.updated_at,
        'name': backup.display_name,
        'description': backup.display_description,
        'fail_reason': backup.fail_reason,
        'volume_id': backup.volume_id,
        'links': common.resource_links(request, COLLECTION, backup.id),
        'is_incremental': backup.is_incremental,
        'has_dependent_backups': backup.has_dependent_backups,
        'snapshot_id': backup.snapshot_id,
        'data_timestamp': backup.data_timestamp,
    }
    version = request.api_version
    if version >= mv.BACKUP_METADATA:
        view['metadata'] = metadata
    if attributes and version >= mv.BACKUP_PROJECT:
        view['os-backup-project-attr:project_id'] = backup.project_id
    if attributes and version >= mv.BACKUP_PROJECT_USER_ID:
        view['user_id'] = backup.user_id
    return view


def show(request, backup, metadata, attributes=False):
    return {'backup': detail(request, backup, metadata, attributes)}


def created(request, backup):
    return {'backup': summary(request, backup)}


def collection(request, backups, metadata, detailed, limit, count=None,
               attributes=False):
    if detailed:
        items = [detail(request, b, metadata[b.id], attributes)
                 for b in backups]
    else:
        items = [summary(request, b) for b in backups]
    body = {'backups': items}
    links = common.next_link(
        request, 'backups/detail' if detailed else 'backups', items, limit)
    if links:
        body['backups_links'] = links
    if count is not None:
        body['count'] = count
    return body


def restored(restore):
    return {'restore': {'backup_id': restore.backup_id,
                        'volume_id': restore.volume_id,
                        'volume_name': restore.volume_name}}
