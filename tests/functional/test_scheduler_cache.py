"""Volume create reuses the scheduler's recent answer
([volume] scheduler_cache_seconds), and a stale one never decides where
a volume goes, nor that none can hold it."""
import time

from tests import fixtures as volapi_fixtures
from tests.functional import api_fixtures
from tests.functional import test_volume_placement as placement
from volapi.volume import pools

host = placement.host


def scheduler_reads(statements):
    """The allocation candidates' query and the pools' names read among
    ``statements``."""
    flat = [' '.join(s.split()) for s in statements]
    return [s for s in flat if 'wanted.class_id, wanted.amount' in s or
            s.startswith('SELECT resource_providers.uuid, '
                         'resource_providers.name FROM')]


class SchedulerCacheTest(placement.PlacementTestCase):

    def setUp(self):
        super().setUp()
        # Long enough that no answer ages out on a slow machine.
        self.config.set('volume', scheduler_cache_seconds=60)

    def created(self, size, expect_reads, **fields):
        """The volume a create of ``size`` makes, asserting it read the
        pools (``expect_reads``) or not."""
        made = []
        statements = volapi_fixtures.statements_sent(
            lambda: made.append(self.create(size=size, **fields)))
        reads = scheduler_reads(statements)
        if expect_reads:
            self.assertNotEqual([], reads)
        else:
            self.assertEqual([], reads)
        return made[0].json['volume']

    def pool_of(self, volume):
        held = self.allocation(volume['id'])
        self.assertIsNotNone(held, volume)
        (provider,) = held['allocations']
        return {pools.provider_uuid(host(p)): p
                for p in ('small', 'big')}[provider]

    def grow(self, small):
        # What the worker reports after its pool 'small' grew.
        self.config.set('volume', file_pools=['small:%d' % small, 'big:30'])
        self.pools.reporter.report()

    def test_the_same_question_again_reads_no_pools(self):
        self.assertEqual('big', self.pool_of(self.created(1, True)))
        self.assertEqual('big', self.pool_of(self.created(1, False)))
        # Another size, another type's traits: another question.
        self.assertEqual('big', self.pool_of(self.created(2, True)))
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'filed', 'extra_specs': {
                'volume_backend_name': 'file'}}}, headers=placement.ADMIN)
        self.created(1, True, volume_type='filed')
        self.created(1, False, volume_type='filed')

    def test_a_cached_pool_without_room_is_passed_over(self):
        self.assertEqual('big', self.pool_of(self.created(1, True)))
        # Another size fills 'big': the cached answer still names it first.
        self.assertEqual('big', self.pool_of(self.created(29, True)))
        self.assertEqual('small', self.pool_of(self.created(1, False)))
        # 'big' is out of the cached answer now: one claim, on 'small'.
        statements = volapi_fixtures.statements_sent(
            lambda: self.create(size=1))
        # (On PostgreSQL the insert rides in the project's usage swap.)
        self.assertEqual(1, sum('INSERT INTO volumes ' in s
                                for s in statements), statements)
        self.assertEqual([], scheduler_reads(statements))

    def test_a_pool_the_cached_answer_lacks_is_found_by_a_read(self):
        # Only 'big' can hold 15: the answer cached names it alone.
        self.assertEqual('big', self.pool_of(self.created(15, True)))
        self.assertEqual('big', self.pool_of(self.created(15, False)))
        self.grow(small=40)
        volume = self.created(15, True)
        self.assertEqual(('creating', 'small'),
                         (volume['status'], self.pool_of(volume)))
        # That read is the cached answer now.
        self.assertEqual('small', self.pool_of(self.created(15, False)))

    def test_no_pool_with_room_is_decided_by_a_read(self):
        self.assertEqual('big', self.pool_of(self.created(15, True)))
        self.assertEqual('big', self.pool_of(self.created(15, False)))
        volume = self.created(15, True)
        self.assertEqual('error', volume['status'])
        self.assertIsNone(self.allocation(volume['id']))
        messages = self.app.get('/v3/messages', headers=api_fixtures.caller(
            self.project, version='3.3')).json['messages']
        self.assertEqual(
            [(volume['id'], 'schedule allocate volume:Could not find any '
              'available weighted backend.')],
            [(m['resource_uuid'], m['user_message']) for m in messages])
        # An empty answer is not kept: the next create reads again.
        self.assertEqual('error', self.created(15, True)['status'])

    def test_zero_seconds_reads_for_every_create(self):
        self.config.set('volume', scheduler_cache_seconds=0)
        for _ in range(3):
            self.assertEqual('big', self.pool_of(self.created(1, True)))

    def test_an_answer_older_than_the_setting_is_read_again(self):
        self.config.set('volume', scheduler_cache_seconds=0.05)
        self.created(1, True)
        time.sleep(0.1)
        self.created(1, True)

    def test_the_weigher_is_part_of_the_question(self):
        self.assertEqual('big', self.pool_of(self.created(1, True)))
        self.config.set('volume', pool_weigher='least_free')
        self.assertEqual('small', self.pool_of(self.created(1, True)))
