"""/v3/[{project_id}/]capabilities/{host} (admin): a volume backend's
capabilities, as Cinder's ``get-capabilities`` shows them.

``host`` names a volume service (``host@backend``) or a cluster
(``cluster@backend``); the worker answers, from its driver (RPC
``get_capabilities``). Unlike Cinder, whose answer to a worker that does
not reply is a 502 after the RPC timeout, a backend with no live worker
is a 503 at once, and one whose worker does not answer a 503 too: a
worker down is a dependency down.
"""
import pecan

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.policies import capabilities as policies
from volapi import request_text
from volapi.volume import backend_call


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


class CapabilityController:

    def __init__(self, name):
        self.name = name

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, **params):
        context = pecan.request.ctx
        policy.authorize(context, policies.SHOW)
        try:
            server, capabilities = backend_call.call(
                context, self.name, 'get the capabilities of',
                'get_capabilities')
        except backend_call.NoSuchBackend:
            raise errors.NotFound("Can't find service: %s"
                                  % request_text.excerpt(self.name)) from None
        return _view(capabilities, server)


class CapabilitiesController(rest.Collection):

    def member(self, name):
        return CapabilityController(name)
