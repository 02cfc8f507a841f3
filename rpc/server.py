"""Running endpoints: an oslo.messaging RPC server on threads (no
eventlet), so a blocking driver call holds one thread of the pool
(``executor_thread_pool_size``) and nothing else.

The pool is the standard library's ThreadPoolExecutor rather than the one
oslo.messaging's 'threading' executor names (futurist's), which starts a
new thread for each message until the pool is full, however few run at
once, and wakes each idle thread every second: a worker that had served
64 messages kept 64 threads that cost it a few ms of CPU per second idle,
and a share of each message's. The standard one starts a thread only when
none is idle and lets idle threads sleep until work comes; the bound, the
order and stop()'s wait for the messages taken are the same.
"""
import functools
from concurrent import futures

import oslo_messaging
from oslo_log import log as logging

from rpc import library_compat
from rpc import serializer as rpc_serializer

LOG = logging.getLogger(__name__)


def exposed_only(names):
    """An access policy (oslo.messaging takes a class) that dispatches only
    the methods named: an endpoint's other public methods (those its own
    process calls) are not for the broker's senders."""
    names = frozenset(names)

    class ExposedOnly(oslo_messaging.RPCAccessPolicyBase):
        def is_allowed(self, endpoint, method):
            return method in names

    return ExposedOnly


class RPCServer:
    """Listens on ``topic`` as ``server`` (and on the bare topic, for casts
    addressed to any worker) and dispatches to ``endpoints``: every public
    method, or only ``exposed`` (names) when given."""

    def __init__(self, transport, topic, server, endpoints, context_class,
                 exposed=None):
        library_compat.slow_listener_wake_ups()
        target = oslo_messaging.Target(topic=topic, server=server)
        self.topic, self.server = topic, server
        self._server = oslo_messaging.get_rpc_server(
            transport, target, endpoints,
            serializer=rpc_serializer.RequestContextSerializer(
                context_class=context_class),
            access_policy=(oslo_messaging.DefaultRPCAccessPolicy
                           if exposed is None else exposed_only(exposed)))
        library_compat.use_executor(self._server, functools.partial(
            futures.ThreadPoolExecutor,
            thread_name_prefix='rpc-%s' % server))

    def start(self):
        self._server.start()
        LOG.info('RPC server listening on topic %s as %s',
                 self.topic, self.server)

    def stop(self):
        """Stop taking messages and wait for the ones being handled."""
        self._server.stop()
        self._server.wait()
        LOG.info('RPC server %s stopped', self.server)
