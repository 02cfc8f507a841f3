"""Options every volapi process reads: where state lives, who we are."""
import os
import socket

from oslo_config import cfg


def _default_state_path():
    # Not /var/lib: the embedded default must run as an ordinary user.
    base = os.environ.get('XDG_STATE_HOME') or os.path.expanduser('~/.local/state')
    return os.path.join(base, 'volapi')


core_opts = [
    cfg.StrOpt('state_path',
               default=_default_state_path(),
               sample_default='~/.local/state/volapi',
               help='Directory for the SQLite database, volume files and '
                    'other state of the embedded default deployment.'),
    cfg.StrOpt('host',
               default=socket.gethostname(),
               sample_default='<hostname>',
               help='Name of this host, used to address volume workers and '
                    'to record who is working on what.'),
]


def register_opts(conf):
    conf.register_opts(core_opts)


def list_opts():
    return [(None, core_opts)]
