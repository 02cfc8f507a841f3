"""objects.placement.provider_cache: every kind of write that changes what
allocation candidates show of a provider advances its revision, so that
candidates asked for after the write, with the cache warm, are those a
cold cache gives."""
import json

import fixtures
import sqlalchemy as sa

from db import models
from db import session
from objects.placement import allocation as alloc_obj
from objects.placement import allocation_candidate as ac
from objects.placement import provider_cache
from tests.functional import test_placement_allocations_base as base
from tests.functional import test_placement_candidates_query as query
from tests.functional import test_placement_races as races
from volapi.placement import context as placement_context

PROVIDERS = models.ResourceProvider.__table__
# Every provider of the trees set up below is in its answer.
EVERYTHING = {'': query.spread(resources={'VCPU': 1, 'DISK_GB': 1})}
ANSWER_VERSIONS = ['1.16', '1.17', '1.27', '1.29']


class ProviderCacheTest(query.CandidatesHelpers, base.AllocationTestCase):
    """Two compute trees: ``root`` (VCPU) with a child ``disk`` (DISK_GB),
    and ``other`` (VCPU and DISK_GB); ``shared`` (DISK_GB) shares with
    ``root`` through an aggregate. (``self.rp``, the base's provider, is a
    tree of its own.)"""

    def setUp(self):
        super().setUp()
        aggregate = base.new_uuid()
        self.root = self.provider({'VCPU': {'total': 8}},
                                  aggregates=[aggregate])
        self.disk = self.provider({'DISK_GB': {'total': 100}},
                                  parent=self.root)
        self.other = self.provider({'VCPU': {'total': 8},
                                    'DISK_GB': {'total': 100}})
        self.shared = self.provider({'DISK_GB': {'total': 100}},
                                    traits=[query.SHARES],
                                    aggregates=[aggregate])
        self.uuids = [self.root, self.disk, self.other, self.shared,
                      self.rp]

    def revisions(self):
        with session.reader.connection.using(self.context) as conn:
            return dict(conn.execute(sa.select(
                PROVIDERS.c.uuid, PROVIDERS.c.revision)).all())

    def summaries(self):
        return ac.get_candidates(self.context, EVERYTHING).provider_summaries

    def answers(self):
        """The API's answers to EVERYTHING, as sent (the summaries in the
        order they were written), at microversions where summaries change
        shape (traits, every class, parents and roots)."""
        return {version: self.get(
            '/allocation_candidates?resources=VCPU:1,DISK_GB:1',
            version=version).body for version in ANSWER_VERSIONS}

    def assertWriteSeen(self, write, changed):
        """``write()`` changes the summaries of the providers ``changed``
        (and of no other) and advances their revisions; candidates asked
        for afterwards, in process and through the API, are those a cold
        cache gives."""
        before, revisions = self.summaries(), self.revisions()
        self.answers()
        write()
        after, revised = self.summaries(), self.revisions()
        answers = self.answers()
        self.assertEqual(
            sorted(changed),
            sorted(u for u in self.uuids if before.get(u) != after.get(u)))
        self.assertEqual(
            sorted(changed),
            sorted(u for u in changed if revised[u] != revisions[u]))
        with fixtures.MonkeyPatch(
                'objects.placement.provider_cache._KNOWN', {}):
            self.assertEqual(after, self.summaries())
            self.assertEqual(answers, self.answers())

    def test_cache_serves_unchanged_providers(self):
        self.summaries()
        read = []
        with fixtures.MonkeyPatch(
                'objects.placement.candidate_reads._read_providers',
                lambda conn, ids: read.append(ids) or {}):
            self.assertEqual(5, len(self.summaries()))
        self.assertEqual([], read)

    def test_provider_replaced_under_its_id(self):
        # SQLite gives the highest id again once its row is gone: the new
        # provider, written as the old one was, must not be taken for it.
        self.summaries()
        self.delete('/resource_providers/%s' % self.shared)
        aggregate = self.get('/resource_providers/%s/aggregates'
                             % self.root).json['aggregates']
        replacement = self.provider({'DISK_GB': {'total': 50}},
                                    traits=[query.SHARES],
                                    aggregates=aggregate)
        summaries = self.summaries()
        self.assertNotIn(self.shared, summaries)
        self.assertEqual({'capacity': 50, 'used': 0},
                         summaries[replacement].resources['DISK_GB'])

    def test_inventories_replaced(self):
        self.assertWriteSeen(lambda: self.set_inventory(
            self.disk, {'DISK_GB': {'total': 200}}), [self.disk])

    def test_one_inventory_added_updated_and_deleted(self):
        path = '/resource_providers/%s/inventories' % self.other

        def post():
            self.post(path, {
                'resource_class': 'MEMORY_MB', 'total': 64,
                'resource_provider_generation':
                    self.provider_generation(self.other)}, status=201)

        def put():
            self.put(path + '/MEMORY_MB', {
                'total': 128, 'resource_provider_generation':
                    self.provider_generation(self.other)}, status=200)
        self.assertWriteSeen(post, [self.other])
        self.assertWriteSeen(put, [self.other])
        self.assertWriteSeen(lambda: self.delete(path + '/MEMORY_MB'),
                             [self.other])

    def test_traits_set(self):
        def put():
            self.put('/resource_providers/%s/traits' % self.other, {
                'resource_provider_generation':
                    self.provider_generation(self.other),
                'traits': ['HW_CPU_X86_AVX']}, status=200)
        self.assertWriteSeen(put, [self.other])

    def test_custom_class_renamed(self):
        self.put('/resource_classes/CUSTOM_OLD', status=201, version='1.7')
        self.set_inventory(self.other, {'VCPU': {'total': 8},
                                        'DISK_GB': {'total': 100},
                                        'CUSTOM_OLD': {'total': 1}})
        self.assertWriteSeen(lambda: self.put(
            '/resource_classes/CUSTOM_OLD', {'name': 'CUSTOM_NEW'},
            status=200, version='1.6'), [self.other])

    def test_reparented_with_descendants(self):
        # ``root`` goes under ``other``: it and its child get a new root.
        def move():
            self.put('/resource_providers/%s' % self.root, {
                'name': 'root', 'parent_provider_uuid': self.other},
                status=200, version='1.37')
        self.assertWriteSeen(move, [self.root, self.disk])

    def test_allocation_made_moved_and_deleted(self):
        consumer = base.new_uuid()
        self.assertWriteSeen(lambda: self.put_allocations(
            consumer, {self.other: {'DISK_GB': 10}}), [self.other])
        generation = self.provider_generation(self.other)

        def move():
            self.put_allocations(consumer, {self.shared: {'DISK_GB': 10}},
                                 generation=self.allocations_of(consumer)[
                                     'consumer_generation'])
        # ``other`` only loses: Placement leaves its generation alone.
        self.assertWriteSeen(move, [self.other, self.shared])
        self.assertEqual(generation, self.provider_generation(self.other))
        self.assertWriteSeen(
            lambda: self.delete('/allocations/%s' % consumer), [self.shared])

    def test_moves_both_ways_at_once(self):
        # A move swaps the provider it leaves (its revision only) and the
        # one it takes, all held in id order: two consumers crossing
        # between two providers at once queue there, and neither fails or
        # runs again (as after a deadlock).
        attempts = []
        write = alloc_obj.AllocationWriter.write
        self.useFixture(fixtures.MonkeyPatch(
            'objects.placement.allocation.AllocationWriter.write',
            lambda writer: attempts.append(1) or write(writer)))
        first, second = base.new_uuid(), base.new_uuid()
        self.put_allocations(first, {self.other: {'DISK_GB': 1}})
        self.put_allocations(second, {self.shared: {'DISK_GB': 1}})
        before = self.answers()

        def mover(consumer, there, back):
            def run():
                context = placement_context.RequestContext(
                    is_admin=True, config=self.config.conf)
                for provider in [there, back] * 10:
                    alloc_obj.replace_all(context, [
                        alloc_obj.ConsumerAllocations(
                            consumer, {provider: {'DISK_GB': 1}},
                            base.PROJECT, base.USER)])
                return 'moved'
            return run
        self.assertEqual(['moved', 'moved'], races._run_together(
            mover(first, self.shared, self.other),
            mover(second, self.other, self.shared)))
        self.assertEqual(2 + 40, len(attempts))
        answers = self.answers()
        self.assertEqual({v: json.loads(a) for v, a in before.items()},
                         {v: json.loads(a) for v, a in answers.items()})
        with fixtures.MonkeyPatch(
                'objects.placement.provider_cache._KNOWN', {}):
            self.assertEqual(answers, self.answers())

    def test_allocations_emptied_by_post(self):
        consumer = base.new_uuid()
        self.put_allocations(consumer, {self.disk: {'DISK_GB': 10}})
        generation = self.allocations_of(consumer)['consumer_generation']
        self.assertWriteSeen(lambda: self.post_allocations(
            {consumer: ({}, {'generation': generation})}), [self.disk])

    def test_reshape(self):
        self.override_policy({'placement:reshaper:reshape': 'role:admin'})
        consumer = base.new_uuid()
        self.put_allocations(consumer, {self.other: {'DISK_GB': 10}})
        generation = self.allocations_of(consumer)['consumer_generation']

        def reshape():
            # ``other``'s disk moves to ``disk``'s tree with its allocation.
            self.post('/reshaper', {
                'inventories': {
                    self.other: {
                        'resource_provider_generation':
                            self.provider_generation(self.other),
                        'inventories': {'VCPU': {'total': 8}}},
                    self.disk: {
                        'resource_provider_generation':
                            self.provider_generation(self.disk),
                        'inventories': {'DISK_GB': {'total': 300}}}},
                'allocations': {consumer: base.consumer_body(
                    '1.38', {self.disk: {'DISK_GB': 10}},
                    generation=generation)}},
                status=204, version='1.38')
        self.assertWriteSeen(reshape, [self.other, self.disk])

    def test_full_cache_is_emptied(self):
        self.useFixture(fixtures.MonkeyPatch(
            'objects.placement.provider_cache.MAX_PROVIDERS', 3))
        self.useFixture(fixtures.MonkeyPatch(
            'objects.placement.provider_cache._KNOWN', {}))
        self.assertEqual(5, len(self.summaries()))
        self.assertEqual(5, len(provider_cache._KNOWN))
        self.set_inventory(self.disk, {'DISK_GB': {'total': 200}})
        self.assertEqual(
            {'capacity': 200, 'used': 0},
            self.summaries()[self.disk].resources['DISK_GB'])
        self.assertEqual(1, len(provider_cache._KNOWN))
