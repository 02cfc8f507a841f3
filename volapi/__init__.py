"""volapi: a block-volume service whose every state change is one compare-and-swap."""

# Before any module of volapi imports oslo.messaging: rpc selects
# oslo.service's threading backend (no eventlet).
import rpc  # noqa: E402,F401
