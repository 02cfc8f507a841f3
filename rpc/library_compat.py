"""The private attributes of oslo.messaging volapi uses, in one place;
tests/unit/test_rpc_library_compat.py fails when they change.

- ``oslo_messaging.transport._transport_opts``: the Opt objects of
  ``[DEFAULT] transport_url`` and ``control_exchange`` themselves.
  oslo.messaging registers them again whenever it makes a transport, and
  oslo.config refuses a second registration of an option not equal to the
  first, so volapi's default ``transport_url`` must be set on these very
  objects: the public ``oslo_messaging.opts.list_opts()`` returns copies,
  and ``set_transport_defaults()`` sets only ``control_exchange``.
- ``oslo_messaging._drivers.amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN``: how
  long an AMQP listener's thread first waits on its socket after a message,
  then 2, 4 ... times that, up to 5 s. The short first wait (1 ms) is for
  acks other threads queue for it, which an RPC listener never does: it
  acks each request itself before handing it on (``RpcAMQPListener``);
  volapi has no notification listener, whose acks do wait for it.
  Each wake-up is a trip through kombu's retry wrappers; at 1 ms, five or
  so per message took a third of a worker's Python time per volume
  created. No option sets it.
- ``MessageHandlingServer._executor_cls``: what a server makes its
  executor with, ``_executor_cls(max_workers=executor_thread_pool_size)``
  when it starts, then ``submit(fn, incoming)`` per message and
  ``shutdown(wait=True)`` in ``wait()``. The ``executor`` argument takes
  only 'threading' (futurist's pool) or 'eventlet'; oslo.messaging's own
  tests replace the class this way.
"""
from oslo_messaging import transport
from oslo_messaging._drivers import amqpdriver

# A listener's first wait after a message. A message arriving ends a wait
# at once; a server's stop() waits for the current one to end.
LISTENER_FIRST_WAIT = 0.1


def transport_opts():
    """oslo.messaging's own ``[DEFAULT]`` transport options (not copies)."""
    return list(transport._transport_opts)


def slow_listener_wake_ups():
    """Make AMQP listeners start their waits at LISTENER_FIRST_WAIT."""
    amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN = LISTENER_FIRST_WAIT


def use_executor(server, executor_class):
    """Make ``server`` (an oslo.messaging server, not started yet) run its
    messages on ``executor_class(max_workers=...)``, a
    concurrent.futures.Executor."""
    server._executor_cls = executor_class
