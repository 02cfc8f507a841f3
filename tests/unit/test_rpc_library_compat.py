"""What rpc/library_compat.py reads inside oslo.messaging is still there
and still what oslo.messaging registers when it makes a transport."""
import queue
import threading
import types
import uuid
from concurrent import futures

from oslo_config import cfg
import oslo_messaging
from oslo_messaging import opts as messaging_opts
from oslo_messaging._drivers import amqpdriver

from rpc import library_compat
from tests import base
from volapi.conf import rpc as rpc_conf


class MessagingCompatTest(base.TestCase):

    def test_transport_opts_are_the_public_default_options(self):
        own = library_compat.transport_opts()
        self.assertEqual({'transport_url', 'control_exchange'},
                         {opt.name for opt in own})
        public = dict(messaging_opts.list_opts())[None]
        for opt in own:
            self.assertIn(opt, public)

    def test_a_transport_takes_volapis_defaults(self):
        # oslo.messaging registers its own options again when it makes a
        # transport: they must be the objects carrying volapi's defaults,
        # or oslo.config refuses them as duplicates.
        conf = cfg.ConfigOpts()
        conf([], default_config_files=[])
        rpc_conf.register_opts(conf)
        transport = oslo_messaging.get_rpc_transport(conf)
        self.addCleanup(transport.cleanup)
        self.assertEqual(rpc_conf.DEFAULT_TRANSPORT_URL, conf.transport_url)
        self.assertEqual(rpc_conf.CONTROL_EXCHANGE, conf.control_exchange)


class ListenerWakeUpsCompatTest(base.TestCase):
    """slow_listener_wake_ups() sets the first wait of a listener's
    thread, and that thread has nothing else to do sooner: an RPC request
    is acked by the listener itself, never queued for its next wake-up."""

    def setUp(self):
        super().setUp()
        saved = amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN
        self.addCleanup(setattr, amqpdriver, 'ACK_REQUEUE_EVERY_SECONDS_MIN',
                        saved)
        library_compat.slow_listener_wake_ups()

    def test_a_listener_starts_its_waits_at_the_first_wait(self):
        driver = types.SimpleNamespace(prefetch_size=1)
        listener = amqpdriver.RpcAMQPListener(driver, conn=None)
        self.addCleanup(listener._message_operations_handler.stop)
        self.assertEqual(library_compat.LISTENER_FIRST_WAIT,
                         listener._current_timeout)
        self.assertLess(amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN,
                        amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MAX)

    def test_an_rpc_request_is_acked_by_the_listener_not_queued(self):
        queued, acked = [], []
        listener = amqpdriver.RpcAMQPListener(
            types.SimpleNamespace(prefetch_size=1), conn=None)
        self.addCleanup(listener._message_operations_handler.stop)
        listener._message_operations_handler = types.SimpleNamespace(
            do=queued.append)
        # What the rabbit consumer hands the listener: the message's dict
        # that acks itself.
        received = ReceivedMessage(
            {'_unique_id': 'u1', 'method': 'create_volume', 'args': {}})
        received.acknowledge = lambda: acked.append('listener')
        listener(received)
        self.assertEqual(['listener'], acked)
        incoming = listener.incoming.pop()
        self.assertIs(amqpdriver.AMQPIncomingMessage, type(incoming))
        # The server's own acknowledge (before dispatching) queues nothing.
        incoming.acknowledge()
        incoming.requeue()
        self.assertEqual(([], ['listener']), (queued, acked))


class ExecutorCompatTest(base.TestCase):
    """use_executor() makes a server run its messages on the executor
    class given, made with the pool size, and wait for it when stopping."""

    def test_a_server_runs_its_messages_on_the_executor_given(self):
        made, submitted, shut = [], [], []

        class Recording(futures.ThreadPoolExecutor):
            def __init__(self, max_workers):
                made.append(max_workers)
                super().__init__(max_workers, thread_name_prefix='recording')

            def submit(self, fn, *args, **kwargs):
                submitted.append(fn)
                return super().submit(fn, *args, **kwargs)

            def shutdown(self, wait=True, **kwargs):
                shut.append(wait)
                super().shutdown(wait, **kwargs)

        class Endpoint:
            def __init__(self):
                self.threads = queue.Queue()

            def ping(self, context):
                self.threads.put(threading.current_thread().name)

        self.config.set(control_exchange='test-%s' % uuid.uuid4().hex)
        transport = oslo_messaging.get_rpc_transport(self.config.conf)
        self.addCleanup(transport.cleanup)
        target = oslo_messaging.Target(topic='compat', server='s1')
        endpoint = Endpoint()
        server = oslo_messaging.get_rpc_server(transport, target, [endpoint])
        library_compat.use_executor(server, Recording)
        server.start()
        self.addCleanup(lambda: shut or (server.stop(), server.wait()))
        oslo_messaging.get_rpc_client(transport, target).cast({}, 'ping')
        self.assertTrue(endpoint.threads.get(timeout=10).startswith(
            'recording'))
        server.stop()
        server.wait()
        self.assertEqual([self.config.conf.executor_thread_pool_size], made)
        self.assertEqual(1, len(submitted))
        self.assertEqual([True], shut)


class ReceivedMessage(dict):
    """A dict that can carry an ``acknowledge`` attribute."""
