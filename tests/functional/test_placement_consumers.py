"""Consumer generations, cell by cell as the consumer-generation spec
(seeds/000) lays them out: PUT /allocations/{consumer} and POST
/allocations, for a consumer with no allocations, with allocations but no
consumer record (written before consumers existed), and with both; before
1.8, from 1.8 (1.13 for POST) to 1.27, and from 1.28. Then: a consumer
whose allocations are all gone is removed, and no failure leaves a
consumer record behind."""
import threading

from objects.placement import allocation as alloc_obj
from objects.placement import consumer as consumer_obj
from tests.functional import test_placement_allocations_base as base
from volapi.placement import context as placement_context

new_uuid = base.new_uuid
CONCURRENT = 'placement.concurrent_update'
VCPU_ID = 0  # os-resource-classes numbering


class ConsumerTestCase(base.AllocationTestCase):

    def no_allocations(self):
        return new_uuid()

    def allocations_without_record(self):
        consumer = new_uuid()
        self.legacy_allocation(consumer, self.rp, VCPU_ID, 1)
        return consumer

    def allocations_and_record(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'VCPU': 1}},
                             project_id='orig', user_id='orig')
        return consumer

    def write(self, method, consumer, version, status=204, amount=4,
              **kwargs):
        allocations = {self.rp: {'DISK_GB': amount}}
        if method == 'PUT':
            return self.put_allocations(consumer, allocations,
                                        version=version, status=status,
                                        **kwargs)
        return self.post_allocations({consumer: (allocations, kwargs)},
                                     version=version, status=status)

    def assertReplaced(self, consumer, generation, project, user):
        """The write took effect: the allocations are the new ones only,
        and the record has this generation and owner."""
        shown = self.allocations_of(consumer)
        self.assertEqual({self.rp: {'DISK_GB': 4}}, {
            rp: held['resources'] for rp, held in
            shown['allocations'].items()})
        self.assertEqual({'generation': generation, 'project': project,
                          'user': user}, self.consumer_row(consumer))


class TestPutBefore1_8(ConsumerTestCase):
    """Always succeeds; a new record gets the incomplete project/user."""

    def test_no_allocations(self):
        consumer = self.no_allocations()
        self.write('PUT', consumer, '1.7')
        self.assertReplaced(consumer, 1, base.INCOMPLETE, base.INCOMPLETE)

    def test_allocations_without_record(self):
        consumer = self.allocations_without_record()
        self.write('PUT', consumer, '1.7')
        self.assertReplaced(consumer, 1, base.INCOMPLETE, base.INCOMPLETE)

    def test_allocations_and_record(self):
        # The write names no owner, so the consumer keeps the one it has.
        consumer = self.allocations_and_record()
        self.write('PUT', consumer, '1.7')
        self.assertReplaced(consumer, 2, 'orig', 'orig')


class TestPut1_8To1_27(ConsumerTestCase):
    """Always succeeds; the record takes the project/user given."""

    def test_no_allocations(self):
        for version in ('1.8', '1.27'):
            consumer = self.no_allocations()
            self.write('PUT', consumer, version, project_id='p', user_id='u')
            self.assertReplaced(consumer, 1, 'p', 'u')

    def test_allocations_without_record(self):
        for version in ('1.8', '1.27'):
            consumer = self.allocations_without_record()
            self.write('PUT', consumer, version, project_id='p', user_id='u')
            self.assertReplaced(consumer, 1, 'p', 'u')

    def test_allocations_and_record(self):
        for version in ('1.8', '1.27'):
            consumer = self.allocations_and_record()
            self.write('PUT', consumer, version, project_id='p', user_id='u')
            self.assertReplaced(consumer, 2, 'p', 'u')


class WithGenerations:
    """From 1.28 (PUT) or with 1.28 (POST): the generation must match;
    null means "no record"."""

    method = None

    def test_no_allocations(self):
        for version in ('1.28', '1.38'):
            consumer = self.no_allocations()
            self.assertRefused(
                self.write(self.method, consumer, version, status=409,
                           generation=5),
                consumer, 'consumer generation conflict - expected null '
                          'but got 5', None)
            self.write(self.method, consumer, version, generation=None)
            self.assertReplaced(consumer, 1, base.PROJECT, base.USER)

    def test_allocations_without_record(self):
        for version in ('1.28', '1.38'):
            consumer = self.allocations_without_record()
            self.assertRefused(
                self.write(self.method, consumer, version, status=409,
                           generation=1),
                consumer, 'consumer generation conflict - expected null '
                          'but got 1', None)
            self.write(self.method, consumer, version, generation=None)
            self.assertReplaced(consumer, 1, base.PROJECT, base.USER)

    def test_allocations_and_record(self):
        for version in ('1.28', '1.38'):
            consumer = self.allocations_and_record()
            before = self.consumer_row(consumer)
            for given, shown in ((0, '0'), (2, '2'), (None, 'None')):
                self.assertRefused(
                    self.write(self.method, consumer, version, status=409,
                               generation=given),
                    consumer, 'consumer generation conflict - expected 1 '
                              'but got %s' % shown, before)
            self.write(self.method, consumer, version, generation=1)
            self.assertReplaced(consumer, 2, base.PROJECT, base.USER)
            self.write(self.method, consumer, version, generation=2)
            self.assertEqual(3, self.consumer_row(consumer)['generation'])

    def assertRefused(self, response, consumer, detail, before):
        """409 concurrent_update, and the consumer as it was: its record
        (or none) and its allocations (none of the 4 DISK_GB)."""
        self.assertError(response, 409, code=CONCURRENT, detail=detail)
        self.assertEqual(before, self.consumer_row(consumer))
        self.assertNotIn('DISK_GB', [
            cls for held in self.allocations_of(consumer)[
                'allocations'].values() for cls in held['resources']])


class TestPutFrom1_28(WithGenerations, ConsumerTestCase):
    method = 'PUT'


class TestPost1_13To1_27(ConsumerTestCase):
    """Always succeeds; records are created (project and user are always
    given) or bumped with no check."""

    def test_no_allocations(self):
        for version in ('1.13', '1.27'):
            consumer = self.no_allocations()
            self.write('POST', consumer, version)
            self.assertReplaced(consumer, 1, base.PROJECT, base.USER)

    def test_allocations_without_record(self):
        for version in ('1.13', '1.27'):
            consumer = self.allocations_without_record()
            self.write('POST', consumer, version)
            self.assertReplaced(consumer, 1, base.PROJECT, base.USER)

    def test_allocations_and_record(self):
        for version in ('1.13', '1.27'):
            consumer = self.allocations_and_record()
            self.write('POST', consumer, version)
            self.assertReplaced(consumer, 2, base.PROJECT, base.USER)


class TestPostFrom1_28(WithGenerations, ConsumerTestCase):
    method = 'POST'


class TestConsumerLifetime(ConsumerTestCase):
    """A consumer exists exactly while it has allocations."""

    def test_removed_when_its_allocations_are_gone(self):
        by_put, by_post, by_delete = (self.allocations_and_record()
                                      for _ in range(3))
        self.put_allocations(by_put, {}, generation=1)
        self.post_allocations({by_post: ({}, {'generation': 1})})
        self.delete('/allocations/%s' % by_delete)
        for consumer in (by_put, by_post, by_delete):
            self.assertIsNone(self.consumer_row(consumer))
        self.assertEqual(0, self.consumer_count())

    def test_empty_write_for_a_new_consumer_leaves_nothing(self):
        consumer = self.no_allocations()
        self.put_allocations(consumer, {}, generation=None)
        self.assertIsNone(self.consumer_row(consumer))

    def test_empty_write_removes_allocations_without_record(self):
        consumer = self.allocations_without_record()
        self.put_allocations(consumer, {}, generation=None)
        self.assertEqual(0, self.allocation_count())
        self.assertIsNone(self.consumer_row(consumer))

    def test_no_failure_leaves_a_record_behind(self):
        """Each refused first write of a new consumer leaves no record, so
        the next "consumer_generation: null" write succeeds."""
        consumer = self.no_allocations()
        failures = [
            ({self.rp: {'DISK_GB': 101}}, 409),         # capacity
            ({self.rp: {'MEMORY_MB': 1}}, 409),         # no inventory
            ({self.rp: {'CUSTOM_NOPE': 1}}, 400),       # unknown class
            ({new_uuid(): {'DISK_GB': 1}}, 400),        # unknown provider
        ]
        for allocations, status in failures:
            for version in ('1.7', '1.27', '1.38'):
                self.put_allocations(consumer, allocations, version=version,
                                     status=status)
                self.assertIsNone(self.consumer_row(consumer))
        self.write('PUT', consumer, '1.38', generation=None)
        self.assertReplaced(consumer, 1, base.PROJECT, base.USER)


class TestConcurrentWriters(ConsumerTestCase):
    """Writers racing on one consumer, through the objects the handlers
    use, on threads with their own contexts."""

    def _race(self, consumer, generation, writers=8):
        outcomes = []
        lock = threading.Lock()
        start = threading.Barrier(writers)

        def write(amount):
            context = placement_context.RequestContext(
                is_admin=True, config=self.config.conf)
            start.wait()
            try:
                alloc_obj.replace_all(context, [alloc_obj.ConsumerAllocations(
                    consumer, {self.rp: {'DISK_GB': amount}}, 'p', 'u',
                    generation=generation)])
                result = 'ok'
            except consumer_obj.ConsumerGenerationConflict:
                result = 'conflict'
            with lock:
                outcomes.append(result)

        threads = [threading.Thread(target=write, args=(n + 1,))
                   for n in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(outcomes)

    def test_one_creator_wins(self):
        consumer = self.no_allocations()
        self.assertEqual(['conflict'] * 7 + ['ok'],
                         self._race(consumer, None))
        self.assertEqual(1, self.consumer_row(consumer)['generation'])
        self.assertEqual(1, self.allocation_count())

    def test_one_writer_of_a_generation_wins(self):
        consumer = self.allocations_and_record()
        self.assertEqual(['conflict'] * 7 + ['ok'], self._race(consumer, 1))
        self.assertEqual(2, self.consumer_row(consumer)['generation'])

    def test_unchecked_writers_all_succeed_one_after_another(self):
        consumer = self.allocations_and_record()
        self.assertEqual(['ok'] * 8,
                         self._race(consumer, consumer_obj.UNCHECKED))
        self.assertEqual(9, self.consumer_row(consumer)['generation'])
        self.assertEqual(1, self.allocation_count())
