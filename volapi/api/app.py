"""The volume API's WSGI application (``setup_app``).

Layers, outermost first: the ones both APIs share (volapi.middleware.stack:
request id, proxy headers, /healthcheck, body size limit, outage replay),
the last-resort fault, NUL refusal, versions documents (no auth),
authentication (noauth or keystone), microversion, then a thin pecan
application (object dispatch, no templates, one error hook).
"""
import pecan
import pecan.core
import pecan.routing

from volapi.api import auth
from volapi.api import middleware
from volapi.api import policy
from volapi.api import rest
from volapi.api.v3 import root
from volapi import conf as volapi_conf
from volapi.middleware import stack


def _remembering(getargspec):
    """pecan inspects each handler's signature on every request (to drop
    query parameters it does not take), rebuilding a namedtuple class each
    time: a fifth of a request's CPU. Signatures do not change, so the
    answer is kept per function."""
    specs = {}

    def cached(function):
        key = (getattr(function, '__func__', function),
               hasattr(function, '__self__'))
        spec = specs.get(key)
        if spec is None:
            spec = specs[key] = getargspec(function)
        return spec

    cached.remembering = True
    return cached


# pecan.core asks per handler, pecan.routing per ``_route`` hop.
for _module in (pecan.core, pecan.routing):
    if not getattr(_module.getargspec, 'remembering', False):
        _module.getargspec = _remembering(_module.getargspec)


class _Pecan(pecan.Pecan):

    def find_controller(self, state):
        # Handlers build their JSON responses themselves (rest.respond), so
        # pecan's Accept negotiation, which refuses application/json for
        # handlers exposed without templates, has nothing to decide.
        state.request.pecan['content_type'] = 'text/html'
        return super().find_controller(state)

    def _handle_empty_response_body(self, state):
        # pecan turns every empty 200 into a 204 (decoding each body to
        # find out); Cinder answers some requests 200 with no body, and
        # handlers set their status deliberately.
        pass


def setup_app(conf=None):
    """A WSGI callable serving Cinder's v3 API. ``conf`` defaults to
    volapi's CONF, which must be parsed and the database configured
    (volapi.config.setup) before requests arrive."""
    conf = conf or volapi_conf.CONF
    import objects
    objects.register_all()
    policy.init(conf)
    application = _Pecan(
        root.RootController(),
        hooks=[rest.FaultHook()],
        request_cls=rest.Request,
        force_canonical=False,
        guess_content_type_from_ext=False,
    )
    application = middleware.Microversion(application)
    application = auth.pipeline(application, conf)
    application = middleware.VersionDocuments(application)
    application = middleware.RefuseNul(application)
    application = middleware.Faults(application)
    return stack.wrap(application, conf,
                      conf.oslo_middleware.max_request_body_size,
                      middleware.fault)
