"""A volume worker, assembled: driver, services row and heartbeat, start-up
reconciliation, RPC servers running the manager (as this worker and as its
cluster), periodic reconciliation (operations re-driven, holds nobody
finished rolled back).

``volapi-volume`` runs one; ``volapi-all`` runs one next to the API.
"""
from oslo_log import log as logging

import objects
from objects import service as service_obj
from rpc import server as rpc_server
from rpc import transport as rpc_transport
from rpc import volume as rpc_volume
from volapi import context as volapi_context
from volapi import service as volapi_service
from volapi.volume import cluster
from volapi.volume import drivers
from volapi.volume import holds
from volapi.volume import manager as volume_manager
from volapi.volume import pools
from volapi.volume import reconciler
from volapi.volume import reshape

LOG = logging.getLogger(__name__)

BINARY = service_obj.VOLUME_BINARY


class VolumeWorker:

    def __init__(self, conf, transport=None):
        self.conf = conf
        self.transport = transport
        self.context = volapi_context.get_admin_context()
        # The RPC server name; volumes created here get "<server>#<pool>".
        self.server_name = '%s@%s' % (conf.host, conf.volume.backend_name)
        # Its cluster's name, cluster@backend (None: a cluster of its own).
        self.cluster_name = cluster.cluster_of(conf)
        self.driver = None
        self.heartbeat = None
        self.manager = None
        self.reconciler = None
        self.holds = None
        self._rpc = []
        self._periodic_cleanup = None
        self._periodic_report = None

    def start(self, unclaimed_timeout=None):
        """Start serving. ``unclaimed_timeout`` overrides, for the start-up
        reconciliation only, how old an unclaimed operation must be to count as
        lost (volapi-all passes 0: its in-memory messages died with the
        previous process)."""
        objects.register_all()
        self.driver = drivers.load(self.conf)
        self.driver.do_setup()
        # Pools are on placement before this worker takes any message:
        # volume create schedules onto them. A cluster's members share its
        # pools, which are named after the cluster. If the pools changed,
        # the allocations follow their data first (ReshapeFailed: the
        # worker does not start).
        reporter = pools.PoolReporter(self.context, self.conf, self.driver,
                                      self.cluster_name or self.server_name)
        reshape.at_start_up(self.context, reporter, self.driver)
        self.heartbeat = volapi_service.ServiceHeartbeat(
            self.context, self.server_name, BINARY, self.conf.volume_topic,
            self.conf.report_interval,
            cluster_name=self.cluster_name).start()
        pool = self.driver.pool_name
        self.manager = volume_manager.VolumeManager(
            self.driver, self.heartbeat,
            host='%s#%s' % (self.server_name, pool),
            cluster_name=('%s#%s' % (self.cluster_name, pool)
                          if self.cluster_name else None))
        membership = cluster.Membership(self.server_name, self.cluster_name)
        self.reconciler = reconciler.Reconciler(
            self.context, self.manager, membership, self.heartbeat)
        self.holds = holds.HoldExpiry(self.context, membership, self.driver)
        redriven = self.reconciler.reconcile(
            at_start=True, unclaimed_timeout=unclaimed_timeout)
        LOG.info('start-up reconciliation re-drove %d operation(s)',
                 len(redriven))
        transport = self.transport or rpc_transport.get_transport(self.conf)
        # As itself (operations on volumes it created outside a cluster)
        # and as its cluster, whose queue all members share.
        for server in filter(None, (self.server_name, self.cluster_name)):
            rpc = rpc_server.RPCServer(
                transport, self.conf.volume_topic, server, [self.manager],
                context_class=volapi_context.RequestContext,
                exposed=rpc_volume.SENT)
            rpc.start()
            self._rpc.append(rpc)
        self._periodic_cleanup = volapi_service.Periodic(
            'reconciliation', self.conf.volume.cleanup_interval,
            self._reconcile).start()
        self._periodic_report = volapi_service.Periodic(
            'pool report', self.conf.volume.capacity_report_interval,
            reporter.report).start()
        return self

    def _reconcile(self):
        redriven = self.reconciler.reconcile()
        if redriven:
            LOG.warning('periodic reconciliation re-drove %d operation(s)',
                        len(redriven))
        expired = self.holds.expire()
        if expired:
            LOG.warning('periodic reconciliation rolled back %d hold(s) '
                        'nobody finished', len(expired))

    def stop(self):
        """Stop taking messages, finish the operations in progress (their
        transitions complete), then stop heartbeating."""
        for part in ([self._periodic_report, self._periodic_cleanup]
                     + self._rpc + [self.heartbeat]):
            if part is not None:
                part.stop()
        LOG.info('volume worker %s stopped', self.server_name)
