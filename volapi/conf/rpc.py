"""Messaging options: oslo.messaging's own ``[DEFAULT]`` options, with volapi's
defaults.

The embedded default is the in-process ``fake://`` transport: API and worker
then share one process (``volapi-all``). Production sets
``transport_url = rabbit://user:password@host:5672/``.
"""
import oslo_messaging
from oslo_config import cfg

from rpc import library_compat

DEFAULT_TRANSPORT_URL = 'fake://'
CONTROL_EXCHANGE = 'volapi'

# The defaults go on oslo.messaging's Opt objects themselves (as its public
# set_transport_defaults does for control_exchange), not through
# ConfigOpts.set_default: they must survive ConfigOpts.reset(), and the
# options oslo.messaging registers again when it makes a transport must be
# equal to ours (rpc/library_compat.py).
oslo_messaging.set_transport_defaults(control_exchange=CONTROL_EXCHANGE)
cfg.set_defaults(library_compat.transport_opts(),
                 transport_url=DEFAULT_TRANSPORT_URL)


rpc_opts = [
    cfg.StrOpt('volume_topic', default='volapi-volume',
               help='The message topic volume workers listen on and the API '
                    'casts to. Deployments sharing one broker (or vhost) '
                    'must use different topics.'),
]


def register_opts(conf):
    conf.register_opts(library_compat.transport_opts())
    conf.register_opts(rpc_opts)


def list_opts():
    # oslo.messaging's options are in the sample under its own namespace
    # (with our defaults, which are set on import of this module).
    return [(None, rpc_opts)]
