"""The fault suite (tools/fault_suite.py) in its short version: volapi in
its production shape on a scratch PostgreSQL and RabbitMQ of its own, a
worker killed, an API process killed, PostgreSQL restarted and paused,
RabbitMQ restarted, a client gone leaving attach and detach holds, under
concurrent clients; no acknowledged operation may be lost or failed,
nothing may stay in flight, and the store must agree with the database.
Runs in the PostgreSQL lane (a few minutes)."""
import json
import os
import subprocess
import sys

import testtools

from tests import base
from tests import fixtures as volapi_fixtures

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


@testtools.skipIf(volapi_fixtures.backend_name() != 'postgresql',
                  'the fault suite runs in the PostgreSQL lane '
                  '(VOLAPI_TEST_DB_URL=postgresql+psycopg://...)')
class FaultSuiteTest(base.TestCase):

    def test_every_fault_is_survived(self):
        results = os.path.join(self.useFixture(
            volapi_fixtures.fixtures.TempDir()).path, 'results.json')
        run = subprocess.run(
            [sys.executable, os.path.join(ROOT, 'tools', 'fault_suite.py'),
             '--clients', '6', '--json', results],
            cwd=ROOT, capture_output=True, text=True, timeout=900)
        self.assertEqual(0, run.returncode, run.stdout + run.stderr)
        with open(results) as f:
            phases = json.load(f)
        self.assertEqual(['worker_kill', 'api_kill', 'pg_restart',
                          'pg_pause', 'rabbit_restart', 'client_vanish'],
                         [p['fault'] for p in phases])
        for phase in phases:
            self.assertEqual((0, 0, {}), (
                phase['lost'], phase['falsely_failed'],
                phase['store_problems']), phase)
            self.assertGreater(phase['done'], 0, phase)
