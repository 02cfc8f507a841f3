"""Where volapi-api and volapi-all listen: [api] bind_host and bind_port
(--bind overrides them), bound before anything else; a taken port is one
plain line naming the address and the options, and exit status 1."""
import os
import socket
import subprocess
import sys

import fixtures
import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from volapi import wsgi


class BindAddressTest(base.TestCase):

    def test_configured_address_and_override(self):
        self.assertEqual(('127.0.0.1', 8776),
                         wsgi.bind_address(self.config.conf))
        self.config.set('api', bind_host='::1', bind_port=9999)
        self.assertEqual(('::1', 9999), wsgi.bind_address(self.config.conf))
        self.assertEqual(('10.0.0.1', 80), wsgi.bind_address(
            self.config.conf, '10.0.0.1:80'))
        self.assertEqual(('::', 80), wsgi.bind_address(
            self.config.conf, '[::]:80'))
        for bad in ('nohost', ':80', 'h:', 'h:x', 'h:\u0661'):
            self.assertRaises(wsgi.CannotListen, wsgi.bind_address,
                              self.config.conf, bad)


class BacklogTest(base.TestCase):

    def test_a_burst_of_connections_is_queued_not_dropped(self):
        # Nothing accepts while the burst arrives, as when every thread is
        # busy: a connection beyond the listen backlog would have its SYN
        # dropped and wait a second for the retransmission.
        server = wsgi.make_server(None, ('127.0.0.1', 0))
        self.addCleanup(server.server_close)
        clients = []
        for _ in range(64):
            client = socket.socket()
            self.addCleanup(client.close)
            client.settimeout(0.5)
            client.connect(server.server_address)
            clients.append(client)
        server.socket.settimeout(1)
        for _ in clients:
            server.socket.accept()[0].close()


@testtools.skipIf(volapi_fixtures.backend_name() != 'sqlite',
                  'volapi-all is the embedded SQLite deployment; it is '
                  'tested once, in the SQLite run')
class PortTakenTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.home = self.useFixture(fixtures.TempDir()).path
        taken = socket.socket()
        self.addCleanup(taken.close)
        taken.bind(('127.0.0.1', 0))
        taken.listen()
        self.port = taken.getsockname()[1]
        self.conf = os.path.join(self.home, 'volapi.conf')
        volapi_fixtures.write_config(self.conf, {
            None: {'state_path': os.path.join(self.home, 'state')},
            'api': {'bind_host': '127.0.0.1', 'bind_port': self.port}})

    def run_command(self, module):
        env = dict(os.environ, HOME=self.home, XDG_STATE_HOME='')
        return subprocess.run(
            [sys.executable, '-m', module, '--config-file', self.conf],
            env=env, capture_output=True, text=True, timeout=120)

    def test_volapi_all_says_which_address_and_changes_nothing(self):
        result = self.run_command('volapi.cmd.all')
        self.assertEqual(1, result.returncode, result.stderr)
        output = result.stdout + result.stderr
        self.assertNotIn('Traceback', output)
        self.assertIn('volapi-all: cannot serve HTTP on 127.0.0.1:%d'
                      % self.port, result.stderr)
        self.assertIn('[api] bind_port', result.stderr)
        # Nothing was done before binding: no database was made.
        self.assertFalse(os.path.exists(
            os.path.join(self.home, 'state', 'volapi.sqlite')))

    def test_volapi_api_too(self):
        result = self.run_command('volapi.cmd.api')
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertNotIn('Traceback', result.stdout + result.stderr)
        self.assertIn('volapi-api: cannot serve HTTP on 127.0.0.1:%d'
                      % self.port, result.stderr)
