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

``PUT .../freeze`` and ``.../thaw`` (with ``host``, or from 3.26
``cluster``) freeze and thaw a backend (volapi.volume.freezing): while
frozen it gets no new volumes and its volumes cannot be deleted or
snapshotted. ``PUT .../failover_host`` is always refused, as Cinder's
for a backend without replication.

``PUT .../get-log`` and ``.../set-log`` (3.32) read and set the log
levels of the API process answering and of the volume workers that are
up (volapi.volume.service_logs).
"""
import pecan
from oslo_config import cfg

from objects import service as service_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import services as schemas
from volapi.policies import services as policies
from volapi.volume import freezing
from volapi.volume import service_logs

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
                    active_backend_id=None,
                    frozen=service.frozen)
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
    get_log = rest.by_method()
    set_log = rest.by_method()
    freeze = rest.by_method()
    thaw = rest.by_method()
    failover_host = rest.by_method()

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

    @get_log.when(method='PUT')
    @rest.json(200)
    def put_get_log(self):
        body = _log_body(schemas.get_log)
        return {'log_levels': service_logs.get(
            pecan.request.ctx, body.get('binary'), body.get('server'),
            body.get('prefix'))}

    @set_log.when(method='PUT')
    @rest.json(202)
    def put_set_log(self):
        body = _log_body(schemas.set_log)
        service_logs.set_level(pecan.request.ctx, body['level'],
                               body.get('binary'), body.get('server'),
                               body.get('prefix'))

    # Cinder answers 200 with no body (its TODO says it should be 204).
    @freeze.when(method='PUT')
    @rest.json(200)
    def put_freeze(self):
        _set_frozen(policies.FREEZE, True)

    @thaw.when(method='PUT')
    @rest.json(200)
    def put_thaw(self):
        _set_frozen(policies.THAW, False)

    @failover_host.when(method='PUT')
    @rest.json(202)
    def put_failover_host(self):
        request = pecan.request
        cluster_name, host = _backend_body(
            request, policies.FAILOVER, schemas.failover_host)
        freezing.failover(request.ctx, host, cluster_name)


# Cinder's names of the paths are not identifiers.
for _name in ('disable_log_reason', 'get_log', 'set_log'):
    setattr(ServicesController, _name.replace('_', '-'),
            getattr(ServicesController, _name))
    delattr(ServicesController, _name)


def _log_body(schema):
    request = pecan.request
    common.require_version(request, mv.LOG_LEVEL)
    policy.authorize(request.ctx, policies.UPDATE)
    body = validation.parse_body(request)
    validation.validate(schema, body)
    return body


def _backend_body(request, rule, schema):
    """(cluster, host) the body names (Cinder's: the cluster from 3.26),
    once the caller may use ``rule`` (Cinder asks for UPDATE too)."""
    policy.authorize(request.ctx, policies.UPDATE)
    policy.authorize(request.ctx, rule)
    body = validation.parse_body(request)
    validation.validate(schema, body)
    return common.cluster_host(request, body, mv.REPLICATION_CLUSTER)


def _set_frozen(rule, frozen):
    request = pecan.request
    cluster_name, host = _backend_body(request, rule, schemas.freeze_and_thaw)
    freezing.set_frozen(request.ctx, host, cluster_name, frozen)


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
