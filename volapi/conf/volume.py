"""Options of volapi's volume part. Owned by whoever builds that part."""
from oslo_config import cfg

GROUP = 'volume'
volume_opts = []


def register_opts(conf):
    conf.register_opts(volume_opts, group=GROUP)


def list_opts():
    return [(GROUP, volume_opts)]
