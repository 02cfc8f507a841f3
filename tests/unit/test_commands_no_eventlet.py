"""No volapi command prints eventlet's deprecation warning: oslo.service's
threading backend is chosen before oslo.messaging is imported."""
import subprocess
import sys

from tests import base

COMMANDS = ('api', 'volume', 'all', 'manage', 'status')


class NoEventletTest(base.TestCase):

    def test_no_command_mentions_eventlet(self):
        for command in COMMANDS:
            done = subprocess.run(
                [sys.executable, '-m', 'volapi.cmd.' + command, '--help'],
                capture_output=True, text=True, timeout=120)
            self.assertEqual(0, done.returncode, done.stderr)
            self.assertIn('usage:', done.stdout)
            self.assertNotIn('eventlet', done.stderr.lower(), command)

    def test_threading_backend_is_selected(self):
        done = subprocess.run(
            [sys.executable, '-c',
             'import volapi.conf, oslo_service.backend as b; '
             'print(b.get_backend_type().value)'],
            capture_output=True, text=True, timeout=120)
        self.assertEqual('threading', done.stdout.strip(), done.stderr)
