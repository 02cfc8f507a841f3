"""volapi's configuration: one ConfigOpts with every option registered.

Each group lives in a module of its own; ``list_opts`` in ``opts.py`` gathers
them for oslo-config-generator.
"""
from oslo_config import cfg

from volapi.conf import api
from volapi.conf import backup
from volapi.conf import core
from volapi.conf import database
from volapi.conf import middleware
from volapi.conf import placement
from volapi.conf import pools
from volapi.conf import quota
from volapi.conf import rpc
from volapi.conf import volume

CONF = cfg.CONF

for _module in (core, database, api, backup, volume, rpc, placement, pools,
                quota, middleware):
    _module.register_opts(CONF)
