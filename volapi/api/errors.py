"""Errors of the volume API and their Cinder-compatible bodies.

Controllers raise the classes below, or let the exceptions of the layers
below through (the db's, the volume service's, a refused claim's);
:func:`to_fault` turns any exception into the status, message and headers
of a Cinder fault (``{"badRequest": {"code": 400, "message": "..."}}``).
Nothing here knows about pecan; ``hooks.FaultHook`` and the WSGI
middlewares use it.
"""
import json

from oslo_config import cfg
from oslo_log import log as logging
import webob.exc

from db import exceptions as db_exc
from objects import quota
from volapi import json_intake
from volapi import outage
from volapi import request_text
from volapi.volume import api as volume_api
from volapi.volume import claims
from volapi.volume.transitions import engine

LOG = logging.getLogger(__name__)

# Cinder's Fault._fault_names; any other status is a "computeFault".
FAULT_NAMES = {
    400: 'badRequest',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'itemNotFound',
    405: 'badMethod',
    409: 'conflictingRequest',
    413: 'overLimit',
    415: 'badMediaType',
    501: 'notImplemented',
    503: 'serviceUnavailable',
}
DEFAULT_FAULT_NAME = 'computeFault'
INTERNAL_ERROR_MESSAGE = ('The server has either erred or is incapable of '
                          'performing the requested operation.')


class APIError(Exception):
    """An error with an HTTP status; ``message`` is what the client reads."""

    status = 500
    default_message = INTERNAL_ERROR_MESSAGE

    def __init__(self, message=None, headers=None):
        self.message = message or self.default_message
        self.headers = headers or {}
        super().__init__(self.message)


class BadRequest(APIError):
    status = 400
    default_message = 'The server could not comply with the request.'


class Unauthorized(APIError):
    status = 401
    default_message = 'This server could not verify that you are authorized.'


class Forbidden(APIError):
    status = 403
    default_message = 'Policy does not allow this action to be performed.'


class NotFound(APIError):
    status = 404
    default_message = 'The resource could not be found.'


class MethodNotAllowed(APIError):
    status = 405
    default_message = 'The method is not allowed for this resource.'


class NotAcceptable(APIError):
    status = 406
    default_message = 'The requested version is not acceptable.'


class Conflict(APIError):
    status = 409
    default_message = 'There was a conflict when trying to complete your ' \
                      'request.'


class OverLimit(APIError):
    status = 413
    default_message = 'Request is too large.'


class UnsupportedMediaType(APIError):
    status = 415
    default_message = 'Unsupported media type.'


class NotImplementedYet(APIError):
    status = 501
    default_message = 'The requested function is not supported.'


class WorkerUnavailable(APIError):
    """No volume worker can serve the request now; it may succeed later."""
    status = 503

    def __init__(self, message):
        super().__init__(message, headers={'Retry-After': str(
            cfg.CONF.report_interval)})


_BY_STATUS = {cls.status: cls for cls in (
    BadRequest, Forbidden, NotFound, Conflict)}


def refused_body(exc):
    """The APIError answering a body json_intake refused, in Cinder's
    words."""
    if isinstance(exc, json_intake.UnsupportedMediaType):
        return UnsupportedMediaType('Unsupported Content-Type')
    if isinstance(exc, json_intake.Empty):
        return BadRequest('The server could not comply with the request '
                          'since it is either malformed or otherwise '
                          'incorrect.')
    if isinstance(exc, json_intake.Malformed):
        return BadRequest('Malformed message body: cannot understand JSON')
    if isinstance(exc, json_intake.TooDeep):
        return BadRequest('Malformed message body: %s' % exc)
    return BadRequest('Invalid input in the request body: %s.' % exc)


def _capitalised(text):
    return text[:1].upper() + text[1:]


def of_service(exc):
    """The APIError for an exception of the volume service (a refused
    transition or claim, a request it cannot serve, a worker failing);
    None for any other exception."""
    if isinstance(exc, engine.TransitionRefused):
        error = _BY_STATUS.get(exc.transition.http_status, BadRequest)
        return error(exc.refusal or 'Invalid %s: %s' % (exc.what, exc))
    if isinstance(exc, engine.NotAvailable):
        # Cinder's answer to a method the request's version lacks.
        return NotFound(str(exc))
    if isinstance(exc, volume_api.InvalidRequest):
        return BadRequest(str(exc))
    if isinstance(exc, volume_api.ReferenceNotFound):
        return NotFound(str(exc))
    if isinstance(exc, volume_api.WorkerUnavailable):
        return WorkerUnavailable(str(exc))
    if isinstance(exc, volume_api.BackendError):
        return APIError(str(exc))
    if isinstance(exc, quota.OverQuota):
        return over_limit(exc)
    if isinstance(exc, claims.NoRoom):
        # A pool without room: an extend or a snapshot goes where its
        # volume is.
        return BadRequest('Invalid volume: %s.' % exc)
    return None


def over_limit(exc):
    """The API error for objects.quota.OverQuota ``exc``, in Cinder's
    words (cinder.exception's quota errors): a 413 ``overLimit``."""
    if exc.resource == 'backups':
        return OverLimit('Maximum number of backups allowed (%d) exceeded'
                         % exc.limit)
    if exc.resource == 'backup_gigabytes':
        return OverLimit(
            'Requested backup exceeds allowed Backup gigabytes quota. '
            'Requested %(requested)sG, quota is %(quota)sG and '
            '%(consumed)sG has been consumed.' % {
                'requested': exc.requested, 'quota': exc.limit,
                'consumed': exc.in_use})
    # Per-type resources (volumes_<type> ...) in the words of their kind,
    # named as Cinder names them.
    if exc.resource == 'gigabytes' or exc.resource.startswith('gigabytes_'):
        return OverLimit(
            'Requested volume or snapshot exceeds allowed %(name)s quota. '
            'Requested %(requested)sG, quota is %(quota)sG and '
            '%(consumed)sG has been consumed.' % {
                'name': exc.resource, 'requested': exc.requested,
                'quota': exc.limit, 'consumed': exc.in_use})
    if exc.resource == 'per_volume_gigabytes':
        return OverLimit(
            'Requested volume size %dG is larger than maximum allowed limit '
            '%dG.' % (exc.requested, exc.limit))
    if exc.resource == 'groups':
        return OverLimit(
            'Maximum number of groups allowed (%d) exceeded' % exc.limit)
    if exc.resource == 'snapshots' or exc.resource.startswith('snapshots_'):
        return OverLimit(
            'Maximum number of snapshots allowed (%d) exceeded' % exc.limit)
    return OverLimit(
        "Maximum number of volumes allowed (%d) exceeded for quota '%s'."
        % (exc.limit, exc.resource))


def to_fault(exc):
    """(status, message, headers) for any exception."""
    if not isinstance(exc, APIError):
        exc = of_service(exc) or exc
    if isinstance(exc, APIError):
        return exc.status, exc.message, exc.headers
    if isinstance(exc, db_exc.ConditionNotMet):
        # Cinder's Invalid* errors: "Invalid volume: <reason>", 400.
        return 400, 'Invalid %s: %s' % (exc.what, exc), {}
    if isinstance(exc, db_exc.NotFound):
        return 404, _capitalised(str(exc)), {}
    if isinstance(exc, db_exc.ConcurrentUpdate):
        return 409, str(exc), {}
    if isinstance(exc, webob.exc.HTTPException):
        # pecan's own routing errors (404 for an unknown path, 405).
        message = exc.detail or exc.explanation
        return exc.code, message, {}
    unavailable = outage.unavailable(exc)
    if unavailable is not None:
        return 503, unavailable, {'Retry-After': outage.RETRY_AFTER}
    LOG.exception('Unexpected error in the volume API')
    return 500, INTERNAL_ERROR_MESSAGE, {}


def fault_body(status, message):
    name = FAULT_NAMES.get(status, DEFAULT_FAULT_NAME)
    return json.dumps({name: {'code': status,
                              'message': request_text.bounded(message)}}
                      ).encode()


def status_line(status):
    reason = webob.exc.status_map.get(status)
    title = reason.title if reason is not None else 'Error'
    return '%d %s' % (status, title)


def wsgi_fault(start_response, status, message, headers=()):
    """Answer a WSGI request with a Cinder fault (used before pecan)."""
    body = fault_body(status, message)
    start_response(status_line(status),
                   [('Content-Type', 'application/json'),
                    ('Content-Length', str(len(body)))] + list(headers))
    return [body]
