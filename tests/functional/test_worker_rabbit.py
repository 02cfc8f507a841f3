"""Messaging on a real RabbitMQ (``VOLAPI_TEST_RABBIT_URL``): the rpc
package's contract, and a volume worker serving the service layer's casts
and calls end to end on the backend under test."""
import os
import time
import urllib.parse

import oslo_messaging
import testtools

import objects
from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import tcp_proxy
from tests.functional import worker_fixtures as wf
from tests.unit import test_rpc
from rpc import transport as rpc_transport
from volapi.volume import api as volume_api
from volapi.volume import attachments as attachment_api
from volapi.volume import snapshots as snapshot_api
from volapi.volume import worker as volume_worker

RABBIT_URL = volapi_fixtures.rabbit_url()
NO_RABBIT = ('VOLAPI_TEST_RABBIT_URL is not set: these tests need a '
             'RabbitMQ broker (e.g. rabbit://guest:guest@127.0.0.1:5672/)')


@testtools.skipIf(RABBIT_URL is None, NO_RABBIT)
class RabbitTransportTest(test_rpc.TransportContract, base.TestCase):

    def make_transport(self):
        self.topic = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        transport = oslo_messaging.get_rpc_transport(self.config.conf)
        self.addCleanup(transport.cleanup)
        return transport

    def serve(self, name, recorder=None):
        return super().serve(self.topic.server(name), recorder)


@testtools.skipIf(RABBIT_URL is None, NO_RABBIT)
class RabbitWorkerTest(base.DatabaseTestCase):
    """The assembled VolumeWorker (services row, start-up cleanup, RPC
    server, manager, file driver) fed by the service layer over RabbitMQ."""

    def setUp(self):
        super().setUp()
        self.useFixture(wf.RabbitTopic(self, RABBIT_URL)).server(
            'rabbit-worker@file')
        self.config.set(host='rabbit-worker')
        self.config.set('volume', volumes_dir=self.useFixture(
            wf.fixtures.TempDir()).path)
        self.worker = volume_worker.VolumeWorker(self.config.conf).start()
        self.addCleanup(self.worker.stop)

    def wait_for(self, obj, status, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            obj.refresh()
            if obj.status == status:
                return obj
            time.sleep(0.05)
        self.fail('%s %s is %s, not %s after %ss' % (
            type(obj).__name__, obj.id, obj.status, status, timeout))

    def test_lifecycle(self):
        volume = wf.make_volume(self.context, size=1)
        volume_api.worker_client().create_volume(self.context, volume)
        self.wait_for(volume, 'available')
        self.assertEqual('rabbit-worker@file#file', volume.host)

        wf.extend(self.context, volume, 2)
        self.wait_for(volume, 'available')
        self.assertEqual(2, volume.size)
        self.assertEqual(2 * 1024 ** 3,
                         os.path.getsize(volume.provider_location))

        info = volume_api.worker_client().initialize_connection(
            self.context, volume, {'host': 'compute-1'})
        self.assertEqual({'driver_volume_type': 'local',
                          'data': {'device_path': volume.provider_location}},
                         info)

        snapshot = snapshot_api.create(self.context, volume.id)
        self.wait_for(snapshot, 'available')
        self.assertTrue(os.path.exists(snapshot.provider_location))
        snapshot_api.delete(self.context, snapshot.id)
        snapshot = objects.Snapshot.get_by_id(self.context, snapshot.id,
                                              include_deleted=True)
        self.wait_for(snapshot, 'deleted')

        volume_api.delete(self.context, volume.id)
        volume = objects.Volume.get_by_id(self.context, volume.id,
                                          include_deleted=True)
        self.wait_for(volume, 'deleted')
        self.assertFalse(os.path.exists(volume.provider_location))
        self.assertEqual([], os.listdir(self.config.conf.volume.volumes_dir))

    def test_driver_error_reaches_the_caller_of_a_call(self):
        volume = wf.make_volume(self.context, status='available',
                                host='rabbit-worker@file#file')
        e = self.assertRaises(oslo_messaging.RemoteError,
                              volume_api.worker_client().initialize_connection,
                              self.context, volume, {'host': 'compute-1'})
        self.assertEqual('VolumeDriverError', e.exc_type)
        self.assertIn('has no file', e.value)

    def test_a_call_while_the_broker_is_down_gives_up(self):
        volume = wf.make_volume(self.context, size=1)
        volume_api.worker_client().create_volume(self.context, volume)
        self.wait_for(volume, 'available')
        # The service layer's messages go through a proxy that can cut
        # the broker away; the worker's go straight.
        broker = urllib.parse.urlsplit(RABBIT_URL)
        proxy = self.useFixture(tcp_proxy.TcpProxy(broker.hostname,
                                                   broker.port or 5672))
        proxied = broker._replace(netloc='%s@127.0.0.1:%d' % (
            broker.netloc.rpartition('@')[0], proxy.port)).geturl()
        self.config.set(transport_url=proxied, rpc_response_timeout=3)
        volume_api.reset_worker_client()
        # Last in, first out: the proxy forwards again before the
        # transport is closed, and that before the proxy stops.
        self.addCleanup(rpc_transport.get_transport(url=proxied).cleanup)
        self.addCleanup(proxy.restore)
        client = volume_api.worker_client()
        connect = (self.context, volume, {'host': 'compute-1'})

        # The client's first call: oslo.messaging would wait for ever to
        # make the queue answers come back on.
        proxy.cut()
        started = time.monotonic()
        self.assertRaises(oslo_messaging.MessagingTimeout,
                          client.initialize_connection, *connect)
        self.assertLess(time.monotonic() - started, 30)

        proxy.restore()
        self.config.set(rpc_response_timeout=60)
        self.assertEqual('local',
                         client.initialize_connection(*connect)[
                             'driver_volume_type'])

        # A later call cannot be sent: the request is answered 503 at once
        # and keeps nothing.
        proxy.cut()
        started = time.monotonic()
        error = self.assertRaises(
            volume_api.WorkerUnavailable, attachment_api.create,
            self.context, volume.id, 'instance-1', connector=connect[2])
        self.assertLess(time.monotonic() - started, 30)
        self.assertEqual('Unable to initialize the connection to volume %s: '
                         'the message broker is unavailable.' % volume.id,
                         str(error))
        volume.refresh()
        self.assertEqual(('available', []), (volume.status, [
            a.id for a in objects.VolumeAttachment.get_all(
                self.context, volume_id=volume.id)]))


class UnreachableBrokerTest(base.DatabaseTestCase):
    """A tracked cast to a broker that does not answer gives up after a
    bounded number of attempts instead of holding the request: its
    workers row is re-driven by the reconciliation (test_reconciler)."""

    def test_cast_gives_up_and_leaves_the_row(self):
        self.config.set(transport_url='rabbit://guest:guest@127.0.0.1:%d/'
                        % wf.free_port())
        wf.forget_clients()
        self.addCleanup(wf.forget_clients)
        volume = wf.make_volume(self.context)
        started = time.monotonic()
        volume_api.worker_client().create_volume(self.context, volume)
        self.assertLess(time.monotonic() - started, 30)
        row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertEqual(('creating', None), (row.status, row.service_id))
