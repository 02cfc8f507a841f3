"""The volume API's WSGI application (``setup_app``).

Layers, outermost first: the ones both APIs share (volapi.middleware.stack:
request id, proxy headers, /healthcheck, body size limit, outage replay),
the last-resort fault, NUL refusal, versions documents (no auth),
authentication (noauth or keystone), microversion, then a thin pecan
application (object dispatch, no templates, one error hook).
"""
from volapi.api import auth
from volapi.api import middleware
from volapi.api import pecan_compat
from volapi.api import policy
from volapi.api import rest
from volapi.api.v3 import root
from volapi import conf as volapi_conf
from volapi.middleware import stack


def setup_app(conf=None):
    """A WSGI callable serving Cinder's v3 API. ``conf`` defaults to
    volapi's CONF, which must be parsed and the database configured
    (volapi.config.setup) before requests arrive."""
    conf = conf or volapi_conf.CONF
    import objects
    objects.register_all()
    policy.init(conf)
    pecan_compat.remember_signatures()
    application = pecan_compat.Pecan(
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
