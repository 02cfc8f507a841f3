"""/v3/[{project_id}/]os-services (admin): the volume services (volume
workers, ``volapi-volume``), as Cinder lists and disables its own.

A service is ``up`` while its last heartbeat is at most
``service_down_time`` seconds old; its ``updated_at`` is that heartbeat.
Every service is in the one availability zone the API serves (``[api]
storage_availability_zone``: volume creates name no other). Filters:
``host`` and ``binary``. From 3.7 each shows its ``cluster``; from 3.49 a
volume service shows ``backend_state``, ``up`` or ``down`` as the service
is. volapi has no replication: ``replication_status`` is
``not-capable``, as Cinder's for a backend without it.

Cinder's name of the volume binary, ``cinder-volume``, names
``volapi-volume`` in filters and bodies.

``PUT .../disable`` and ``.../disable-log-reason`` (with
``disabled_reason``) disable the service ``host``/``binary`` (or
``service``, Cinder's older key): the scheduler sends no new volume to
the pools of a server whose services are all disabled
(volapi.volume.scheduler); the volumes already there are served as
before. ``PUT .../enable`` enables it again. Unlike Cinder, enabling or
disabling without a reason clears the reason given earlier, so a reason
shown is always the current one.
"""
import pecan
from oslo_config import cfg

from objects import service as service_obj
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import services as schemas
from volapi.policies import services as policies

CONF = cfg.CONF


def _view(service, version):
    state = 'up' if service.is_up(CONF.service_down_time) else 'down'
    view = {'binary': service.binary, 'host': service.host,
            'zone': CONF.api.storage_availability_zone,
            'status': 'disabled' if service.disabled else 'enabled',
            'state': state, 'updated_at': service.last_seen(),
            'disabled_reason': service.disabled_reason}
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
        services = service_obj.Service.get_all(
            context, host=host,
            binary=binary and service_obj.binary_named(binary))
        return {'services': [_view(service, request.api_version)
                             for service in services]}

    enable = rest.by_method()
    disable = rest.by_method()
    disable_log_reason = rest.by_method()

    @enable.when(method='PUT')
    @rest.json(200)
    def put_enable(self):
        return _set_disabled(schemas.enable_and_disable, False)

    @disable.when(method='PUT')
    @rest.json(200)
    def put_disable(self):
        return _set_disabled(schemas.enable_and_disable, True)

    @disable_log_reason.when(method='PUT')
    @rest.json(200)
    def put_disable_log_reason(self):
        return _set_disabled(schemas.disable_log_reason, True,
                             with_reason=True)


# Cinder's name of the path is not an identifier.
setattr(ServicesController, 'disable-log-reason',
        ServicesController.disable_log_reason)
del ServicesController.disable_log_reason


def _set_disabled(schema, disabled, with_reason=False):
    request = pecan.request
    context = request.ctx
    policy.authorize(context, policies.UPDATE)
    body = validation.parse_body(request)
    validation.validate(schema, body)
    host = body.get('host')
    if not host:
        raise errors.BadRequest('Invalid input received: Host field is '
                                'missing.')
    binary = service_obj.binary_named(body.get('binary') or body['service'])
    reason = body.get('disabled_reason')
    if not service_obj.Service.set_disabled(context, host, binary, disabled,
                                            reason):
        raise errors.NotFound('Service %s could not be found on host %s.'
                              % (binary, host))
    answer = {'host': host, 'service': body.get('service', ''),
              'binary': body.get('binary', ''),
              'status': 'disabled' if disabled else 'enabled',
              'disabled': disabled}
    if with_reason:
        answer['disabled_reason'] = reason
    return answer
