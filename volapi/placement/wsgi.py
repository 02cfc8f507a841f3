"""The placement WSGI application.

``setup_app(conf)`` builds it. WSGI servers load it from
:mod:`volapi.wsgi.placement`, built at import (uWSGI needs that) from the
configuration volapi's other services read (:func:`volapi.wsgi.load_conf`).

The request path, outside in: the layers both APIs share
(volapi.middleware.stack: request id, proxy headers, /healthcheck, body
size limit, outage replay) -> authentication (noauth2 or keystone) ->
:class:`PlacementApplication`, which makes the context, reads the
microversion, routes, and turns every failure into Placement's error body.
Plain WSGI callables, no per-layer Request objects: a claim spends its time
in the database, not here.
"""
from oslo_log import log as logging
import webob.exc

from objects.placement import exception as placement_exc
from volapi.placement import auth
from volapi.placement import context as placement_context
from volapi.placement import errors
from volapi.placement import handler
from volapi.placement import microversion
from volapi.placement import util
from volapi.middleware import stack
from volapi import outage
from volapi import request_text

LOG = logging.getLogger(__name__)

VERSION_HEADER = 'OpenStack-API-Version'
# None: Placement 16.0.0 answers with oslo.middleware's
# x-openstack-request-id only (tools/placement_diff compares them).
REQUEST_ID_COMPAT_HEADERS = ()


class PlacementApplication:
    """Context, microversion, routing and error handling of placement."""

    def __init__(self, conf, router=None):
        self.conf = conf
        self.router = router or handler.Router()

    def __call__(self, environ, start_response):
        try:
            response = self._respond(environ)
        except Exception as exc:
            response = util.as_error_response(_failure(exc, environ), environ)
        return response(environ, start_response)

    def _respond(self, environ):
        path = environ.get('PATH_INFO', '')
        ctx = placement_context.from_environ(
            environ, self.conf, environ.get(util.ENV_REQUEST_ID))
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
        except errors.PolicyNotAuthorized as exc:
            return util.as_error_response(
                webob.exc.HTTPForbidden(exc.format_message()), environ), False
        except placement_exc.NotFound as exc:
            return util.as_error_response(
                webob.exc.HTTPNotFound(exc.format_message()), environ), False


def _failure(exc, environ):
    """The webob error answering an exception no handler expected: 503
    when a dependency is down, else 500."""
    unavailable = outage.unavailable(exc)
    if unavailable is not None:
        return webob.exc.HTTPServiceUnavailable(
            unavailable, headers={'Retry-After': outage.RETRY_AFTER})
    LOG.exception('Placement API unexpected error')
    return webob.exc.HTTPInternalServerError(
        'An unexpected error occurred; see the server log for request %s.'
        % environ.get(util.ENV_REQUEST_ID))


def _check_content_length(environ):
    # Placement's words; the shared body layer left a length that is no
    # number of bytes to this check (and did not read the body). Stricter
    # than Placement's int(): ' 1', '+1' or an Arabic-Indic digit are
    # refused too.
    length = request_text.byte_count(environ.get('CONTENT_LENGTH') or '0')
    if length is None:
        raise webob.exc.HTTPBadRequest(
            'content-length header must be an integer')
    if length and not environ.get('CONTENT_TYPE'):
        raise webob.exc.HTTPBadRequest(
            'content-type header required when content-length > 0')


def deploy(conf):
    """The middleware pipeline around the placement application."""
    application = PlacementApplication(conf)
    application = auth.wrap(application, conf)
    return JsonByDefault(stack.wrap(application, conf,
                                    conf.placement.max_request_body_size,
                                    fault, REQUEST_ID_COMPAT_HEADERS,
                                    own_length_check=True))


class JsonByDefault:
    """As Placement's request log middleware (outside all the others): a
    request without ``Accept``, or with ``*/*``, asks for JSON, so that
    even its errors are JSON."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if environ.get('HTTP_ACCEPT', '*/*') in ('', '*/*'):
            environ['HTTP_ACCEPT'] = 'application/json'
        return self.application(environ, start_response)


def fault(environ, start_response, status, message):
    """A placement error answering a request before the application."""
    return util.as_error_response(webob.exc.status_map[status](message),
                                  environ)(environ, start_response)


def setup_app(conf):
    """The placement WSGI application, for ``conf`` (an oslo.config
    ConfigOpts already parsed, the database already set up). The standard
    traits of os-traits are made present in the database."""
    from objects.placement import trait as trait_obj
    from volapi import context as volapi_context
    trait_obj.ensure_standard_traits(volapi_context.get_admin_context())
    return deploy(conf)
