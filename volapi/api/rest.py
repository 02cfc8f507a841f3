"""What every volume API controller uses: the request class, the JSON
responder, the per-method dispatch and collection bases, and the hook that
turns exceptions into Cinder faults.

Controllers are plain pecan object-dispatch classes (no RestController, no
templates: both cost per request). A handler returns a dict (or None) and
is decorated ``@rest.json(status)``; read the caller with
``pecan.request.ctx`` and the version with ``pecan.request.api_version``.
"""
import datetime
import functools
import json as jsonlib

import pecan
from pecan import hooks
import webob

from volapi.api import auth
from volapi.api import errors
from volapi.api import microversion
from volapi.api import pecan_compat
from volapi import json_intake


_JSON_KEY = 'volapi.json'


class Request(pecan_compat.FastRequest):

    @property
    def json(self):
        """webob's ``json``, parsed once: pecan reads it twice per request
        (to pass a JSON object's keys as arguments). Parsed from the bytes,
        as validation.parse_body reads the body, whatever charset the
        Content-Type names (Cinder's parser ignores it too): decoding with
        a charset Python has no text codec for was a 500."""
        parsed = self.environ.get(_JSON_KEY)
        if parsed is None:
            try:
                parsed = (json_intake.parse(self.body), None)
            except json_intake.Malformed as e:
                # A ValueError: pecan then reads no arguments from the
                # body, and parse_body answers for it.
                parsed = (None, e)
            self.environ[_JSON_KEY] = parsed
        value, error = parsed
        if error is not None:
            raise error
        return value

    json_body = json

    @property
    def ctx(self):
        """The volapi RequestContext of the caller."""
        return self.environ[auth.CONTEXT_KEY]

    @property
    def api_version(self):
        """The requested microversion (comparable with (3, 45) tuples)."""
        return self.environ[microversion.ENVIRON_KEY]

    def api_version_matches(self, min_version=None, max_version=None):
        return microversion.api_version_matches(self.api_version,
                                                min_version, max_version)


def _default(value):
    if isinstance(value, datetime.datetime):
        # Cinder's format: naive UTC with microseconds.
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(
                tzinfo=None)
        return value.isoformat(timespec='microseconds')
    raise TypeError('%r is not JSON serializable' % (value,))


def dumps(data):
    return jsonlib.dumps(data, default=_default).encode()


def respond(data, status=200, headers=None):
    """The pecan response carrying ``data`` as JSON (no body for None)."""
    response = pecan.response
    response.status = status
    if data is None:
        response.body = b''
        response.content_type = None
    else:
        response.body = dumps(data)
        response.content_type = 'application/json'
    if headers:
        response.headers.update(headers)
    return response


def json(status=200):
    """Decorator: the handler's dict (or None) becomes the JSON response."""
    def decorator(handler):
        @functools.wraps(handler)
        def wrapper(*args, **kwargs):
            return respond(handler(*args, **kwargs), status)
        return wrapper
    return decorator


def by_method():
    """A pecan generic handler for one path: ``@handler.when(method=...)``
    names the handler of each method; any other method is a 405. Each
    path gets its own (``index = rest.by_method()``)."""
    @pecan.expose(generic=True)
    def refuse(self, *args, **kwargs):
        raise errors.MethodNotAllowed()
    return refuse


class Collection:
    """A controller whose next path segment names a member: the
    subclass's ``member(segment)`` makes the controller serving it."""

    @pecan.expose()
    def _lookup(self, segment, *remainder):
        return self.member(segment), remainder


class Listing(Collection):
    """A Collection with Cinder's two lists, ``GET .../`` (the subclass
    routes it) and ``GET .../detail``: the subclass's ``listed(detailed)``
    answers both."""

    detail = by_method()

    @detail.when(method='GET')
    @json(200)
    def get_detail(self, **params):
        return self.listed(detailed=True)


class FaultHook(hooks.PecanHook):
    """Any exception out of a controller (or pecan's routing) becomes a
    Cinder fault; unexpected ones are logged and answered with a 500."""

    def on_error(self, state, exc):
        status, message, headers = errors.to_fault(exc)
        response = webob.Response(body=errors.fault_body(status, message),
                                  status=status,
                                  content_type='application/json',
                                  charset=None)
        for name, value in headers.items():
            response.headers[name] = value
        if status == 405 and isinstance(exc, webob.exc.HTTPException):
            allow = exc.headers.get('Allow')
            if allow:
                response.headers['Allow'] = allow
        return response
