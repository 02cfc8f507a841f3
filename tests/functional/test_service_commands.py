"""``volapi-manage service list | remove`` as an operator runs them: a
service that is down is removed, one that is up or unknown is refused."""
import os
import socket
import subprocess
import sys

import fixtures

from db import models
import objects
from tests import base
from tests import volume_rows as rows
from tests.functional import worker_fixtures as wf

DOWN = 1000  # seconds since the last heartbeat of a service gone


class ServiceCommandsTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        state = self.useFixture(fixtures.TempDir()).path
        self.conf = os.path.join(state, 'volapi.conf')
        with open(self.conf, 'w') as conf:
            conf.write('[DEFAULT]\nstate_path = %s\nservice_down_time = 60\n'
                       '[database]\nconnection = %s\n' % (
                           state, self.database.url.replace('%', '%%')))

    def manage(self, *args):
        done = subprocess.run(
            [sys.executable, '-m', 'volapi.cmd.manage', '--config-file',
             self.conf, 'service'] + list(args),
            capture_output=True, text=True)
        self.assertEqual('', done.stderr)
        return done.returncode, done.stdout

    def test_list_then_remove_what_is_down(self):
        up = wf.make_service(self.context, 'h1@file', age=5)
        gone = wf.make_service(self.context, 'h2@file', age=DOWN)
        code, listed = self.manage('list')
        self.assertEqual(0, code)
        lines = listed.splitlines()
        self.assertEqual(['Binary', 'Host', 'Status', 'State'],
                         lines[0].split()[:4])
        self.assertEqual(
            [['volapi-volume', 'h1@file', 'enabled', ':-)'],
             ['volapi-volume', 'h2@file', 'enabled', 'XXX']],
            sorted(line.split()[:4] for line in lines[1:]))

        self.assertEqual(
            (2, 'Service volapi-volume on host h1@file is up (it reported '
                'in the last 60 seconds): stop it before removing it.\n'),
            self.manage('remove', 'volapi-volume', 'h1@file'))
        self.assertEqual(
            (2, 'Host not found. Failed to remove volapi-volume on '
                'h9@file.\n'),
            self.manage('remove', 'volapi-volume', 'h9@file'))
        self.assertEqual(
            (0, 'Service volapi-volume on host h2@file removed.\n'),
            self.manage('remove', 'volapi-volume', 'h2@file'))
        self.assertEqual([up.id], [s.id for s in
                                   objects.Service.get_all(self.context)])
        self.assertTrue(rows.row(self.context, models.Service,
                                 gone.id)['deleted'])


class DatabaseDownTest(base.TestCase):
    """A command that cannot reach the database says so in one line and
    exits 1: no traceback, no half-printed table."""

    def test_each_command_says_the_database_is_down(self):
        state = self.useFixture(fixtures.TempDir()).path
        conf = os.path.join(state, 'volapi.conf')
        with socket.socket() as free:
            free.bind(('127.0.0.1', 0))
            port = free.getsockname()[1]
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\nstate_path = %s\n[database]\nconnection = '
                    'postgresql+psycopg://volapi:volapi@127.0.0.1:%d/volapi\n'
                    'max_retries = 0\n' % (state, port))
        for command in (['service', 'list'], ['db', 'version'],
                        ['service', 'remove', 'volapi-volume', 'h@file']):
            done = subprocess.run(
                [sys.executable, '-m', 'volapi.cmd.manage', '--config-file',
                 conf] + command, capture_output=True, text=True)
            self.assertEqual((1, ''), (done.returncode, done.stdout), command)
            lines = done.stderr.splitlines()
            self.assertEqual(1, len(lines), done.stderr)
            self.assertIn('volapi-manage: cannot reach the database', lines[0])
