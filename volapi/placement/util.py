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
from volapi.placement import schema_check
from volapi.placement.schemas import common as schema_common
from volapi import json_intake
from volapi import request_text

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
    body = request_text.bounded(webob.exc.strip_tags(body))
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


# Every amount beyond what an inventory can hold (MAX_INT) is read as this
# one: digits past 64 bits' worth are not converted at all.
BEYOND_ANY_INVENTORY = schema_common.MAX_INT + 1


# -- JSON in -------------------------------------------------------------------

def extract_json(body, schema):
    """Parse a request body and validate it against ``schema``; 400 with
    Placement's wording if either fails."""
    try:
        data = json_intake.read(body, constants=False)
    except json_intake.Refused as exc:
        raise errors.refused_body(exc) from None
    validate(data, schema, 'JSON does not validate: %s')
    return data


_validators = {}


def _validator(schema):
    """(jsonschema validator, compiled check or None) of ``schema``.

    jsonschema.validate() checks the schema itself on every call, which
    costs far more than the validation; schemas are module constants, so
    each is checked and compiled once.
    """
    entry = _validators.get(id(schema))
    if entry is None or entry[0] is not schema:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        entry = _validators[id(schema)] = (
            schema, cls(schema, format_checker=FORMAT_CHECKER),
            schema_check.compile_schema(schema, FORMAT_CHECKER))
    return entry[1], entry[2]


def validate(data, schema, message):
    """400 with ``message % error`` unless ``data`` fits ``schema``; the
    error reported is the one jsonschema.validate() would report."""
    validator, check = _validator(schema)
    if check is not None and check(data):
        return
    # Refused, or not compiled: jsonschema decides, and names the error.
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        raise webob.exc.HTTPBadRequest(message % error)


def validate_query_params(req, schema):
    """Validate the query string (last value of each key) against
    ``schema``."""
    message = 'Invalid query string parameters: %s'
    try:
        params = dict(req.GET)
    except UnicodeDecodeError as exc:
        raise webob.exc.HTTPBadRequest(message % exc)
    problem = request_text.unstorable_message(list(req.GET.values()))
    if problem:
        raise webob.exc.HTTPBadRequest(message % problem)
    validate(params, schema, message)


def require_json(fn):
    """Handler decorator: 415 unless the body is JSON."""
    @functools.wraps(fn)
    def wrapper(req, *args, **kwargs):
        try:
            json_intake.require_json(req.content_type)
        except json_intake.UnsupportedMediaType as exc:
            raise errors.refused_body(exc) from None
        return fn(req, *args, **kwargs)
    return wrapper


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
    return send_json_text(req, json.dumps(data).encode('utf-8'), status,
                          last_modified)


def send_json_text(req, text, status=200, last_modified=None):
    """send_json for a body already encoded (``text``: bytes)."""
    response = req.response
    response.status = status
    response.body = text
    response.content_type = 'application/json'
    set_modified(req, last_modified)
    return response


def send_empty(req, status=204):
    """An empty response (201/204). Cache headers, where Placement sends
    them on one, are the handler's: ``set_modified``."""
    response = req.response
    response.status = status
    response.content_type = None
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


# -- query-string parameters shared by list handlers ----------------------------

def normalize_resources_qs_param(value):
    """``VCPU:2,MEMORY_MB:1024`` -> {'VCPU': 2, 'MEMORY_MB': 1024}."""
    if value.strip() == '':
        raise webob.exc.HTTPBadRequest(
            'Badly formed resources parameter. Expected resources query '
            'string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. '
            'Got: empty string.')
    result = {}
    for part in value.split(','):
        try:
            name, amount = part.split(':')
        except ValueError:
            raise webob.exc.HTTPBadRequest(
                'Badly formed resources parameter. Expected resources query '
                'string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024. '
                'Got: %s.' % part)
        number = request_text.integer(amount)
        if number is None and request_text.is_integer_text(amount) and \
                not amount.startswith('-'):
            number = BEYOND_ANY_INVENTORY
        if number is None:
            raise webob.exc.HTTPBadRequest(
                'Requested resource %s expected positive integer amount. '
                'Got: %s.' % (name, request_text.excerpt(amount)))
        # Callers match nothing beyond MAX_INT (no database takes every
        # integer).
        amount = min(number, BEYOND_ANY_INVENTORY)
        if amount < 1:
            raise webob.exc.HTTPBadRequest(
                'Requested resource %s requires amount >= 1. Got: %d.'
                % (name, amount))
        result[name] = amount
    return result


def normalize_traits_qs_param(value, allow_forbidden=False,
                              allow_any_traits=False):
    """One ``required`` value as (list of sets of names, each "any of";
    set of forbidden names): ``A,!B`` or (``allow_any_traits``) ``in:A,B``.
    Placement strips any number of leading ``!`` from a forbidden name."""
    if value.startswith('in:'):
        if not allow_any_traits:
            raise webob.exc.HTTPBadRequest(
                "Invalid query string parameters: The format "
                "'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since "
                "microversion 1.39. Got: %s" % value)
        any_traits = {part.strip() for part in value[3:].split(',')}
        if not all(any_traits):
            raise webob.exc.HTTPBadRequest(
                "Invalid query string parameters: Expected 'required' "
                "parameter value of the form: in:HW_CPU_X86_VMX,"
                "CUSTOM_MAGIC. Got an empty trait in: %s" % value)
        if any(name.startswith('!') for name in any_traits):
            raise webob.exc.HTTPBadRequest(
                "Invalid query string parameters: The format "
                "'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not support "
                "forbidden traits. Got: %s" % value)
        return [any_traits], set()
    names = [part.strip() for part in value.split(',')]
    forbidden = {n.lstrip('!') for n in names if n.startswith('!')}
    if not all(names) or not all(forbidden):
        form = 'HW_CPU_X86_VMX,!CUSTOM_MAGIC' if allow_forbidden \
            else 'HW_CPU_X86_VMX,CUSTOM_MAGIC'
        raise webob.exc.HTTPBadRequest(
            "Invalid query string parameters: Expected 'required' "
            "parameter value of the form: %s. Got an empty trait in: %s"
            % (form, value))
    if forbidden and not allow_forbidden:
        raise webob.exc.HTTPBadRequest(
            "Invalid query string parameters: Expected 'required' "
            "parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC. "
            "Got: %s" % value)
    return [{n} for n in names if not n.startswith('!')], forbidden


def normalize_required_traits(req, suffix=''):
    """The ``required<suffix>`` parameter(s) of a request at its version,
    as (list of sets of trait names, each "any of"; set of forbidden
    names).

    1.18: names, all required; 1.22: ``!NAME`` forbids; 1.39: the
    parameter may repeat (before, the last one counts) and ``in:A,B``
    requires any of A and B.
    """
    version = req.version
    allow_forbidden = version.matches((1, 22))
    allow_any_traits = version.matches((1, 39))
    values = req.GET.getall('required' + suffix)
    if not allow_any_traits:
        values = values[-1:]
    required, forbidden = [], set()
    for value in values:
        names, not_names = normalize_traits_qs_param(
            value, allow_forbidden, allow_any_traits)
        required += names
        forbidden |= not_names
    return required, forbidden


def normalize_member_of_qs_params(req, suffix=''):
    """The ``member_of<suffix>`` parameter(s): (list of sets of aggregate
    uuids, each "in any of"; set of forbidden aggregate uuids).

    1.3: one ``UUID`` or ``in:UUID,UUID``; 1.24: repeatable; 1.32:
    ``!UUID`` / ``!in:UUID,UUID`` forbid."""
    version = req.version
    values = req.GET.getall('member_of' + suffix)
    if not version.matches((1, 24)) and len(values) > 1:
        raise webob.exc.HTTPBadRequest(
            'Multiple member_of%s parameters are not supported' % suffix)
    allow_forbidden = version.matches((1, 32))
    required, forbidden = [], set()
    for value in values:
        uuids, not_uuids = _member_of_value(value)
        if uuids:
            required.append(uuids)
        if not_uuids:
            if not allow_forbidden:
                raise webob.exc.HTTPBadRequest(
                    'Forbidden member_of%s parameters are not supported '
                    'in the specified microversion' % suffix)
            forbidden |= not_uuids
    return required, forbidden


def _member_of_value(value):
    if ',' in value and not (value.startswith('in:')
                             or value.startswith('!in:')):
        raise webob.exc.HTTPBadRequest(
            "Multiple values for 'member_of' must be prefixed with the "
            "'in:' or '!in:' keyword using the valid microversion. Got: %s"
            % value)
    required = forbidden = set()
    if value.startswith('!in:'):
        forbidden = set(value[4:].split(','))
    elif value.startswith('!'):
        forbidden = {value[1:]}
    elif value.startswith('in:'):
        required = set(value[3:].split(','))
    else:
        required = {value}
    for uuid in required | forbidden:
        if not uuidutils.is_uuid_like(uuid):
            raise webob.exc.HTTPBadRequest(
                "Invalid query string parameters: Expected 'member_of' "
                "parameter to contain valid UUID(s). Got: %s" % uuid)
    return required, forbidden


def normalize_in_tree_qs_param(value):
    """An ``in_tree`` value: a provider uuid."""
    uuid = value.strip()
    if not uuidutils.is_uuid_like(uuid):
        raise webob.exc.HTTPBadRequest(
            "Invalid query string parameters: Expected 'in_tree' parameter "
            "to be a format of uuid. Got: %s" % value)
    return uuid
