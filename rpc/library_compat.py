"""The one private attribute of oslo.messaging volapi uses, in one place;
tests/unit/test_rpc_library_compat.py fails when it changes.

- ``oslo_messaging.transport._transport_opts``: the Opt objects of
  ``[DEFAULT] transport_url`` and ``control_exchange`` themselves.
  oslo.messaging registers them again whenever it makes a transport, and
  oslo.config refuses a second registration of an option not equal to the
  first, so volapi's default ``transport_url`` must be set on these very
  objects: the public ``oslo_messaging.opts.list_opts()`` returns copies,
  and ``set_transport_defaults()`` sets only ``control_exchange``.
"""
from oslo_messaging import transport


def transport_opts():
    """oslo.messaging's own ``[DEFAULT]`` transport options (not copies)."""
    return list(transport._transport_opts)
