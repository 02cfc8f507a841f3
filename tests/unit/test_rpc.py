"""rpc/: the serializer on its own, and client -> server over the in-process
``fake://`` transport (the embedded default) between threads."""
import inspect
import queue
import threading
import time
import uuid

import oslo_messaging
from oslo_messaging._drivers import amqpdriver
from oslo_serialization import jsonutils
from oslo_utils import timeutils

import objects
from rpc import library_compat
from rpc import serializer as rpc_serializer
from rpc import server as rpc_server
from rpc import transport as rpc_transport
from rpc import volume as volume_rpc
from tests import base
from volapi import context as volapi_context
from volapi.volume import manager


def make_volume(**kwargs):
    values = dict(id=str(uuid.uuid4()), size=1, status='creating',
                  attach_status='detached', bootable=False, multiattach=False,
                  host=None, cluster_name=None, project_id='p1',
                  user_id='u1',
                  created_at=timeutils.utcnow(with_timezone=True))
    values.update(kwargs)
    return objects.Volume(**values)


class SerializerTest(base.TestCase):

    def setUp(self):
        super().setUp()
        objects.register_all()
        self.serializer = rpc_serializer.RequestContextSerializer(
            context_class=volapi_context.RequestContext)

    def wire(self, primitive):
        # What a real transport does to a message.
        return jsonutils.loads(jsonutils.dumps(primitive))

    def test_volume_round_trip(self):
        volume = make_volume(size=3, host='h@file#file',
                             display_name='disk')
        primitive = self.wire(self.serializer.serialize_entity(None, volume))
        self.assertEqual('Volume', primitive['volapi_object.name'])
        back = self.serializer.deserialize_entity(None, primitive)
        self.assertIsInstance(back, objects.Volume)
        for field in ('id', 'size', 'host', 'status', 'display_name',
                      'created_at', 'project_id'):
            self.assertEqual(getattr(volume, field), getattr(back, field))
        self.assertFalse(back.obj_attr_is_set('launched_at'))

    def test_snapshot_and_attachment_round_trip(self):
        snapshot = objects.Snapshot(id=str(uuid.uuid4()),
                                    volume_id=str(uuid.uuid4()),
                                    status='creating', volume_size=2)
        attachment = objects.VolumeAttachment(
            id=str(uuid.uuid4()), volume_id=snapshot.volume_id,
            attach_status='attached', connector='{"host": "h1"}')
        for obj in (snapshot, attachment):
            back = self.serializer.deserialize_entity(None, self.wire(
                self.serializer.serialize_entity(None, obj)))
            self.assertEqual(type(obj), type(back))
            self.assertEqual(
                {f: getattr(obj, f) for f in obj.obj_get_changes()},
                {f: getattr(back, f) for f in back.obj_get_changes()})
        self.assertEqual({'host': 'h1'}, back.connector_dict())

    def test_plain_values_pass_through(self):
        value = {'connector': {'host': 'h1', 'initiator': 'iqn'}, 'n': 3}
        self.assertEqual(value, self.serializer.deserialize_entity(
            None, self.serializer.serialize_entity(None, value)))

    def test_context_round_trip(self):
        ctx = volapi_context.RequestContext(
            user_id='u1', project_id='p1', roles=['member'],
            request_id='req-1234')
        back = self.serializer.deserialize_context(
            self.wire(self.serializer.serialize_context(ctx)))
        self.assertIsInstance(back, volapi_context.RequestContext)
        self.assertEqual(('u1', 'p1', ['member'], 'req-1234', False),
                         (back.user_id, back.project_id, back.roles,
                          back.request_id, back.is_admin))
        admin = self.serializer.deserialize_context(self.wire(
            self.serializer.serialize_context(ctx.elevated())))
        self.assertTrue(admin.is_admin)


class Recorder:
    """An endpoint that records what reaches it (the rpc package is what is
    under test here, not the volume manager)."""

    target = oslo_messaging.Target(version=volume_rpc.RPC_API_VERSION)

    def __init__(self, name):
        self.name = name
        self.received = queue.Queue()

    def _record(self, context, method, **kwargs):
        self.received.put((self.name, threading.current_thread().name,
                           context, method, kwargs))

    def create_volume(self, context, volume):
        self._record(context, 'create_volume', volume=volume)

    def extend_volume(self, context, volume, new_size):
        self._record(context, 'extend_volume', volume=volume,
                     new_size=new_size)

    def initialize_connection(self, context, volume, connector):
        self._record(context, 'initialize_connection', volume=volume)
        return {'driver_volume_type': 'local',
                'data': {'device_path': '/%s/%s' % (self.name, volume.id)},
                'connector_host': connector['host']}


class Blocking:
    """An endpoint whose create_volume waits until the test releases it."""

    target = oslo_messaging.Target(version=volume_rpc.RPC_API_VERSION)

    def __init__(self):
        self.entered = queue.Queue()
        self.release = threading.Event()

    def create_volume(self, context, volume):
        self.entered.put(volume.id)
        self.release.wait(30)


class TransportContract:
    """What the rpc package must do on any transport; a TestCase mixes this
    in and makes ``self.transport`` in ``make_transport()``."""

    def setUp(self):
        super().setUp()
        objects.register_all()
        self.transport = self.make_transport()
        self.client = volume_rpc.VolumeWorkerClient(
            transport=self.transport, conf=self.config.conf)
        self.ctx = volapi_context.RequestContext(user_id='u1',
                                                 project_id='p1')

    def serve(self, name, recorder=None):
        endpoint = Recorder(recorder or name)
        server = rpc_server.RPCServer(
            self.transport, self.config.conf.volume_topic, name, [endpoint],
            context_class=volapi_context.RequestContext)
        server.start()
        self.addCleanup(server.stop)
        return endpoint

    def test_cast_without_host_reaches_a_worker_in_another_thread(self):
        worker = self.serve('w1@file')
        volume = make_volume()
        self.client.create_volume(self.ctx, volume)
        name, thread, ctx, method, kwargs = worker.received.get(timeout=10)
        self.assertEqual('create_volume', method)
        self.assertNotEqual(threading.current_thread().name, thread)
        self.assertEqual(volume.id, kwargs['volume'].id)
        self.assertIsInstance(ctx, volapi_context.RequestContext)
        self.assertEqual(('u1', 'p1'), (ctx.user_id, ctx.project_id))

    def test_cast_goes_to_the_worker_of_the_volume_host(self):
        first, second = self.serve('w1@file'), self.serve('w2@file')
        for _ in range(5):
            self.client.extend_volume(
                self.ctx, make_volume(host='w2@file#file'), 7)
        for _ in range(5):
            name, _, _, method, kwargs = second.received.get(timeout=10)
            self.assertEqual(('w2@file', 'extend_volume', 7),
                             (name, method, kwargs['new_size']))
        self.assertTrue(first.received.empty())

    def test_call_returns_the_connection_info(self):
        self.serve('w1@file')
        volume = make_volume(host='w1@file#file')
        info = self.client.initialize_connection(self.ctx, volume,
                                                 {'host': 'compute-1'})
        self.assertEqual('/w1@file/%s' % volume.id,
                         info['data']['device_path'])
        self.assertEqual('compute-1', info['connector_host'])

    def test_call_without_a_worker_times_out(self):
        self.config.set(rpc_response_timeout=1)
        self.assertRaises(oslo_messaging.MessagingTimeout,
                          self.client.initialize_connection, self.ctx,
                          make_volume(host='nobody@file#file'), {})

    def test_cast_goes_to_any_member_of_the_volume_cluster(self):
        # Two workers listening as their cluster share its queue; a third
        # worker, outside the cluster, gets nothing.
        first = self.serve('c1@file', recorder='w1@file')
        second = self.serve('c1@file', recorder='w2@file')
        outsider = self.serve('w3@file')
        volume = make_volume(host='w1@file#file', cluster_name='c1@file#file')
        for _ in range(8):
            self.client.extend_volume(self.ctx, volume, 7)
        names = []
        for _ in range(8):
            names.append(self.received_by_any(first, second))
        self.assertEqual(8, len(names))
        self.assertTrue(outsider.received.empty())

    def test_casts_one_after_another_share_a_thread(self):
        # An idle thread of the pool takes the next cast: no new thread
        # per message (futurist's pool made one until it had 64).
        worker = self.serve('w1@file')
        threads = set()
        for _ in range(10):
            self.client.create_volume(self.ctx, make_volume())
            threads.add(worker.received.get(timeout=10)[1])
            time.sleep(0.02)
        self.assertLessEqual(len(threads), 2, threads)
        self.assertTrue(all(name.startswith('rpc-w1@file')
                            for name in threads), threads)

    def test_the_pool_size_bounds_the_casts_running_at_once(self):
        endpoint = Blocking()
        server = rpc_server.RPCServer(
            self.transport, self.config.conf.volume_topic, 'w1@file',
            [endpoint], context_class=volapi_context.RequestContext)
        # Registered by the server; read when it starts.
        self.config.set(executor_thread_pool_size=2)
        server.start()
        self.addCleanup(server.stop)
        self.addCleanup(endpoint.release.set)
        volumes = [make_volume() for _ in range(3)]
        for volume in volumes:
            self.client.create_volume(self.ctx, volume)
        running = {endpoint.entered.get(timeout=10) for _ in range(2)}
        self.assertRaises(queue.Empty, endpoint.entered.get, timeout=0.5)
        endpoint.release.set()
        running.add(endpoint.entered.get(timeout=10))
        self.assertEqual({v.id for v in volumes}, running)

    def received_by_any(self, *recorders, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for recorder in recorders:
                try:
                    return recorder.received.get(timeout=0.05)[0]
                except queue.Empty:
                    pass
        self.fail('no member of the cluster received the cast')


class FakeTransportTest(TransportContract, base.TestCase):
    """Client and servers in one process, as in volapi-all."""

    def make_transport(self):
        self.assertEqual('fake://', self.config.conf.transport_url)
        # A private exchange: messages of other tests cannot leak in.
        self.config.set(control_exchange='test-%s' % uuid.uuid4().hex)
        transport = oslo_messaging.get_rpc_transport(self.config.conf)
        self.addCleanup(transport.cleanup)
        return transport


class TransportTest(base.TestCase):

    def test_a_server_makes_its_listeners_wake_up_rarely(self):
        # AMQP listeners' first wait after a message (rpc.library_compat).
        self.addCleanup(setattr, amqpdriver, 'ACK_REQUEUE_EVERY_SECONDS_MIN',
                        amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN)
        amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN = 0.001
        transport = oslo_messaging.get_rpc_transport(self.config.conf)
        self.addCleanup(transport.cleanup)
        rpc_server.RPCServer(transport, 'topic', 'w1@file', [Recorder('w1')],
                             context_class=volapi_context.RequestContext)
        self.assertEqual(library_compat.LISTENER_FIRST_WAIT,
                         amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN)

    def test_one_transport_per_url(self):
        self.addCleanup(rpc_transport.cleanup)
        first = rpc_transport.get_transport(self.config.conf)
        self.assertIs(first, rpc_transport.get_transport(self.config.conf))
        other = rpc_transport.get_transport(self.config.conf,
                                            url='fake://other/')
        self.assertIsNot(first, other)


class ExposedMethodsTest(base.TestCase):
    """A worker's RPC server dispatches what the client sends and nothing
    else of the manager (redrive, busy ... are for its own process)."""

    def test_sent_is_what_the_client_sends(self):
        client_methods = {
            name for name, _ in inspect.getmembers(
                volume_rpc.VolumeWorkerClient, inspect.isfunction)
            if not name.startswith('_')}
        self.assertEqual(client_methods, set(volume_rpc.SENT))
        for name in volume_rpc.SENT:
            self.assertTrue(callable(getattr(manager.VolumeManager, name)),
                            name)

    def test_policy_dispatches_only_the_names(self):
        policy = rpc_server.exposed_only(['create_volume'])()
        self.assertTrue(policy.is_allowed(object(), 'create_volume'))
        self.assertFalse(policy.is_allowed(object(), 'redrive'))
        self.assertFalse(policy.is_allowed(object(), '_operate'))
