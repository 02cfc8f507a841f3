"""The process's oslo.messaging transport, from ``[DEFAULT] transport_url``.

``fake://`` (the embedded default) passes messages in memory between the
threads of one process; ``rabbit://`` is production. One transport per URL is
kept for the life of the process: it owns connection pools.
"""
import threading

import kombu.exceptions
import oslo_messaging
from oslo_config import cfg

# What a send raises when the broker cannot take the message: delivery
# failed after the retries, or (rabbit) no connection could be made at all,
# which oslo.messaging lets through from kombu.
SEND_FAILURES = (oslo_messaging.MessageDeliveryFailure,
                 kombu.exceptions.OperationalError)

_lock = threading.Lock()
_transports = {}


def get_transport(conf=None, url=None):
    """The shared RPC transport for ``url`` (default: conf.transport_url)."""
    conf = conf or cfg.CONF
    url = url or conf.transport_url
    with _lock:
        transport = _transports.get(url)
        if transport is None:
            transport = oslo_messaging.get_rpc_transport(conf, url=url)
            _transports[url] = transport
        return transport


def cleanup():
    """Close every transport this process made (at shutdown, in tests)."""
    with _lock:
        transports = list(_transports.values())
        _transports.clear()
    for transport in transports:
        transport.cleanup()
