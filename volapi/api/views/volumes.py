"""Volume bodies, field for field as Cinder's v3 view builder (plus its
tenant/host/migration attribute extensions) returns them up to 3.67.

From 3.64 Cinder shows ``encryption_key_id`` for an encrypted volume only;
volapi has no key manager and no encrypted volume, so it never appears."""
from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.policies import volumes as volume_policies

COLLECTION = 'volumes'


def summary(request, volume):
    return {'id': volume.id, 'name': volume.display_name,
            'links': common.resource_links(request, COLLECTION, volume.id)}


def _attachments(volume, attachments):
    return [{'id': volume.id,
             'attachment_id': row['id'],
             'volume_id': volume.id,
             'server_id': row['instance_uuid'],
             'host_name': row['attached_host'],
             'device': row['mountpoint'],
             'attached_at': row['attach_time']}
            for row in attachments if row['attach_status'] == 'attached']


def detail(request, volume, attachments=(), permissions=None,
           image_metadata=None):
    """``permissions``: the view policies already decided for this caller
    (a list view decides them once, not once per volume).
    ``image_metadata``: the volume's, if read (a ShownVolume has its
    own)."""
    context = request.ctx
    if permissions is None:
        permissions = view_permissions(context, volume.project_id)
    version = request.api_version
    view = {
        'id': volume.id,
        'status': volume.status,
        'size': volume.size,
        'availability_zone': volume.availability_zone,
        'created_at': volume.created_at,
        'updated_at': volume.updated_at,
        'attachments': _attachments(volume, attachments),
        'name': volume.display_name,
        'description': volume.display_description,
        'volume_type': volume.volume_type.name
        if volume.volume_type is not None else volume.volume_type_id,
        'snapshot_id': volume.snapshot_id,
        'source_volid': volume.source_volid,
        'metadata': volume.metadata,
        'links': common.resource_links(request, COLLECTION, volume.id),
        'user_id': volume.user_id,
        'bootable': str(volume.bootable).lower(),
        'encrypted': False,
        'replication_status': volume.replication_status,
        'consistencygroup_id': volume.consistencygroup_id,
        'multiattach': volume.multiattach,
    }
    if context.is_admin:
        view['migration_status'] = volume.migration_status
    if permissions['tenant']:
        view['os-vol-tenant-attr:tenant_id'] = volume.project_id
    if permissions['host']:
        view['os-vol-host-attr:host'] = volume.host
    if permissions['migration']:
        view['os-vol-mig-status-attr:migstat'] = volume.migration_status
        view['os-vol-mig-status-attr:name_id'] = volume.name_id
    if image_metadata is None:
        image_metadata = getattr(volume, 'image_metadata', None)
    if image_metadata and permissions['image_metadata']:
        # Only where there is some, as Cinder shows it.
        view['volume_image_metadata'] = dict(image_metadata)
    if version >= mv.GROUP_VOLUME:
        view['group_id'] = volume.group_id
    if version >= mv.VOLUME_DETAIL_PROVIDER_ID and context.is_admin:
        view['provider_id'] = None
    if version >= mv.VOLUME_SHARED_TARGETS_AND_SERVICE_FIELDS:
        view['shared_targets'] = False
        view['service_uuid'] = None
    if version >= mv.VOLUME_CLUSTER_NAME and context.is_admin:
        view['cluster_name'] = volume.cluster_name
    if version >= mv.VOLUME_TYPE_ID_IN_VOLUME_DETAIL:
        view['volume_type_id'] = volume.volume_type_id
    if version >= mv.USE_QUOTA:
        # Every volapi volume counts against its project's quota: a
        # migration holds its destination with a placement consumer, not
        # with a second volume as Cinder's does.
        view['consumes_quota'] = True
    return view


_VIEW_RULES = (volume_policies.TENANT_ATTRIBUTE,
               volume_policies.HOST_ATTRIBUTE,
               volume_policies.MIG_STATUS_ATTRIBUTE,
               volume_policies.IMAGE_METADATA_SHOW)


def view_permissions(context, project_id):
    tenant, host, migration, image_metadata = policy.allowed_each(
        context, _VIEW_RULES, {'project_id': project_id})
    return {'tenant': tenant, 'host': host, 'migration': migration,
            'image_metadata': image_metadata}


def show(request, volume, attachments=()):
    return {'volume': detail(request, volume, attachments)}


def collection(request, page, detailed=False, limit=None):
    """``page``: volapi.volume.api.Page."""
    if detailed:
        # The view policies depend on the caller and the volume's project
        # only: decide them once per project, not once per volume.
        permissions = {}
        items = []
        for volume in page.volumes:
            project = volume.project_id
            if project not in permissions:
                permissions[project] = view_permissions(request.ctx, project)
            items.append(detail(request, volume,
                                page.attachments.get(volume.id, ()),
                                permissions[project],
                                page.image_metadata.get(volume.id, {})))
    else:
        items = [summary(request, volume) for volume in page.volumes]
    body = {'volumes': items}
    links = common.next_link(
        request, 'volumes/detail' if detailed else 'volumes', items, limit)
    if links:
        body['volumes_links'] = links
    if page.count is not None:
        body['count'] = page.count
    return body


def summary_view(count, size, metadata=None):
    """GET /volumes/summary (3.12; metadata from 3.36)."""
    body = {'total_count': count, 'total_size': size}
    if metadata is not None:
        body['metadata'] = metadata
    return {'volume-summary': body}
