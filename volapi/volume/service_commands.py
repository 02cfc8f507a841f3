"""``volapi-manage service list | remove``: the services rows as an
operator sees them, and the removal of a service that is gone for good (a
decommissioned host), as ``cinder-manage service`` does it."""
import datetime

from oslo_config import cfg
from oslo_utils import timeutils

CONF = cfg.CONF
_ROW = '%-16s %-36s %-10s %-5s %-26s %s'


def _admin_context():
    from volapi import context as volapi_context
    import objects
    objects.register_all()
    return volapi_context.get_admin_context()


def list_services(args):
    """Every live services row: binary, host, enabled or not, up or
    down (``[DEFAULT] service_down_time``), last heartbeat, cluster."""
    import objects
    context = _admin_context()
    # Read first: a database that is down prints no header.
    services = objects.Service.get_all(context)
    print(_ROW % ('Binary', 'Host', 'Status', 'State', 'Updated At',
                  'Cluster'))
    for service in services:
        seen = service.last_seen()
        print(_ROW % (
            service.binary, service.host,
            'disabled' if service.disabled else 'enabled',
            ':-)' if service.is_up(CONF.service_down_time) else 'XXX',
            seen.replace(tzinfo=None).isoformat(' ') if seen else '-',
            service.cluster_name or ''))
    return 0


def remove_service(args):
    """Exit 0 removed; 2 no such service, or it is up (a live process
    would take its row back at its next heartbeat: stop it first)."""
    import objects
    context = _admin_context()
    binary, host = args.service_binary, args.service_host
    down_before = timeutils.utcnow() - datetime.timedelta(
        seconds=CONF.service_down_time)
    if objects.Service.remove(context, host, binary, down_before):
        print('Service %s on host %s removed.' % (binary, host))
        return 0
    if objects.Service.get_by_host_and_binary(context, host, binary) is None:
        print('Host not found. Failed to remove %s on %s.' % (binary, host))
    else:
        print('Service %s on host %s is up (it reported in the last %d '
              'seconds): stop it before removing it.'
              % (binary, host, CONF.service_down_time))
    return 2
