"""oslo.middleware's options that volapi.middleware.stack reads
([oslo_middleware], [cors], [healthcheck]); documented by oslo.middleware's
own oslo-config-generator namespace."""
from oslo_middleware import opts


def register_opts(conf):
    for group, options in (opts.list_opts_sizelimit() +
                           opts.list_opts_http_proxy_to_wsgi() +
                           opts.list_opts_cors() +
                           opts.list_opts_healthcheck()):
        conf.register_opts(options, group=group)


def list_opts():
    return []
