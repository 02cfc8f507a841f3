"""What rpc/library_compat.py reads inside oslo.messaging is still there
and still what oslo.messaging registers when it makes a transport."""
import types

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


class ReceivedMessage(dict):
    """A dict that can carry an ``acknowledge`` attribute."""
