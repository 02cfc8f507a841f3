"""The RPC API of volume workers, as the API processes call it.

Version history (bump the minor version for additive changes and teach the
worker's endpoint the new version; a new major version breaks old workers):

    1.0 - create_volume, delete_volume, extend_volume, retype,
          create_snapshot, delete_snapshot, terminate_connection (casts);
          initialize_connection (call)
    1.1 - migrate_volume (cast)
    1.2 - terminate_connection(tracked=True): a workers row records it
    1.3 - get_capabilities (call)
    1.4 - get_manageable_volumes, manage_existing_get_size (calls);
          manage_existing, unmanage_volume (casts)
    1.5 - terminate_connector (call): os-terminate_connection
    1.6 - create_backup, delete_backup, restore_backup (casts)
    1.9 - revert_to_snapshot (cast)
    1.10 - get_manageable_snapshots, manage_existing_snapshot_get_size
           (calls); manage_existing_snapshot, unmanage_snapshot (casts)
    1.11 - get_log_levels (call), set_log_levels (cast)

Every cast of an operation is sent after the API's compare-and-swap has
committed: the volume or snapshot is already in its transient status
(``creating``, ``extending`` ...), or the attachment whose connection is
to be terminated is gone, and a ``workers`` row records the operation
with its arguments. That row, not the message, is the truth: a
message that cannot be sent (the broker is down) or is lost later is
replaced by the reconciliation of the volume's cluster, which re-drives
the row after ``[volume] unclaimed_work_timeout``
(volapi.volume.reconciler). So such a cast tries the broker a bounded
number of times and then gives up with a warning, and the request that
started the operation is still accepted.

A call (initialize_connection, get_capabilities) runs on a thread of its
own and the request waits for it ``rpc_response_timeout`` at most:
oslo.messaging bounds the wait for the answer, but not the making of the
connection answers come back on, which it does on a client's first call
and tries for ever while the broker is down.
"""
from concurrent import futures

import oslo_messaging
from oslo_config import cfg
from oslo_log import log as logging

from db import exceptions as db_exc
from objects import volume as volume_obj
from rpc import serializer as rpc_serializer
from rpc import transport as rpc_transport
from volapi.volume import cluster

LOG = logging.getLogger(__name__)

RPC_API_VERSION = '1.11'
# Reconnection attempts of a message before its send fails (a tracked
# cast is then left to the reconciliation): a request must not hang for a
# broker outage, which oslo.messaging's default (retry=None) does, forever.
SEND_RETRIES = 2
# Calls waiting for a broker that is down hold at most this many threads;
# the requests behind them time out in the queue.
CALL_THREADS = 4
# The worker methods this client sends, and all a worker's RPC server
# dispatches (rpc.server.exposed_only).
SENT = ('create_volume', 'delete_volume', 'extend_volume', 'retype',
        'migrate_volume',
        'create_snapshot', 'delete_snapshot', 'terminate_connection',
        'initialize_connection', 'get_capabilities',
        'manage_existing', 'unmanage_volume', 'get_manageable_volumes',
        'manage_existing_get_size', 'terminate_connector',
        'create_backup', 'delete_backup', 'restore_backup',
        'revert_to_snapshot', 'get_log_levels', 'set_log_levels',
        'manage_existing_snapshot', 'unmanage_snapshot',
        'get_manageable_snapshots', 'manage_existing_snapshot_get_size')


def _volume_of(ctxt, snapshot):
    # A snapshot is made by the workers that hold its volume's data.
    return volume_obj.Volume.get_by_id(ctxt, snapshot.volume_id,
                                       include_deleted=True)


def _backed_up(ctxt, backup):
    """The volume whose backend keeps ``backup``'s data: its volume's,
    deleted or not (backups outlive volumes), else any worker."""
    try:
        return _volume_of(ctxt, backup)
    except db_exc.NotFound:
        return volume_obj.Volume(ctxt, host=None, cluster_name=None)


_calls = futures.ThreadPoolExecutor(max_workers=CALL_THREADS,
                                    thread_name_prefix='volapi-rpc-call')


class VolumeWorkerClient:
    """Casts (and the one call) to volume workers on topic
    ``[DEFAULT] volume_topic`` (``volapi-volume``)."""

    def __init__(self, transport=None, conf=None):
        conf = conf or cfg.CONF
        transport = transport or rpc_transport.get_transport(conf)
        target = oslo_messaging.Target(topic=conf.volume_topic,
                                       version=RPC_API_VERSION)
        self._transport = transport
        self._client = oslo_messaging.get_rpc_client(
            transport, target,
            serializer=rpc_serializer.RequestContextSerializer())

    def _worker(self, volume, version='1.0'):
        return self._client.prepare(server=cluster.address_of(volume),
                                    version=version, retry=SEND_RETRIES)

    def _cast_tracked(self, ctxt, owner, method, version='1.0', **kwargs):
        """Cast an operation, on the storage of volume ``owner``, that a
        workers row records (see the module's docstring): a failure to
        send is left to the reconciliation."""
        try:
            self._worker(owner, version=version).cast(ctxt, method,
                                                      **kwargs)
        except rpc_transport.SEND_FAILURES as e:
            LOG.warning('%s not sent (%s); the reconciliation of its '
                        'cluster will re-drive it from its workers row',
                        method, e)

    # -- casts: the API does not wait; the worker ends the transition -------
    def create_volume(self, ctxt, volume):
        self._cast_tracked(ctxt, volume, 'create_volume', volume=volume)

    def delete_volume(self, ctxt, volume):
        self._cast_tracked(ctxt, volume, 'delete_volume', volume=volume)

    def extend_volume(self, ctxt, volume, new_size):
        self._cast_tracked(ctxt, volume, 'extend_volume', volume=volume,
                           new_size=new_size)

    def retype(self, ctxt, volume, new_type_id):
        self._cast_tracked(ctxt, volume, 'retype', volume=volume,
                           new_type_id=new_type_id)

    def migrate_volume(self, ctxt, volume, dest_host):
        # To the workers of the source, which copy the data out.
        self._cast_tracked(ctxt, volume, 'migrate_volume', version='1.1',
                           volume=volume, dest_host=dest_host)

    def create_snapshot(self, ctxt, snapshot):
        self._cast_tracked(ctxt, _volume_of(ctxt, snapshot),
                           'create_snapshot', snapshot=snapshot)

    def delete_snapshot(self, ctxt, snapshot):
        self._cast_tracked(ctxt, _volume_of(ctxt, snapshot),
                           'delete_snapshot', snapshot=snapshot)

    def revert_to_snapshot(self, ctxt, volume, snapshot):
        self._cast_tracked(ctxt, volume, 'revert_to_snapshot',
                           version='1.9', snapshot=snapshot)

    def create_backup(self, ctxt, backup, volume):
        self._cast_tracked(ctxt, volume, 'create_backup', version='1.6',
                           backup=backup)

    def delete_backup(self, ctxt, backup):
        self._cast_tracked(ctxt, _backed_up(ctxt, backup), 'delete_backup',
                           version='1.6', backup=backup)

    def restore_backup(self, ctxt, backup, volume):
        # To the workers of the volume written to (a new one's pool).
        self._cast_tracked(ctxt, volume, 'restore_backup', version='1.6',
                           backup=backup)

    def terminate_connection(self, ctxt, volume, attachment):
        # The attachment's workers row records it (attachment_disconnect).
        self._cast_tracked(ctxt, volume, 'terminate_connection',
                           version='1.2', volume=volume,
                           attachment=attachment, tracked=True)

    def manage_existing(self, ctxt, volume, reference):
        self._cast_tracked(ctxt, volume, 'manage_existing', version='1.4',
                           volume=volume, reference=reference)

    def unmanage_volume(self, ctxt, volume):
        self._cast_tracked(ctxt, volume, 'unmanage_volume', version='1.4',
                           volume=volume)

    def manage_existing_snapshot(self, ctxt, snapshot, reference):
        self._cast_tracked(ctxt, _volume_of(ctxt, snapshot),
                           'manage_existing_snapshot', version='1.10',
                           snapshot=snapshot, reference=reference)

    def unmanage_snapshot(self, ctxt, snapshot):
        self._cast_tracked(ctxt, _volume_of(ctxt, snapshot),
                           'unmanage_snapshot', version='1.10',
                           snapshot=snapshot)

    # -- calls: the request needs the worker's answer ----------------------
    def initialize_connection(self, ctxt, volume, connector):
        """The driver's connection info for ``connector`` (a dict), e.g.
        ``{'driver_volume_type': 'local', 'data': {'device_path': ...}}``.
        Raises oslo_messaging.MessagingTimeout when no worker answers within
        ``rpc_response_timeout``, RemoteError when the driver failed, and
        one of rpc.transport.SEND_FAILURES when the broker cannot take the
        request."""
        return self._bounded_call(self._worker(volume), ctxt,
                                  'initialize_connection', volume=volume,
                                  connector=connector)

    def terminate_connector(self, ctxt, volume, connector):
        """End the connection initialize_connection made for
        ``connector`` (os-terminate_connection: the caller holds it, nothing
        records it); raises as initialize_connection does."""
        return self._bounded_call(self._worker(volume, version='1.5'), ctxt,
                                  'terminate_connector', volume=volume,
                                  connector=connector)

    def get_capabilities(self, ctxt, server, discover=False):
        """The capabilities of the backend of RPC server ``server`` (a
        worker's ``host@backend``, or its cluster's name); raises as
        initialize_connection does."""
        return self._bounded_call(self._server(server, '1.3'), ctxt,
                                  'get_capabilities', discover=discover)

    def get_manageable_volumes(self, ctxt, server):
        """The storage objects of the backend of RPC server ``server``
        that could become volumes (see VolumeDriver.manageable_volumes);
        raises as initialize_connection does."""
        return self._bounded_call(self._server(server, '1.4'), ctxt,
                                  'get_manageable_volumes')

    def manage_existing_get_size(self, ctxt, server, reference):
        """{'pool', 'size'} of the storage object ``reference`` names on
        the backend of RPC server ``server``; raises as
        initialize_connection does (RemoteError 'InvalidReference' for a
        reference the driver refuses)."""
        return self._bounded_call(self._server(server, '1.4'), ctxt,
                                  'manage_existing_get_size',
                                  reference=reference)

    def get_manageable_snapshots(self, ctxt, server):
        """As get_manageable_volumes, of what could become snapshots (see
        VolumeDriver.manageable_snapshots)."""
        return self._bounded_call(self._server(server, '1.10'), ctxt,
                                  'get_manageable_snapshots')

    def manage_existing_snapshot_get_size(self, ctxt, server, reference):
        """As manage_existing_get_size, of an object to be taken as a
        snapshot."""
        return self._bounded_call(self._server(server, '1.10'), ctxt,
                                  'manage_existing_snapshot_get_size',
                                  reference=reference)

    def get_log_levels(self, ctxt, server, prefix):
        """{logger: level} of the worker of RPC server ``server`` (its
        ``host@backend``); raises as initialize_connection does."""
        return self._bounded_call(self._server(server, '1.11'), ctxt,
                                  'get_log_levels', prefix=prefix)

    def set_log_levels(self, ctxt, server, prefix, level):
        """Set ``level`` on the loggers of the worker of RPC server
        ``server`` whose names start with ``prefix``."""
        self._server(server, '1.11').cast(ctxt, 'set_log_levels',
                                          prefix=prefix, level=level)

    def _server(self, server, version):
        return self._client.prepare(server=server, version=version,
                                    retry=SEND_RETRIES)

    def _bounded_call(self, prepared, ctxt, method, **kwargs):
        timeout = self._transport.conf.rpc_response_timeout
        call = _calls.submit(prepared.call, ctxt, method, **kwargs)
        try:
            return call.result(timeout)
        except futures.TimeoutError:
            # Not started yet: it never will be. Started: it ends when the
            # broker is back, and its answer is dropped.
            call.cancel()
            raise oslo_messaging.MessagingTimeout(
                '%s got no answer in %ss' % (method, timeout)) from None
