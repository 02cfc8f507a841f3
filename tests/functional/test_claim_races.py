"""Concurrent claims never go beyond a pool's capacity or a project's
quota: the capacity and the quota are checked by the compare-and-swaps of
the claim's own transaction."""
import threading

import sqlalchemy as sa

from db import models
from db import session
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant

ADMIN = api_fixtures.ADMIN
CLIENTS = 32
ROUNDS = 3
POOL = 'worker-1@file#tight'


def concurrently(fn, count=CLIENTS):
    """``fn(i)`` in ``count`` threads started together; their results."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        barrier.wait()
        results[i] = fn(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


class ClaimRaceTest(api_fixtures.APITestCase):
    # Room for 10 volumes of 1 GiB.
    pool_options = {'file_pools': ['tight:10'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))

    def post(self, headers, status):
        return self.app.post_json('/v3/volumes', {'volume': {'size': 1}},
                                  headers=headers, status=status)

    def live_volumes(self):
        volumes = models.Volume.__table__
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(sa.select(volumes.c.host, volumes.c.status)
                                .where(volumes.c.deleted == sa.false())
                                ).all()

    def fresh_pool(self, round_):
        """Each round a new pool with room for 10; the full ones from the
        rounds before are no candidates."""
        pool = 'tight' if round_ == 0 else 'round%d' % round_
        self.config.set('volume', file_pools=['%s:10' % pool])
        self.pools.reporter.report()
        return pool

    def assert_filled(self, pool, statuses):
        self.assertEqual({'creating': 10, 'error': 22},
                         {s: statuses.count(s) for s in set(statuses)})
        self.assertEqual(10, invariant.disk_gb(
            self.context, self.pools.host_of(pool)).allocated)

    def test_creates_fill_the_pool_exactly(self):
        self.config.set('quota', volumes=-1, gigabytes=-1)
        for round_ in range(ROUNDS):
            pool = self.fresh_pool(round_)
            project = api_fixtures.caller('race-%d' % round_)
            statuses = concurrently(lambda i: self.post(
                project, 202).json['volume']['status'])
            self.assert_filled(pool, statuses)
            messages = self.app.get('/v3/messages', headers=dict(
                project, **{'OpenStack-API-Version': 'volume 3.3'})).json[
                    'messages']
            self.assertEqual(22, len(messages))

    def test_creates_of_many_projects_fill_the_pool_exactly(self):
        # No project's usage row serialises these claims: only the pool's.
        self.config.set('quota', volumes=-1, gigabytes=-1)
        for round_ in range(ROUNDS):
            pool = self.fresh_pool(round_)
            projects = [api_fixtures.caller('race-%d-%d' % (round_, i))
                        for i in range(CLIENTS)]
            statuses = concurrently(lambda i: self.post(
                projects[i], 202).json['volume']['status'])
            self.assert_filled(pool, statuses)

    def test_creates_stop_at_the_volumes_quota(self):
        self.config.set('volume', file_pools=['tight:100'])
        self.pools.reporter.report()
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'volumes': 10}}, headers=ADMIN)
        statuses = concurrently(lambda i: self.post(
            self.owner, '*').status_int)
        self.assertEqual({202: 10, 413: 22},
                         {s: statuses.count(s) for s in set(statuses)})
        self.assertEqual(10, len(self.live_volumes()))
        self.assertEqual(10, invariant.disk_gb(self.context, POOL).allocated)

    def test_extends_stop_at_the_gigabytes_quota(self):
        self.config.set('quota', volumes=-1)
        self.config.set('volume', file_pools=['tight:100'])
        self.pools.reporter.report()
        ids = []
        for _ in range(CLIENTS):
            volume = self.post(self.owner, 202).json['volume']
            self.make_available(volume['id'])
            ids.append(volume['id'])
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'gigabytes': CLIENTS + 10}},
                          headers=ADMIN)
        statuses = concurrently(lambda i: self.app.post_json(
            '/v3/volumes/%s/action' % ids[i],
            {'os-extend': {'new_size': 2}}, headers=self.owner,
            status='*').status_int)
        self.assertEqual({202: 10, 413: 22},
                         {s: statuses.count(s) for s in set(statuses)})
        self.assertEqual(CLIENTS + 10, invariant.disk_gb(
            self.context, POOL).allocated)
