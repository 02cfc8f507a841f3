"""The placement WSGI application.

``setup_app(conf)`` builds it. WSGI servers load it from
:mod:`volapi.wsgi.placement`, built at import (uWSGI needs that) from the
configuration volapi's other services read (:func:`volapi.wsgi.load_conf`).

The request path, outside in: request id -> authentication (noauth2 or
keystone) -> :class:`PlacementApplication`, which makes the context, reads
the microversion, routes, and turns every failure into Placement's error
body. Plain WSGI callables, no per-layer Request objects: a claim spends
its time in the database, not here.
"""
import logging

from oslo_context import context as oslo_context
import webob.exc

from objects.placement import exception as placement_exc
from volapi.placement import auth
from volapi.placement import context as placement_context
from volapi.placement import handler
from volapi.placement import microversion
from volapi.placement import policy
from volapi.placement import util

LOG = logging.getLogger(__name__)

VERSION_HEADER = 'OpenStack-API-Version'
# As oslo.middleware's RequestId in Placement's pipeline: one header.
REQUEST_ID_HEADERS = ('x-openstack-request-id',)
INBOUND_GLOBAL_ID = 'HTTP_X_OPENSTACK_REQUEST_ID'
ENV_GLOBAL_REQUEST_ID = 'openstack.global_request_id'


class RequestIdMiddleware:
    """Gives each request an id (``req-<uuid>``), returned in the
    ``x-openstack-request-id`` header and error bodies; keeps a
    well-formed inbound global request id. Like Placement's request log
    middleware, it makes a request without ``Accept``, or with ``*/*``,
    ask for JSON, so that even its errors are JSON."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        request_id = oslo_context.generate_request_id()
        environ[util.ENV_REQUEST_ID] = request_id
        if environ.get('HTTP_ACCEPT', '*/*') in ('', '*/*'):
            environ['HTTP_ACCEPT'] = 'application/json'
        inbound = environ.get(INBOUND_GLOBAL_ID)
        if inbound and _is_request_id(inbound):
            environ[ENV_GLOBAL_REQUEST_ID] = inbound

        def start_with_id(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}
            headers.extend((name, request_id) for name in REQUEST_ID_HEADERS
                           if name not in present)
            return start_response(status, headers, exc_info)

        return self.application(environ, start_with_id)


def _is_request_id(value):
    # req-8-4-4-4-12 lowercase hex, as oslo.middleware accepts.
    if len(value) != 40 or not value.startswith('req-'):
        return False
    parts = value[4:].split('-')
    return ([len(p) for p in parts] == [8, 4, 4, 4, 12]
            and all(c in '0123456789abcdef' for c in value[4:].replace(
                '-', '')))


class PlacementApplication:
    """Context, microversion, routing and error handling of placement."""

    def __init__(self, conf, router=None):
        self.conf = conf
        self.router = router or handler.Router()

    def __call__(self, environ, start_response):
        try:
            response = self._respond(environ)
        except Exception:
            LOG.exception('Placement API unexpected error')
            response = util.as_error_response(
                webob.exc.HTTPInternalServerError(
                    'An unexpected error occurred; see the server log for '
                    'request %s.' % environ.get(util.ENV_REQUEST_ID)),
                environ)
        return response(environ, start_response)

    def _respond(self, environ):
        path = environ.get('PATH_INFO', '')
        ctx = placement_context.from_environ(
            environ, self.conf, environ.get(util.ENV_REQUEST_ID))
        if environ.get(ENV_GLOBAL_REQUEST_ID):
            ctx.global_request_id = environ[ENV_GLOBAL_REQUEST_ID]
        if ctx.user_id is None and path not in auth.ROOT_PATHS:
            return webob.exc.HTTPUnauthorized()
        environ[util.ENV_CONTEXT] = ctx
        try:
            version = microversion.extract_version(environ)
        except ValueError as exc:
            return util.as_error_response(webob.exc.HTTPNotAcceptable(
                'Invalid microversion: %s' % exc), environ)
        except TypeError as exc:
            return util.as_error_response(webob.exc.HTTPBadRequest(
                'Invalid microversion: %s' % exc), environ)
        environ[microversion.MICROVERSION_ENVIRON] = version
        response, from_handler = self._dispatch(environ, path)
        header = 'placement %s' % (version,)
        response.headers[VERSION_HEADER] = header
        if from_handler:
            # As microversion_parse's middleware: spelled so, and only on
            # what a handler answered (its errors included), not on an
            # error raised past the handlers (unknown path, a bad
            # Content-Length, a 404 or 403 escaping the handler).
            response.headers['Vary'] = VERSION_HEADER.lower()
        return response

    def _dispatch(self, environ, path):
        """(response, whether a handler made it)."""
        try:
            _check_content_length(environ)
            route, items = self.router.match(path)
            if route is None or '\x00' in path:
                raise webob.exc.HTTPNotFound()
        except webob.exc.HTTPException as exc:
            return util.as_error_response(exc, environ), False
        fn = route.handler(environ['REQUEST_METHOD'])
        if fn is None:
            return util.as_error_response(webob.exc.HTTPMethodNotAllowed(
                'The method specified is not allowed for this resource.',
                headers={'allow': route.allow}), environ), True
        environ[util.ENV_ROUTING_ARGS] = ((), items)
        try:
            return fn(util.PlacementRequest(environ)), True
        except webob.exc.HTTPException as exc:
            return util.as_error_response(exc, environ), True
        except policy.PolicyNotAuthorized as exc:
            return util.as_error_response(
                webob.exc.HTTPForbidden(exc.format_message()), environ), False
        except placement_exc.NotFound as exc:
            return util.as_error_response(
                webob.exc.HTTPNotFound(exc.format_message()), environ), False


def _check_content_length(environ):
    length = environ.get('CONTENT_LENGTH')
    try:
        if length and int(length) > 0 and not environ.get('CONTENT_TYPE'):
            raise webob.exc.HTTPBadRequest(
                'content-type header required when content-length > 0')
    except ValueError:
        raise webob.exc.HTTPBadRequest(
            'content-length header must be an integer')


def deploy(conf):
    """The middleware pipeline around the placement application."""
    application = PlacementApplication(conf)
    application = auth.wrap(application, conf)
    return RequestIdMiddleware(application)


def setup_app(conf):
    """The placement WSGI application, for ``conf`` (an oslo.config
    ConfigOpts already parsed, the database already set up). The standard
    traits of os-traits are made present in the database."""
    from objects.placement import trait as trait_obj
    from volapi import context as volapi_context
    trait_obj.ensure_standard_traits(volapi_context.get_admin_context())
    return deploy(conf)
