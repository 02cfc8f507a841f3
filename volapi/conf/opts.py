"""Entry points for oslo-config-generator (see etc/volapi-config-generator.conf)."""
import itertools

from volapi.conf import api
from volapi.conf import backup
from volapi.conf import core
from volapi.conf import database
from volapi.conf import placement
from volapi.conf import pools
from volapi.conf import quota
from volapi.conf import rpc
from volapi.conf import volume

# Each module below exports list_opts() -> [(group, [opts])]. A new group
# registers itself in volapi/conf/__init__.py and is listed here.
_MODULES = [core, database, api, backup, volume, rpc, placement, pools, quota]


def list_opts():
    groups = {}
    for group, opts in itertools.chain.from_iterable(
            m.list_opts() for m in _MODULES):
        groups.setdefault(group, []).extend(opts)
    return sorted(groups.items(), key=lambda item: item[0] or '')


def set_defaults():
    from oslo_db import options as db_options
    from oslo_config import cfg
    db_options.set_defaults(cfg.CONF, connection=database._DEFAULT_CONNECTION)
