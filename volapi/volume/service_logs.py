"""The log levels of volapi's processes, read and set through the API
(``service-get-log`` / ``service-set-log``, 3.32): the API process that
answers the request (each API process has its own, as each of Cinder's
has), and every volume worker that is up, by RPC to the worker itself
(its ``host@backend``, not its cluster: each member has its levels)."""
import oslo_messaging
from oslo_config import cfg

from objects import service as service_obj
from rpc import transport as rpc_transport
from volapi import log_levels
from volapi.volume import api as volume_api

CONF = cfg.CONF
API_BINARY = 'volapi-api'
# A request's binary -> (the API process?, the volume workers?): Cinder's
# names and volapi's; Cinder's scheduler and backup services have no
# volapi process (the API schedules, the volume workers back up).
_CHOSEN = {None: (True, True), '': (True, True), '*': (True, True),
           'cinder-api': (True, False), API_BINARY: (True, False),
           service_obj.CINDER_VOLUME_BINARY: (False, True),
           service_obj.VOLUME_BINARY: (False, True),
           'cinder-scheduler': (False, False),
           'cinder-backup': (False, False)}
BINARIES = tuple(name for name in _CHOSEN if name)


def _workers(context, server):
    """The volume workers that are up, on ``server`` (a host or cluster
    name) if given."""
    return [service for service in service_obj.Service.get_all(
        context, binary=service_obj.VOLUME_BINARY)
        if service.is_up(CONF.service_down_time)
        and server in (None, '', service.host, service.cluster_name)]


def _unavailable(service, why):
    return volume_api.WorkerUnavailable(
        'Unable to reach the volume worker %s: %s.' % (service.host, why))


def get(context, binary=None, server=None, prefix=None):
    """[{'host', 'binary', 'levels': {logger: level}}] of each process
    chosen."""
    api, workers = _CHOSEN[binary]
    found = []
    if api and server in (None, '', CONF.host):
        found.append({'host': CONF.host, 'binary': API_BINARY,
                      'levels': log_levels.get(prefix)})
    for service in _workers(context, server) if workers else ():
        try:
            levels = volume_api.worker_client().get_log_levels(
                context, service.host, prefix)
        except oslo_messaging.MessagingTimeout:
            raise _unavailable(service, 'it did not answer') from None
        except rpc_transport.SEND_FAILURES:
            raise _unavailable(service, 'the message broker is '
                                        'unavailable') from None
        found.append({'host': service.host, 'binary': service.binary,
                      'levels': levels})
    return found


def set_level(context, level, binary=None, server=None, prefix=None):
    """Set ``level`` on the loggers named ``prefix``... of each process
    chosen (the API's whatever ``server``, as Cinder's)."""
    api, workers = _CHOSEN[binary]
    if api:
        log_levels.set_level(prefix, level)
    for service in _workers(context, server) if workers else ():
        try:
            volume_api.worker_client().set_log_levels(
                context, service.host, prefix, level)
        except rpc_transport.SEND_FAILURES:
            raise _unavailable(service, 'the message broker is '
                                        'unavailable') from None
