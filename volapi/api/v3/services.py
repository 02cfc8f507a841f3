"""/v3/[{project_id}/]os-services (admin): the volume services (volume
workers, ``volapi-volume``), as Cinder lists its own.

A service is ``up`` while its last heartbeat is at most
``service_down_time`` seconds old; its ``updated_at`` is that heartbeat.
Every service is in the one availability zone the API serves (``[api]
storage_availability_zone``: volume creates name no other). Filters:
``host`` and ``binary``. From 3.7 each shows its ``cluster``; from 3.49 a
volume service shows ``backend_state``, ``up`` or ``down`` as the service
is. volapi has no replication: ``replication_status`` is
``not-capable``, as Cinder's for a backend without it.
"""
import pecan
from oslo_config import cfg

from objects import service as service_obj
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.policies import services as policies

CONF = cfg.CONF


def _view(service, version):
    state = 'up' if service.is_up(CONF.service_down_time) else 'down'
    view = {'binary': service.binary, 'host': service.host,
            'zone': CONF.api.storage_availability_zone,
            'status': 'disabled' if service.disabled else 'enabled',
            'state': state, 'updated_at': service.last_seen(),
            'disabled_reason': None}
    if service.binary == service_obj.VOLUME_BINARY:
        view.update(replication_status='not-capable',
                    active_backend_id=None, frozen=False)
        if version >= mv.BACKEND_STATE_REPORT:
            view['backend_state'] = state
    if version >= mv.CLUSTER_SUPPORT:
        view['cluster'] = service.cluster_name
    return view


class ServicesController:

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, host=None, binary=None, **params):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.GET_ALL)
        services = service_obj.Service.get_all(context, host=host,
                                               binary=binary)
        return {'services': [_view(service, request.api_version)
                             for service in services]}
