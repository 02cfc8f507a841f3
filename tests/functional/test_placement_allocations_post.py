"""POST /allocations (1.13): several consumers in one transaction, all or
nothing, consumer creation included."""
from tests.functional import test_placement_allocations_base as base

new_uuid = base.new_uuid


class TestPostAllocations(base.AllocationTestCase):

    def setUp(self):
        super().setUp()
        self.target = self.create_provider()['uuid']
        self.set_inventory(self.target, {'DISK_GB': {'total': 10}})

    def _state(self):
        """Everything a failed POST must leave as it was."""
        return (self.allocation_count(), self.consumer_count(),
                self.provider_generation(self.rp),
                self.provider_generation(self.target),
                self.usages(self.rp), self.usages(self.target))

    def test_not_before_1_13(self):
        self.post('/allocations', {}, status=404, version='1.12')

    def test_two_new_consumers(self):
        first, second = new_uuid(), new_uuid()
        self.post_allocations({
            first: ({self.rp: {'DISK_GB': 5}}, {}),
            second: ({self.target: {'DISK_GB': 3}, self.rp: {'VCPU': 1}},
                     {'project_id': 'other'})})
        self.assertEqual(5, self.allocations_of(first)['allocations'][
            self.rp]['resources']['DISK_GB'])
        shown = self.allocations_of(second)
        self.assertEqual('other', shown['project_id'])
        self.assertEqual(1, shown['consumer_generation'])
        self.assertEqual({'DISK_GB': 3}, self.usages(self.target))

    def test_1_13_dict_form_without_generations(self):
        first = new_uuid()
        self.post_allocations({first: ({self.rp: {'DISK_GB': 5}}, {})},
                              version='1.13')
        self.post_allocations({first: ({self.rp: {'DISK_GB': 6}}, {})},
                              version='1.27')
        self.assertEqual(2, self.allocations_of(first)[
            'consumer_generation'])

    def test_move_between_consumers(self):
        """A migration: the instance's allocation moves to the migration
        record on the source, the instance is claimed on the target; one
        request, no moment where either is counted twice or not at all."""
        instance, migration = new_uuid(), new_uuid()
        self.put_allocations(instance, {self.rp: {'DISK_GB': 8}})
        self.post_allocations({
            migration: ({self.rp: {'DISK_GB': 8}},
                        {'consumer_type': 'MIGRATION'}),
            instance: ({self.target: {'DISK_GB': 8}}, {'generation': 1})})
        self.assertEqual({'DISK_GB': 8, 'VCPU': 0}, self.usages(self.rp))
        self.assertEqual({'DISK_GB': 8}, self.usages(self.target))
        # Then the migration record goes: empty allocations remove it.
        self.post_allocations({migration: ({}, {'generation': 1})})
        self.assertIsNone(self.consumer_row(migration))
        self.assertEqual({'DISK_GB': 0, 'VCPU': 0}, self.usages(self.rp))

    def test_capacity_failure_of_the_second_consumer_writes_nothing(self):
        first, second = new_uuid(), new_uuid()
        before = self._state()
        response = self.post_allocations({
            first: ({self.rp: {'DISK_GB': 5}}, {}),
            second: ({self.target: {'DISK_GB': 11}}, {})}, status=409)
        self.assertError(response, 409,
                         detail="The requested amount would exceed the "
                                "capacity.")
        self.assertEqual(before, self._state())
        self.assertIsNone(self.consumer_row(first))
        # Nothing blocks the next "new consumer" write of either.
        self.post_allocations({
            first: ({self.rp: {'DISK_GB': 5}}, {}),
            second: ({self.target: {'DISK_GB': 10}}, {})})

    def test_two_consumers_together_exceeding_capacity(self):
        response = self.post_allocations({
            new_uuid(): ({self.target: {'DISK_GB': 6}}, {}),
            new_uuid(): ({self.target: {'DISK_GB': 6}}, {})}, status=409)
        self.assertError(response, 409, detail='exceed the capacity')
        self.assertEqual({'DISK_GB': 0}, self.usages(self.target))

    def test_generation_conflict_of_one_consumer_writes_nothing(self):
        existing = new_uuid()
        self.put_allocations(existing, {self.rp: {'DISK_GB': 1}})
        before = self._state()
        fresh = new_uuid()
        response = self.post_allocations({
            fresh: ({self.rp: {'DISK_GB': 5}}, {}),
            existing: ({self.rp: {'DISK_GB': 2}}, {'generation': 7})},
            status=409)
        self.assertError(response, 409, code='placement.concurrent_update',
                         detail='consumer generation conflict - expected 1 '
                                'but got 7')
        self.assertEqual(before, self._state())
        self.assertIsNone(self.consumer_row(fresh))

    def test_unknown_provider_or_class_writes_nothing(self):
        missing = new_uuid()
        before = self._state()
        response = self.post_allocations({
            new_uuid(): ({self.rp: {'DISK_GB': 5}}, {}),
            new_uuid(): ({missing: {'DISK_GB': 1}}, {})}, status=400)
        self.assertError(response, 400,
                         detail="Allocation for resource provider '%s' that "
                                "does not exist." % missing)
        response = self.post_allocations({
            new_uuid(): ({self.rp: {'DISK_GB': 5}}, {}),
            new_uuid(): ({self.rp: {'CUSTOM_NOPE': 1}}, {})}, status=400)
        self.assertError(response, 400,
                         detail='Unable to allocate inventory No such '
                                'resource class CUSTOM_NOPE.')
        self.assertEqual(before, self._state())

    def test_1_28_generation_and_1_38_type_required_per_consumer(self):
        consumer = new_uuid()
        for version, key in (('1.28', 'consumer_generation'),
                             ('1.38', 'consumer_type')):
            body = {consumer: base.consumer_body(
                version, {self.rp: {'DISK_GB': 1}})}
            del body[consumer][key]
            self.assertError(self.post('/allocations', body,
                                       version=version),
                             400, detail="'%s' is a required" % key)

    def test_bad_input(self):
        part = base.consumer_body('1.38', {self.rp: {'DISK_GB': 1}})
        consumer = new_uuid()
        for body in ({}, [], {'not-a-uuid': part},
                     {consumer: dict(part, extra=1)},
                     {consumer: dict(part, project_id=None)}):
            self.assertError(self.post('/allocations', body), 400,
                             detail='JSON does not validate')
        # 36 characters of the uuid alphabet, but no uuid.
        self.assertError(self.post('/allocations', {'-' * 36: part}), 400,
                         detail='Malformed consumer_uuid')
        # The same consumer twice (in lower and upper case).
        self.assertError(self.post('/allocations', {
            consumer: part, consumer.upper(): part}), 400,
            detail='named more than once')
        self.assertEqual(0, self.allocation_count())
