"""What rpc/library_compat.py reads inside oslo.messaging is still there
and still what oslo.messaging registers when it makes a transport."""
from oslo_config import cfg
import oslo_messaging
from oslo_messaging import opts as messaging_opts

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
