"""Options of volapi's rpc part. Owned by whoever builds that part."""
from oslo_config import cfg

GROUP = 'rpc'
rpc_opts = []


def register_opts(conf):
    conf.register_opts(rpc_opts, group=GROUP)


def list_opts():
    return [(GROUP, rpc_opts)]
