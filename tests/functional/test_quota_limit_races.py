"""A project's limit lowered while its claims run: forced interleavings of
the limit's compare-and-swap and a claim's, on every backend, and the
two through the API at once. The invariant: a project never holds more
than its limit, and each outcome is that of some serial order.

The claim runs at READ COMMITTED on PostgreSQL, as creates do: a statement
there reads other tables as of its start, so a claim queued behind a
limit change would see the old limit if it read it anywhere but from the
row it waits for."""
import threading

import sqlalchemy as sa
from oslo_config import cfg
from oslo_utils import timeutils

from objects import quota
from tests.functional import api_fixtures
from tests.functional import interleaving
from tests.functional import placement_invariant as invariant
from tests.unit import test_cas_base

CONF = cfg.CONF
ADMIN = api_fixtures.ADMIN
PROJECT = 'limit-race-project'
HELD = 5


class LimitInterleavingTest(interleaving.Interleaving,
                            test_cas_base.CasTestCase):

    contended_table = 'quota_usages'

    def setUp(self):
        super().setUp()
        self.insert(quota.USAGES, project_id=PROJECT, volumes=HELD,
                    snapshots=0, gigabytes=HELD, volumes_limit=2 * HELD,
                    created_at=timeutils.utcnow())

    def held_and_limit(self):
        with self.database.engine.connect() as conn:
            return tuple(conn.execute(sa.select(
                quota.USAGES.c.volumes, quota.USAGES.c.volumes_limit).where(
                quota.USAGES.c.project_id == PROJECT)).one())

    def claim(self, hold=None):
        """One more volume, as a create claims it; False: over quota."""
        return interleaving.outcome(
            self.make_context(), lambda ctx: quota.charge(
                ctx, CONF, PROJECT, volumes=1, gigabytes=1, size=1),
            quota.OverQuota, hold, read_committed=True)

    def lower_limit(self, hold=None):
        """The limit set to what the project holds; False: refused, below
        what it holds."""
        return interleaving.outcome(
            self.make_context(), lambda ctx: quota.set_own_limits(
                ctx, PROJECT, {'volumes': HELD}),
            quota.LimitBelowUsage, hold)

    def test_claim_waiting_for_a_lowered_limit_sees_it(self):
        lowered, claimed = self.interleave(self.lower_limit, self.claim)
        self.assertEqual((True, False), (lowered, claimed))
        self.assertEqual((HELD, HELD), self.held_and_limit())

    def test_limit_waiting_for_a_claim_is_refused(self):
        claimed, lowered = self.interleave(self.claim, self.lower_limit)
        self.assertEqual((True, False), (claimed, lowered))
        self.assertEqual((HELD + 1, 2 * HELD), self.held_and_limit())


class LimitRaceAPITest(api_fixtures.APITestCase):
    """Creates and a limit lowered to what the project holds, at once
    through the API, for some rounds: the project never ends above its
    limit."""

    pool_options = {'file_pools': ['pool:1000'],
                    'max_over_subscription_ratio': 1.0}
    ROUNDS = 5
    CREATES = 6

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.path = '/v3/os-quota-sets/%s' % self.project

    def set_volumes_limit(self, limit):
        return self.app.put_json(
            self.path, {'quota_set': {'volumes': limit}}, headers=ADMIN,
            expect_errors=True).status_int

    def test_creates_and_a_lowered_limit(self):
        for round_ in range(self.ROUNDS):
            self.assertEqual(200, self.set_volumes_limit(-1))
            held = self.app.get(self.path + '?usage=True', headers=ADMIN) \
                .json['quota_set']['volumes']['in_use']
            barrier = threading.Barrier(self.CREATES + 1)
            creates, lowered = [], []

            def create():
                barrier.wait()
                creates.append(self.create_volume(
                    expect='*').status_int)

            def lower():
                barrier.wait()
                lowered.append(self.set_volumes_limit(held + 2))

            threads = [threading.Thread(target=create)
                       for _ in range(self.CREATES)]
            threads.append(threading.Thread(target=lower))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            self.assertLessEqual(set(creates), {202, 413})
            self.assertIn(lowered[0], (200, 400))
            volumes = self.app.get(self.path + '?usage=True',
                                   headers=ADMIN).json['quota_set']['volumes']
            accepted = creates.count(202)
            self.assertEqual(held + accepted, volumes['in_use'])
            if lowered[0] == 200:
                # Serial order: the creates before the limit, at most 2
                # of them; none after it.
                self.assertEqual(held + 2, volumes['limit'])
                self.assertLessEqual(accepted, 2)
            else:
                self.assertEqual(-1, volumes['limit'])
                self.assertGreater(accepted, 2)
