"""Options of volapi's api part. Owned by whoever builds that part."""
from oslo_config import cfg

GROUP = 'api'
api_opts = []


def register_opts(conf):
    conf.register_opts(api_opts, group=GROUP)


def list_opts():
    return [(GROUP, api_opts)]
