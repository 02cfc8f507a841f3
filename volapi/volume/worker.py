"""A volume worker, assembled: driver, services row and heartbeat, start-up
cleanup, RPC server running the manager, periodic cleanup.

``volapi-volume`` runs one; ``volapi-all`` runs one next to the API.
"""
from oslo_log import log as logging

import objects
from rpc import server as rpc_server
from rpc import transport as rpc_transport
from volapi import context as volapi_context
from volapi import service as volapi_service
from volapi.volume import cleanup
from volapi.volume import drivers
from volapi.volume import manager as volume_manager
from volapi.volume import pools

LOG = logging.getLogger(__name__)

BINARY = 'volapi-volume'


class VolumeWorker:

    def __init__(self, conf, transport=None):
        self.conf = conf
        self.transport = transport
        self.context = volapi_context.get_admin_context()
        # The RPC server name; volumes created here get "<server>#<pool>".
        self.server_name = '%s@%s' % (conf.host, conf.volume.backend_name)
        self.driver = None
        self.heartbeat = None
        self.manager = None
        self._rpc = None
        self._periodic_cleanup = None
        self._periodic_report = None

    def start(self, unclaimed_timeout=None):
        """Start serving. ``unclaimed_timeout`` overrides, for the start-up
        cleanup only, how old an unclaimed operation must be to count as
        lost (volapi-all passes 0: its in-memory messages died with the
        previous process)."""
        objects.register_all()
        self.driver = drivers.load(self.conf)
        self.driver.do_setup()
        # Pools are on placement before this worker takes any message:
        # volume create schedules onto them.
        reporter = pools.PoolReporter(self.context, self.conf, self.driver,
                                      self.server_name)
        reporter.report()
        self.heartbeat = volapi_service.ServiceHeartbeat(
            self.context, self.server_name, BINARY, self.conf.volume_topic,
            self.conf.report_interval).start()
        service_id = self.heartbeat.service_id
        repaired = cleanup.clean_stale(
            self.context, cleaner_id=service_id, own_service_id=service_id,
            unclaimed_timeout=unclaimed_timeout)
        LOG.info('start-up cleanup repaired %d operation(s)', len(repaired))
        self.manager = volume_manager.VolumeManager(
            self.driver, self.heartbeat,
            host='%s#%s' % (self.server_name, self.driver.pool_name))
        self._rpc = rpc_server.RPCServer(
            self.transport or rpc_transport.get_transport(self.conf),
            self.conf.volume_topic, self.server_name, [self.manager],
            context_class=volapi_context.RequestContext)
        self._rpc.start()
        self._periodic_cleanup = volapi_service.Periodic(
            'cleanup', self.conf.volume.cleanup_interval,
            self._clean).start()
        self._periodic_report = volapi_service.Periodic(
            'pool report', self.conf.volume.capacity_report_interval,
            reporter.report).start()
        return self

    def _clean(self):
        service_id = self.heartbeat.service_id
        repaired = cleanup.clean_stale(
            self.context, cleaner_id=service_id,
            busy=(service_id, self.manager.busy()))
        if repaired:
            LOG.warning('periodic cleanup repaired %d operation(s)',
                        len(repaired))

    def stop(self):
        """Stop taking messages, finish the operations in progress (their
        transitions complete), then stop heartbeating."""
        for part in (self._periodic_report, self._periodic_cleanup,
                     self._rpc, self.heartbeat):
            if part is not None:
                part.stop()
        LOG.info('volume worker %s stopped', self.server_name)
