"""Volume type bodies, as Cinder's types view builder returns them."""
from volapi.api import policy
from volapi.policies import types as type_policies


def detail(request, volume_type):
    context = request.ctx
    view = {
        'id': volume_type.id,
        'name': volume_type.name,
        'is_public': volume_type.is_public,
        'description': volume_type.description,
        'os-volume-type-access:is_public': volume_type.is_public,
    }
    if policy.authorize(context, type_policies.EXTRA_SPECS, do_raise=False):
        view['extra_specs'] = volume_type.extra_specs
    if policy.authorize(context, type_policies.QOS_SPECS_ID,
                        do_raise=False):
        view['qos_specs_id'] = volume_type.qos_specs_id
    return view


def show(request, volume_type):
    return {'volume_type': detail(request, volume_type)}


def collection(request, volume_types):
    return {'volume_types': [detail(request, t) for t in volume_types]}
