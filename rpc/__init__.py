"""oslo.messaging for volapi: the transport, the versioned-object serializer,
the client that casts to volume workers and the server that runs a worker's
endpoints.

Like the other packages below ``volapi``, nothing here imports ``volapi``:
configuration arrives as an oslo.config ``ConfigOpts`` and the request
context class the server rebuilds is a parameter.
"""
import warnings

from oslo_service import backend as _service_backend


def _select_threading_backend():
    """oslo.messaging imports oslo.service, whose default backend is
    eventlet (deprecated, and it warns on import): choose the threading
    backend first. This runs before any module of this package, and so
    before oslo.messaging is imported through it."""
    # The backend imports futurist, which imports eventlet (installed for
    # oslo.service) only to learn whether it is there: nothing runs on it,
    # so that import's warning is not shown.
    with warnings.catch_warnings():
        warnings.filterwarnings('ignore', module='futurist')
        try:
            _service_backend.init_backend(
                _service_backend.BackendType.THREADING)
        except _service_backend.exceptions.BackendAlreadySelected:
            # A host process (oslo-config-generator loading oslo.messaging's
            # options first) chose before us; rpc runs on either backend.
            pass


_select_threading_backend()
