"""/v3/[{project_id}/]capabilities/{host} (admin): a volume backend's
capabilities, as Cinder's ``get-capabilities`` shows them.

``host`` names a volume service (``host@backend``) or a cluster
(``cluster@backend``); the worker answers, from its driver (RPC
``get_capabilities``). Unlike Cinder, whose answer to a worker that does
not reply is a 502 after the RPC timeout, a backend with no live worker
is a 503 at once, and one whose worker does not answer a 503 too: a
worker down is a dependency down.
"""
import oslo_messaging
import pecan
from oslo_config import cfg

from objects import service as service_obj
from rpc import transport as rpc_transport
from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.policies import capabilities as policies
from volapi import request_text
from volapi.volume import api as volume_api

CONF = cfg.CONF


def _view(capabilities, server):
    # A driver may name every spelling of its protocol: the first is the
    # one users see (as Cinder shows it).
    protocol = capabilities.get('storage_protocol')
    if isinstance(protocol, list):
        protocol = protocol[0]
    return {'namespace': 'OS::Storage::Capabilities::%s' % server,
            'vendor_name': capabilities.get('vendor_name'),
            'volume_backend_name': capabilities.get('volume_backend_name'),
            'pool_name': capabilities.get('pool_name'),
            'driver_version': capabilities.get('driver_version'),
            'storage_protocol': protocol,
            'display_name': capabilities.get('display_name'),
            'description': capabilities.get('description'),
            'visibility': capabilities.get('visibility'),
            'replication_targets': capabilities.get('replication_targets',
                                                    []),
            'properties': capabilities.get('properties')}


def _services(context, name):
    """The volume services of host or cluster ``name``."""
    binary = service_obj.VOLUME_BINARY
    return (service_obj.Service.get_all(context, binary=binary, host=name)
            or service_obj.Service.get_all(context, binary=binary,
                                           cluster_name=name))


def _unavailable(name, why):
    return errors.WorkerUnavailable(
        'Unable to get the capabilities of backend %s: %s.'
        % (request_text.excerpt(name), why))


class CapabilityController:

    def __init__(self, name):
        self.name = name

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        context = pecan.request.ctx
        policy.authorize(context, policies.SHOW)
        services = _services(context, self.name)
        if not services:
            raise errors.NotFound("Can't find service: %s"
                                  % request_text.excerpt(self.name))
        if not any(s.is_up(CONF.service_down_time) for s in services):
            raise _unavailable(self.name, 'no volume worker serving it is up')
        server = services[0].cluster_name or services[0].host
        try:
            capabilities = volume_api.worker_client().get_capabilities(
                context, server)
        except oslo_messaging.MessagingTimeout:
            raise _unavailable(self.name, 'no volume worker answered') \
                from None
        except rpc_transport.SEND_FAILURES:
            raise _unavailable(self.name, 'the message broker is '
                                          'unavailable') from None
        return _view(capabilities, server)


class CapabilitiesController(rest.Collection):

    def member(self, name):
        return CapabilityController(name)
