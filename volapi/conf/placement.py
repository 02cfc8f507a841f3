"""Options of volapi's placement part. Owned by whoever builds that part."""
from oslo_config import cfg

GROUP = "placement"
placement_opts = []


def register_opts(conf):
    conf.register_opts(placement_opts, group=GROUP)


def list_opts():
    return [(GROUP, placement_opts)]
