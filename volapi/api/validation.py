"""Request bodies: JSON parsing and jsonschema validation, the way Cinder's
``@validation.schema`` does it, with Cinder's error messages.

Use on a handler (after ``@rest.json``)::

    @validation.schema(schemas.create,
                       min_version=mv.SUPPORT_VOLUME_SCHEMA_CHANGES)
    @validation.schema(schemas.create_v30,
                       max_version=mv.prior(mv.SUPPORT_VOLUME_SCHEMA_CHANGES))
    def create(self, body): ...

The handler gets the parsed body as ``body=``; a decorator whose version
range does not contain the request's version does not validate.
"""
import functools
import json
import math

import jsonschema
from jsonschema import validators
import pecan

from volapi.api import errors
from volapi.api import microversion
from volapi import json_intake
from volapi import request_text

_BODY_KEY = 'volapi.body'
# Longer messages from jsonschema quote too much of the value.
MAX_MESSAGE = 200
_NO_BODY = object()


def parse_body(request):
    """The request's JSON body (any JSON value), or raise a 4xx."""
    cached = request.environ.get(_BODY_KEY, _NO_BODY)
    if cached is not _NO_BODY:
        return cached
    try:
        json_intake.require_json(request.headers.get('Content-Type'),
                                 lenient=True)
        body = json_intake.read(request.body)
    except json_intake.Refused as exc:
        raise errors.refused_body(exc) from None
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


def _as_number(instance):
    # Cinder accepts sizes as integers or strings of digits; a string of
    # too many digits to convert is beyond every maximum.
    if isinstance(instance, str):
        number = request_text.integer(instance)
        if number is None and request_text.is_integer_text(instance):
            return math.inf if instance[0] != '-' else -math.inf
        return number
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        return instance
    return None


def _minimum(validator, minimum, instance, schema):
    value = _as_number(instance)
    if value is not None and value < minimum:
        yield jsonschema.ValidationError(
            '%s is less than the minimum of %s'
            % (request_text.excerpt(instance), minimum))


def _maximum(validator, maximum, instance, schema):
    value = _as_number(instance)
    if value is not None and value > maximum:
        yield jsonschema.ValidationError(
            '%s is greater than the maximum of %s'
            % (request_text.excerpt(instance), maximum))


def _max_serialized_length(validator, length, instance, schema):
    # What is stored as JSON text must fit its column.
    size = len(json.dumps(instance))
    if size > length:
        yield jsonschema.ValidationError(
            'is %d characters long as JSON, more than %d' % (size, length))


_Validator = validators.extend(jsonschema.Draft4Validator, {
    'minimum': _minimum, 'maximum': _maximum,
    'maxSerializedLength': _max_serialized_length})


def _message(error):
    if isinstance(error.cause, InvalidName):
        return "An invalid 'name' value was provided. %s" % error.cause
    path = error.absolute_path
    if path:
        return ('Invalid input for field/attribute %s. Value: %s. %s'
                % (request_text.excerpt(path[-1]),
                   request_text.excerpt(error.instance), _short(error)))
    return _short(error)


def _short(error):
    # jsonschema's messages quote the whole instance ("'xxx...' is too
    # long"): a huge value would be echoed in full.
    message = error.message
    if len(message) <= MAX_MESSAGE:
        return message
    quoted = repr(error.instance)
    if message.startswith(quoted):
        return '%r%s' % (request_text.excerpt(error.instance),
                         request_text.bounded(message[len(quoted):],
                                              MAX_MESSAGE))
    return request_text.bounded(message, MAX_MESSAGE)


_FORMATS = jsonschema.FormatChecker()


@_FORMATS.checks('mysql_text')
def _fits_a_text_column(value):
    # What a TEXT column holds on MySQL, 64 KiB (Cinder's check); bodies
    # hold no lone surrogates (volapi.json_intake), so any str encodes.
    return not isinstance(value, str) or \
        len(value.encode('utf-8')) <= 65535


class InvalidName(ValueError):
    """A name Cinder's format ``name_skip_leading_trailing_spaces``
    refuses; the answer is Cinder's InvalidName with its reason."""


@_FORMATS.checks('name_skip_leading_trailing_spaces', raises=InvalidName)
def _name_skip_leading_trailing_spaces(value):
    if not isinstance(value, str):
        return True
    if not value:
        raise InvalidName("The 'name' can not be None.")
    value = value.strip()
    if not value:
        raise InvalidName("The 'name' can not be empty.")
    if len(value) > 255:
        raise InvalidName(
            "The 'name' can not be greater than 255 characters.")
    return True


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
