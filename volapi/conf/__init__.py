"""volapi's configuration: one ConfigOpts with every option registered.

Each group lives in a module of its own; ``list_opts`` in ``opts.py`` gathers
them for oslo-config-generator.
"""
from oslo_config import cfg

from volapi.conf import core
from volapi.conf import database

CONF = cfg.CONF

core.register_opts(CONF)
database.register_opts(CONF)
