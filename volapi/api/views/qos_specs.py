"""QoS specs bodies, as Cinder's qos_specs view builder returns them."""
from volapi.api import common

COLLECTION = 'qos-specs'


def _item(spec):
    return {'id': spec.id, 'name': spec.name, 'consumer': spec.consumer,
            'specs': spec.specs}


def show(request, spec):
    return {'qos_specs': _item(spec),
            'links': common.resource_links(request, COLLECTION, spec.id)}


def collection(request, specs, limit):
    items = [_item(spec) for spec in specs]
    view = {'qos_specs': items}
    links = common.next_link(request, COLLECTION, items, limit)
    if links:
        view['qos_specs_links'] = links
    return view


def associations(types):
    return {'qos_associations': [
        {'association_type': 'volume_type', 'name': name, 'id': type_id}
        for type_id, name in types]}
