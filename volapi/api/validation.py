"""Request bodies: JSON parsing and jsonschema validation, the way Cinder's
``@validation.schema`` does it, with Cinder's error messages.

Use on a handler (after ``@rest.json``)::

    @validation.schema(schemas.create, min_version='3.53')
    @validation.schema(schemas.create_v30, max_version='3.52')
    def create(self, body): ...

The handler gets the parsed body as ``body=``; a decorator whose version
range does not contain the request's version does not validate.
"""
import functools
import json

import jsonschema
from jsonschema import validators
import pecan

from volapi.api import errors
from volapi.api import microversion
from volapi import json_depth

_BODY_KEY = 'volapi.body'
_NO_BODY = object()


def parse_body(request):
    """The request's JSON body (any JSON value), or raise a 4xx."""
    cached = request.environ.get(_BODY_KEY, _NO_BODY)
    if cached is not _NO_BODY:
        return cached
    content_type = request.headers.get('Content-Type')
    if content_type and content_type.split(';')[0].strip() not in (
            'application/json', ''):
        raise errors.UnsupportedMediaType('Unsupported Content-Type')
    raw = request.body
    if not raw:
        raise errors.BadRequest('The server could not comply with the '
                                'request since it is either malformed or '
                                'otherwise incorrect.')
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise errors.BadRequest(
            'Malformed message body: cannot understand JSON') from None
    if json_depth.too_deep(body):
        raise errors.BadRequest(
            'Malformed message body: nested more than %d levels deep'
            % json_depth.MAX_DEPTH)
    if _has_nul(body):
        raise errors.BadRequest('NUL characters are not allowed in the '
                                'request body.')
    request.environ[_BODY_KEY] = body
    return body


def parse_action(request):
    """(name, argument) of a ``POST .../action`` body: an object with
    exactly one key, the action; or raise a 4xx."""
    if request.method != 'POST':
        raise errors.MethodNotAllowed()
    body = parse_body(request)
    if not isinstance(body, dict) or len(body) != 1:
        raise errors.BadRequest(
            'The action body must be an object with exactly one key, the '
            'action.')
    (name, argument), = body.items()
    return name, argument


def _has_nul(value):
    if isinstance(value, str):
        return '\x00' in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _as_integer(instance):
    # Cinder accepts sizes as integers or strings of digits.
    if isinstance(instance, bool):
        return None
    if isinstance(instance, int):
        return instance
    if isinstance(instance, str) and instance.isdigit():
        return int(instance)
    return None


def _minimum(validator, minimum, instance, schema):
    value = _as_integer(instance) if isinstance(instance, str) else instance
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and value < minimum:
        yield jsonschema.ValidationError(
            '%s is less than the minimum of %s' % (instance, minimum))


def _maximum(validator, maximum, instance, schema):
    value = _as_integer(instance) if isinstance(instance, str) else instance
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and value > maximum:
        yield jsonschema.ValidationError(
            '%s is greater than the maximum of %s' % (instance, maximum))


_Validator = validators.extend(jsonschema.Draft4Validator, {
    'minimum': _minimum, 'maximum': _maximum})


def _message(error):
    path = error.absolute_path
    if path:
        return ('Invalid input for field/attribute %s. Value: %s. %s'
                % (path[-1], error.instance, error.message))
    return error.message


_FORMATS = jsonschema.FormatChecker()


# Schemas are module constants: each gets its validator once (making one
# costs more than validating a small body). The schema is kept alive with
# its validator, so its id cannot be taken by another object.
_validators = {}


def _validator_of(body_schema):
    known = _validators.get(id(body_schema))
    if known is None or known[0] is not body_schema:
        known = _validators[id(body_schema)] = (
            body_schema, _Validator(body_schema, format_checker=_FORMATS))
    return known[1]


def validate(body_schema, body):
    validator = _validator_of(body_schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is not None:
        raise errors.BadRequest(_message(error))


def schema(body_schema, min_version=None, max_version=None):
    """Validate the body against ``body_schema`` for requests within
    [min_version, max_version] and pass it to the handler as ``body``."""
    _Validator.check_schema(body_schema)
    validator = _Validator(body_schema, format_checker=_FORMATS)

    def decorator(handler):
        @functools.wraps(handler)
        def wrapper(*args, **kwargs):
            request = pecan.request
            body = parse_body(request)
            if microversion.api_version_matches(
                    request.api_version, min_version, max_version):
                error = jsonschema.exceptions.best_match(
                    validator.iter_errors(body))
                if error is not None:
                    raise errors.BadRequest(_message(error))
            kwargs['body'] = body
            return handler(*args, **kwargs)
        return wrapper
    return decorator
