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
from volapi.wsgi import server as http_server


class BindAddressTest(base.TestCase):

    def test_configured_address_and_override(self):
        self.assertEqual(('127.0.0.1', 8776),
                         http_server.bind_address(self.config.conf))
        self.config.set('api', bind_host='::1', bind_port=9999)
        self.assertEqual(('::1', 9999),
                         http_server.bind_address(self.config.conf))
        self.assertEqual(('10.0.0.1', 80), http_server.bind_address(
            self.config.conf, '10.0.0.1:80'))
        self.assertEqual(('::', 80), http_server.bind_address(
            self.config.conf, '[::]:80'))
        for bad in ('nohost', ':80', 'h:', 'h:x', 'h:\u0661'):
            self.assertRaises(http_server.CannotListen,
                              http_server.bind_address, self.config.conf, bad)


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
