"""volapi's placement API against the real OpenStack Placement 16.0.0.

tools.placement_diff installs Placement 16.0.0 in a scratch virtualenv
(a temporary directory, removed afterwards), serves it and volapi's
placement application side by side, each on a fresh PostgreSQL database
of the server under test, sends both the same scripted requests, and
lists every difference a client could see. Any difference not accepted
(with its reason) in tools.placement_diff.allowed fails the test.

PostgreSQL only: Placement's supported driver there is psycopg2, and one
real run on the backend CI serves is the comparison; it needs the package
index to install Placement.
"""
from tests import base
from tests import fixtures as volapi_fixtures
from tools.placement_diff import run
from tools.placement_diff import servers


class PlacementDifferentialTest(base.TestCase):

    def setUp(self):
        super().setUp()
        if volapi_fixtures.backend_name() != 'postgresql':
            self.skipTest('compared on PostgreSQL only (Placement 16.0.0 '
                          'runs on its psycopg2 driver there)')

    def test_no_difference_a_client_could_see(self):
        with servers.both(volapi_fixtures.backend_url()) as (placement,
                                                             volapi):
            found, unaccepted, count = run.differences(placement.url,
                                                       volapi.url)
        self.assertGreater(count, 300)
        self.assertEqual([], [d.report() for d in unaccepted],
                         '%d of %d requests answered differently'
                         % (len({d.number for d in unaccepted}), count))
