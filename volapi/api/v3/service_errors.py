"""The volume service's exceptions as volume API errors.

db.exceptions (NotFound, ConcurrentUpdate) pass through to the fault hook;
a refused transition is answered with the status its table entry names.
"""
import contextlib

from oslo_config import cfg

from volapi.api import errors
from volapi.volume import api as volume_api
from volapi.volume.transitions import engine

_BY_STATUS = {cls.status: cls for cls in (
    errors.BadRequest, errors.Forbidden, errors.NotFound, errors.Conflict)}


class WorkerUnavailable(errors.APIError):
    """No volume worker can serve the request now; it may succeed later."""
    status = 503

    def __init__(self, message):
        super().__init__(message, headers={'Retry-After': str(
            cfg.CONF.report_interval)})


@contextlib.contextmanager
def translated():
    try:
        yield
    except engine.TransitionRefused as e:
        error = _BY_STATUS.get(e.transition.http_status, errors.BadRequest)
        raise error('Invalid %s: %s' % (e.what, e)) from None
    except engine.NotAvailable as e:
        # Cinder's answer to a method the request's version lacks.
        raise errors.NotFound(str(e)) from None
    except volume_api.InvalidRequest as e:
        raise errors.BadRequest(str(e)) from None
    except volume_api.ReferenceNotFound as e:
        raise errors.NotFound(str(e)) from None
    except volume_api.WorkerUnavailable as e:
        raise WorkerUnavailable(str(e)) from None
    except volume_api.BackendError as e:
        raise errors.APIError(str(e)) from None
