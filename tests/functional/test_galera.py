"""The multi-master lane (tools/galera_lane.py): a three-node MariaDB
Galera cluster on 127.0.0.1, one API process per node; the CAS race, the
placement contention, and a node killed and rejoining. Certification
failures must be retried whole: every invariant holds and no 5xx is seen.
Runs when VOLAPI_TEST_GALERA=1 (it needs Debian's mariadb-server and
galera-4, and about a minute)."""
import json
import os
import subprocess
import sys

import testtools

from tests import base
from tests import fixtures as volapi_fixtures

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


@testtools.skipUnless(os.environ.get('VOLAPI_TEST_GALERA') == '1',
                      'the Galera lane runs with VOLAPI_TEST_GALERA=1')
class GaleraLaneTest(base.TestCase):

    def test_races_and_a_node_killed(self):
        results = os.path.join(self.useFixture(
            volapi_fixtures.fixtures.TempDir()).path, 'results.json')
        run = subprocess.run(
            [sys.executable, os.path.join(ROOT, 'tools', 'galera_lane.py'),
             '--rounds', '3', '--json', results],
            cwd=ROOT, capture_output=True, text=True, timeout=900)
        self.assertEqual(0, run.returncode, run.stdout + run.stderr)
        with open(results) as f:
            races = json.load(f)
        self.assertEqual(4, len(races))
        for race in races:
            self.assertEqual([], race['broken'], race)
            self.assertFalse([k for k in race['outcomes']
                              if k not in ('202', '204', '400', '409')],
                             race)
