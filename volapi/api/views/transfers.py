"""Transfer bodies, field for field as Cinder's views/transfers.py builds
them: links under ``os-volume-transfer`` whichever route served them."""
from volapi.api import common
from volapi.api import microversion as mv

COLLECTION = 'os-volume-transfer'


def _links(request, transfer):
    return common.resource_links(request, COLLECTION, transfer.id)


def _versioned(request, transfer, view):
    version = request.api_version
    if version >= mv.TRANSFER_WITH_SNAPSHOTS:
        view['no_snapshots'] = transfer.no_snapshots
    if version >= mv.TRANSFER_WITH_HISTORY:
        view['destination_project_id'] = transfer.destination_project_id
        view['source_project_id'] = transfer.source_project_id
        view['accepted'] = transfer.accepted
    return view


def summary(request, transfer):
    return {'id': transfer.id, 'volume_id': transfer.volume_id,
            'name': transfer.display_name,
            'links': _links(request, transfer)}


def detail(request, transfer):
    return _versioned(request, transfer, {
        'id': transfer.id, 'created_at': transfer.created_at,
        'name': transfer.display_name, 'volume_id': transfer.volume_id,
        'links': _links(request, transfer)})


def created(request, transfer, auth_key):
    """The answer to a create: the only one that carries the key."""
    return {'transfer': _versioned(request, transfer, {
        'id': transfer.id, 'created_at': transfer.created_at,
        'name': transfer.display_name, 'volume_id': transfer.volume_id,
        'auth_key': auth_key, 'links': _links(request, transfer)})}


def collection(request, transfers, detailed, limit):
    build = detail if detailed else summary
    items = [build(request, transfer) for transfer in transfers]
    body = {'transfers': items}
    links = common.next_link(request, COLLECTION, items, limit)
    if links:
        body['transfers_links'] = links
    return body
