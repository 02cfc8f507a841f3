"""Helpers every placement handler uses: the request class, JSON in and
out, error bodies, URL building and the shared query-string parsers."""
import functools
import json

import jsonschema
from oslo_utils import timeutils
from oslo_utils import uuidutils
import webob
import webob.exc

from volapi.placement import errors
from volapi.placement import microversion

# Where the application leaves things in the WSGI environ.
ENV_ERROR_CODE = 'placement.error_code'
ENV_CONTEXT = 'placement.context'
ENV_REQUEST_ID = 'openstack.request_id'
ENV_ROUTING_ARGS = 'wsgiorg.routing_args'
ERROR_CODE_MICROVERSION = (1, 23)

# Placement checks "uuid" formats with oslo's is_uuid_like, which also
# accepts the dashless form; jsonschema's own checker would not.
FORMAT_CHECKER = jsonschema.FormatChecker()


@FORMAT_CHECKER.checks('uuid')
def _is_uuid(instance):
    return not isinstance(instance, str) or uuidutils.is_uuid_like(instance)


class PlacementRequest(webob.Request):
    """A webob Request that knows the placement context and version."""

    @property
    def context(self):
        return self.environ[ENV_CONTEXT]

    @property
    def version(self):
        return self.environ[microversion.MICROVERSION_ENVIRON]

    @property
    def response(self):
        # One Response per request, made on first use, as webob's wsgify
        # does; handlers fill it in and return it.
        response = self.environ.get('placement.response')
        if response is None:
            response = self.environ['placement.response'] = webob.Response()
        return response

    def path_item(self, name):
        return wsgi_path_item(self.environ, name)


def wsgi_path_item(environ, name):
    """A named part of the matched path (``{uuid}``), or None."""
    try:
        return environ[ENV_ROUTING_ARGS][1][name]
    except (KeyError, IndexError):
        return None


# -- errors ------------------------------------------------------------------

def json_error_formatter(body, status, title, environ):
    """webob's json_formatter for placement errors: the API-WG error body
    ``{"errors": [{"status", "title", "detail", "code", "request_id"}]}``.

    ``code`` appears from 1.23 on; the 406 of a refused microversion also
    names the versions on offer.
    """
    body = webob.exc.strip_tags(body)
    status_code = int(status.split(None, 1)[0])
    error = {'status': status_code, 'title': title, 'detail': body}
    version = environ.get(microversion.MICROVERSION_ENVIRON)
    if version is not None and version.matches(ERROR_CODE_MICROVERSION):
        error['code'] = environ.get(ENV_ERROR_CODE, errors.DEFAULT)
    if ENV_REQUEST_ID in environ:
        error['request_id'] = environ[ENV_REQUEST_ID]
    if status_code == 406 and version is None:
        error['max_version'] = microversion.max_version_string()
        error['min_version'] = microversion.min_version_string()
    return {'errors': [error]}


def as_error_response(exc, environ):
    """Prepare a webob HTTPException to be sent as a placement error:
    its ``comment`` (if any) becomes the error code."""
    exc.json_formatter = json_error_formatter
    if exc.comment:
        environ[ENV_ERROR_CODE] = exc.comment
        exc.comment = None
    return exc


# -- JSON in -------------------------------------------------------------------

def extract_json(body, schema):
    """Parse a request body and validate it against ``schema``; 400 with
    Placement's wording if either fails."""
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise webob.exc.HTTPBadRequest('Malformed JSON: %s' % exc)
    validate(data, schema, 'JSON does not validate: %s')
    return data


def validate(data, schema, message):
    try:
        jsonschema.validate(data, schema, format_checker=FORMAT_CHECKER)
    except jsonschema.ValidationError as exc:
        raise webob.exc.HTTPBadRequest(message % exc)


def validate_query_params(req, schema):
    """Validate the query string (last value of each key) against
    ``schema``."""
    try:
        params = dict(req.GET)
    except UnicodeDecodeError as exc:
        raise webob.exc.HTTPBadRequest(
            'Invalid query string parameters: %s' % exc)
    validate(params, schema, 'Invalid query string parameters: %s')


def require_content(content_type):
    """Handler decorator: 415 unless the body is ``content_type``."""
    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(req, *args, **kwargs):
            if req.content_type != content_type:
                raise webob.exc.HTTPUnsupportedMediaType(
                    'The media type %s is not supported, use %s'
                    % (req.content_type or 'None', content_type))
            return fn(req, *args, **kwargs)
        return wrapper
    return decorator


def check_accept(*types):
    """Handler decorator: 406 if an Accept header excludes ``types``."""
    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(req, *args, **kwargs):
            if req.accept and not req.accept.acceptable_offers(types):
                raise webob.exc.HTTPNotAcceptable(
                    'Only %s is provided' % ', '.join(types))
            return fn(req, *args, **kwargs)
        return wrapper
    return decorator


# -- JSON out ------------------------------------------------------------------

def send_json(req, data, status=200, last_modified=None):
    """Fill in ``req.response`` with ``data`` as JSON. From 1.15 it carries
    ``cache-control: no-cache`` and ``last-modified`` (now if not given)."""
    response = req.response
    response.status = status
    response.body = json.dumps(data).encode('utf-8')
    response.content_type = 'application/json'
    set_modified(req, last_modified)
    return response


def send_empty(req, status=204, last_modified=None, modified_headers=False):
    """An empty response (201/204); cache headers only when asked, since
    Placement sends them on some bodiless responses and not others."""
    response = req.response
    response.status = status
    response.content_type = None
    if modified_headers:
        set_modified(req, last_modified)
    return response


def set_modified(req, last_modified=None):
    if req.version.matches((1, 15)):
        response = req.response
        response.cache_control = 'no-cache'
        response.last_modified = last_modified or timeutils.utcnow()


def pick_last_modified(last_modified, updated_at, created_at):
    """The later of ``last_modified`` and a row's ``updated_at or
    created_at`` (now, for a row that has neither)."""
    current = updated_at or created_at or timeutils.utcnow()
    if current.tzinfo is not None:
        current = timeutils.normalize_time(current)
    if last_modified is None:
        return current
    return max(last_modified, current)


# -- URLs ----------------------------------------------------------------------
# Relative to where the application is mounted (SCRIPT_NAME), as Placement.

def resource_provider_url(environ, uuid):
    return '%s/resource_providers/%s' % (environ.get('SCRIPT_NAME', ''), uuid)


def inventory_url(environ, uuid, resource_class=None):
    url = '%s/inventories' % resource_provider_url(environ, uuid)
    if resource_class:
        url = '%s/%s' % (url, resource_class)
    return url


def resource_class_url(environ, name):
    return '%s/resource_classes/%s' % (environ.get('SCRIPT_NAME', ''), name)


def trait_url(environ, name):
    return '%s/traits/%s' % (environ.get('SCRIPT_NAME', ''), name)
