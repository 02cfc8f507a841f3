"""PUT/GET/DELETE /allocations/{consumer} and GET
/resource_providers/{uuid}/allocations through the API: every body form,
the microversion boundaries, generations, capacity and unit checks, and
bad input answered with Placement's 400 (never a 500)."""
import json

from tests import fixtures as volapi_fixtures
from tests.functional import test_placement_allocations_base as base

new_uuid = base.new_uuid
CONCURRENT = 'placement.concurrent_update'


class TestBodyForms(base.AllocationTestCase):

    def test_list_form_before_1_12(self):
        consumer = new_uuid()
        for version in ('1.0', '1.7', '1.8', '1.11'):
            self.put_allocations(consumer, {self.rp: {'DISK_GB': 5}},
                                 version=version)
            self.assertEqual(
                {'allocations': {self.rp: {
                    'generation': self.provider_generation(self.rp),
                    'resources': {'DISK_GB': 5}}}},
                self.allocations_of(consumer, version=version))

    def test_dict_form_refused_before_1_12_and_list_form_after(self):
        consumer = new_uuid()
        dict_body = base.consumer_body('1.12', {self.rp: {'DISK_GB': 1}})
        list_body = base.consumer_body('1.11', {self.rp: {'DISK_GB': 1}})
        self.assertError(self.put('/allocations/%s' % consumer, dict_body,
                                  version='1.11'),
                         400, detail='JSON does not validate')
        self.assertError(self.put('/allocations/%s' % consumer, list_body,
                                  version='1.12'),
                         400, detail='JSON does not validate')
        self.assertEqual({}, self.allocations_of(consumer)['allocations'])

    def test_before_1_8_owner_is_refused_and_incomplete_is_recorded(self):
        consumer = new_uuid()
        body = base.consumer_body('1.0', {self.rp: {'DISK_GB': 1}})
        body['project_id'] = base.PROJECT
        self.put('/allocations/%s' % consumer, body, status=400,
                 version='1.7')
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 1}},
                             version='1.7')
        shown = self.allocations_of(consumer, version='1.12')
        self.assertEqual(base.INCOMPLETE, shown['project_id'])
        self.assertEqual(base.INCOMPLETE, shown['user_id'])

    def test_from_1_8_project_and_user_are_required(self):
        consumer = new_uuid()
        for missing in ('project_id', 'user_id'):
            body = base.consumer_body('1.8', {self.rp: {'DISK_GB': 1}})
            del body[missing]
            self.assertError(self.put('/allocations/%s' % consumer, body,
                                      version='1.8'),
                             400, detail="'%s' is a required" % missing)
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 1}},
                             version='1.8', project_id='p8', user_id='u8')
        shown = self.allocations_of(consumer, version='1.12')
        self.assertEqual(('p8', 'u8'), (shown['project_id'],
                                        shown['user_id']))

    def test_provider_generation_in_dict_form_is_ignored(self):
        consumer = new_uuid()
        body = base.consumer_body('1.12', {self.rp: {'DISK_GB': 2}})
        body['allocations'][self.rp]['generation'] = 999
        self.put('/allocations/%s' % consumer, body, status=204,
                 version='1.12')
        self.assertEqual({'DISK_GB': 2}, self.allocations_of(consumer)[
            'allocations'][self.rp]['resources'])

    def test_1_28_requires_consumer_generation(self):
        consumer = new_uuid()
        body = base.consumer_body('1.28', {self.rp: {'DISK_GB': 1}})
        del body['consumer_generation']
        self.assertError(self.put('/allocations/%s' % consumer, body,
                                  version='1.28'),
                         400, detail="'consumer_generation' is a required")
        self.put('/allocations/%s' % consumer, body, status=204,
                 version='1.27')

    def test_1_28_empty_allocations_remove_and_earlier_refuse(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 3}})
        empty = base.consumer_body('1.27', {})
        self.assertError(self.put('/allocations/%s' % consumer, empty,
                                  version='1.27'),
                         400, detail='JSON does not validate')
        self.put_allocations(consumer, {}, generation=1)
        self.assertEqual({'allocations': {}}, self.allocations_of(consumer))
        self.assertIsNone(self.consumer_row(consumer))
        self.assertEqual({'DISK_GB': 0, 'VCPU': 0}, self.usages(self.rp))

    def test_1_34_mappings_accepted_not_before(self):
        consumer = new_uuid()
        body = base.consumer_body('1.34', {self.rp: {'DISK_GB': 1}})
        body['mappings'] = {'_DISK': [self.rp]}
        self.assertError(self.put('/allocations/%s' % consumer, body,
                                  version='1.33'),
                         400, detail='Additional properties')
        self.put('/allocations/%s' % consumer, body, status=204,
                 version='1.34')
        self.assertNotIn('mappings', self.allocations_of(consumer))

    def test_1_38_consumer_type_required_and_shown(self):
        consumer = new_uuid()
        body = base.consumer_body('1.38', {self.rp: {'DISK_GB': 1}})
        del body['consumer_type']
        self.assertError(self.put('/allocations/%s' % consumer, body,
                                  version='1.38'),
                         400, detail="'consumer_type' is a required")
        body = base.consumer_body('1.38', {self.rp: {'DISK_GB': 1}},
                                  consumer_type='MIGRATION')
        self.assertError(self.put('/allocations/%s' % consumer, body,
                                  version='1.37'),
                         400, detail='Additional properties')
        self.put('/allocations/%s' % consumer, body, status=204,
                 version='1.38')
        self.assertEqual('MIGRATION',
                         self.allocations_of(consumer)['consumer_type'])
        # Written before 1.38, a consumer keeps its type; one never given
        # a type shows Placement's "unknown".
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 2}},
                             version='1.28', generation=1)
        self.assertEqual('MIGRATION',
                         self.allocations_of(consumer)['consumer_type'])
        other = new_uuid()
        self.put_allocations(other, {self.rp: {'DISK_GB': 1}},
                             version='1.37')
        self.assertEqual('unknown',
                         self.allocations_of(other)['consumer_type'])

    def test_several_providers_and_classes(self):
        other = self.create_provider()['uuid']
        self.set_inventory(other, {'MEMORY_MB': {'total': 1024}})
        consumer = new_uuid()
        self.put_allocations(consumer, {
            self.rp: {'DISK_GB': 10, 'VCPU': 2},
            other: {'MEMORY_MB': 512}})
        shown = self.allocations_of(consumer)['allocations']
        self.assertEqual({'DISK_GB': 10, 'VCPU': 2},
                         shown[self.rp]['resources'])
        self.assertEqual({'MEMORY_MB': 512}, shown[other]['resources'])


class TestReading(base.AllocationTestCase):

    def setUp(self):
        super().setUp()
        self.consumer = new_uuid()
        self.put_allocations(self.consumer, {self.rp: {'DISK_GB': 4}},
                             project_id='proj', user_id='usr')

    def test_fields_by_version(self):
        expected_keys = [
            ('1.11', {'allocations'}),
            ('1.12', {'allocations', 'project_id', 'user_id'}),
            ('1.27', {'allocations', 'project_id', 'user_id'}),
            ('1.28', {'allocations', 'project_id', 'user_id',
                      'consumer_generation'}),
            ('1.37', {'allocations', 'project_id', 'user_id',
                      'consumer_generation'}),
            ('1.38', {'allocations', 'project_id', 'user_id',
                      'consumer_generation', 'consumer_type'}),
        ]
        for version, keys in expected_keys:
            self.assertEqual(keys, set(self.allocations_of(
                self.consumer, version=version)), version)
        self.assertEqual({'allocations': {self.rp: {
            'generation': 2, 'resources': {'DISK_GB': 4}}},
            'project_id': 'proj', 'user_id': 'usr',
            'consumer_generation': 1, 'consumer_type': 'INSTANCE'},
            self.allocations_of(self.consumer))

    def test_unknown_consumer_has_no_allocations(self):
        for version in ('1.0', '1.38'):
            self.assertEqual({'allocations': {}},
                             self.allocations_of(new_uuid(), version))

    def test_dashless_and_upper_case_uuid_name_the_same_consumer(self):
        for form in (self.consumer.replace('-', ''), self.consumer.upper()):
            self.assertEqual({'DISK_GB': 4}, self.allocations_of(form)[
                'allocations'][self.rp]['resources'])

    def test_last_modified_from_1_15(self):
        response = self.get('/allocations/%s' % self.consumer,
                            version='1.14')
        self.assertNotIn('last-modified', response.headers)
        response = self.get('/allocations/%s' % self.consumer,
                            version='1.15')
        self.assertIn('last-modified', response.headers)
        self.assertEqual('no-cache', response.headers['cache-control'])

    def test_provider_allocations(self):
        path = '/resource_providers/%s/allocations' % self.rp
        self.assertEqual({'resource_provider_generation': 2,
                          'allocations': {self.consumer: {
                              'resources': {'DISK_GB': 4}}}},
                         self.get(path, version='1.27').json)
        self.assertEqual({'resource_provider_generation': 2,
                          'allocations': {self.consumer: {
                              'resources': {'DISK_GB': 4},
                              'consumer_generation': 1}}},
                         self.get(path, version='1.28').json)

    def test_provider_allocations_unknown_provider(self):
        missing = new_uuid()
        self.assertError(
            self.get('/resource_providers/%s/allocations' % missing,
                     status=404), 404,
            detail="Resource provider '%s' not found" % missing)

    def test_provider_without_allocations(self):
        other = self.create_provider()['uuid']
        self.assertEqual(
            {'resource_provider_generation': 0, 'allocations': {}},
            self.get('/resource_providers/%s/allocations' % other).json)

    def test_legacy_allocations_without_consumer_record_show(self):
        legacy = new_uuid()
        self.legacy_allocation(legacy, self.rp, 0, 2)   # VCPU
        self.assertEqual({'allocations': {self.rp: {
            'generation': 2, 'resources': {'VCPU': 2}}},
            'project_id': base.INCOMPLETE, 'user_id': base.INCOMPLETE,
            'consumer_generation': None, 'consumer_type': 'unknown'},
            self.allocations_of(legacy))
        self.assertIsNone(self.get(
            '/resource_providers/%s/allocations' % self.rp).json[
                'allocations'][legacy]['consumer_generation'])


class TestGenerations(base.AllocationTestCase):

    def test_consumer_generation_starts_at_1_and_counts_writes(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 1}})
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 2}},
                             generation=1)
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 3}},
                             version='1.27')
        self.assertEqual(3, self.allocations_of(consumer)[
            'consumer_generation'])

    def test_stale_consumer_generation_is_409_and_changes_nothing(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 1}})
        before = self.provider_generation(self.rp)
        response = self.put_allocations(
            consumer, {self.rp: {'DISK_GB': 9}}, generation=0, status=409)
        self.assertError(
            response, 409, code=CONCURRENT,
            detail='consumer generation conflict - expected 1 but got 0')
        response = self.put_allocations(
            consumer, {self.rp: {'DISK_GB': 9}}, generation=None,
            status=409)
        self.assertError(
            response, 409, code=CONCURRENT,
            detail='consumer generation conflict - expected 1 but got None')
        self.assertEqual(before, self.provider_generation(self.rp))
        self.assertEqual({'DISK_GB': 1, 'VCPU': 0}, self.usages(self.rp))

    def test_generations_advance_as_placements(self):
        other = self.create_provider()['uuid']
        self.set_inventory(other, {'DISK_GB': {'total': 100}})
        untouched = self.create_provider()['uuid']
        consumer = new_uuid()
        gens = {rp: self.provider_generation(rp)
                for rp in (self.rp, other, untouched)}
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 5}})
        self.assertEqual(gens[self.rp] + 1,
                         self.provider_generation(self.rp))
        # Moving to another provider bumps the new one only, as
        # Placement 16.0.0 does.
        self.put_allocations(consumer, {other: {'DISK_GB': 5}},
                             generation=1)
        self.assertEqual(gens[self.rp] + 1,
                         self.provider_generation(self.rp))
        self.assertEqual(gens[other] + 1, self.provider_generation(other))
        self.assertEqual(gens[untouched],
                         self.provider_generation(untouched))
        self.assertEqual({'DISK_GB': 0, 'VCPU': 0}, self.usages(self.rp))
        self.assertEqual({'DISK_GB': 5}, self.usages(other))
        # Emptying a consumer's allocations bumps the providers it held.
        self.put_allocations(consumer, {}, generation=2)
        self.assertEqual(gens[other] + 2, self.provider_generation(other))
        self.assertEqual(gens[self.rp] + 1,
                         self.provider_generation(self.rp))
        self.assertEqual({'DISK_GB': 0}, self.usages(other))

    def test_delete(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 5}})
        before = self.provider_generation(self.rp)
        self.delete('/allocations/%s' % consumer)
        # Placement 16.0.0 leaves the generation as it is.
        self.assertEqual(before, self.provider_generation(self.rp))
        self.assertIsNone(self.consumer_row(consumer))
        self.assertEqual({'allocations': {}}, self.allocations_of(consumer))
        self.assertError(
            self.delete('/allocations/%s' % consumer, status=404), 404,
            detail="No allocations for consumer '%s'" % consumer)

    def test_delete_legacy_allocations(self):
        legacy = new_uuid()
        self.legacy_allocation(legacy, self.rp, 2, 7)
        self.delete('/allocations/%s' % legacy)
        self.assertEqual(0, self.allocation_count())


class TestCapacity(base.AllocationTestCase):

    def _refused(self, response, message):
        self.assertError(response, 409, code='placement.undefined_code',
                         detail='Unable to allocate inventory: ' + message)

    def test_capacity_is_total_minus_reserved_times_ratio(self):
        rp = self.create_provider()['uuid']
        self.set_inventory(rp, {'DISK_GB': {
            'total': 10, 'reserved': 2, 'allocation_ratio': 1.5}})
        self.put_allocations(new_uuid(), {rp: {'DISK_GB': 10}})
        self._refused(
            self.put_allocations(new_uuid(), {rp: {'DISK_GB': 3}},
                                 status=409),
            "Unable to create allocation for 'DISK_GB' on resource "
            "provider '%s'. The requested amount would exceed the "
            "capacity." % rp)
        self.put_allocations(new_uuid(), {rp: {'DISK_GB': 2}})
        self.assertEqual({'DISK_GB': 12}, self.usages(rp))

    def test_a_consumer_own_allocations_do_not_count_against_it(self):
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 80}})
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 100}},
                             generation=1)
        self.assertEqual({'DISK_GB': 100, 'VCPU': 0}, self.usages(self.rp))

    def test_units(self):
        rp = self.create_provider()['uuid']
        self.set_inventory(rp, {'DISK_GB': {
            'total': 100, 'min_unit': 2, 'max_unit': 20, 'step_size': 2}})
        message = ("Unable to create allocation for 'DISK_GB' on resource "
                   "provider '%s'. The requested amount would violate "
                   "inventory constraints." % rp)
        for amount in (1, 3, 22):
            self._refused(self.put_allocations(
                new_uuid(), {rp: {'DISK_GB': amount}}, status=409), message)
        self.put_allocations(new_uuid(), {rp: {'DISK_GB': 20}})

    def test_class_without_inventory(self):
        self._refused(
            self.put_allocations(new_uuid(), {self.rp: {'MEMORY_MB': 1}},
                                 status=409),
            "Inventory for 'MEMORY_MB' on resource provider '%s' invalid."
            % self.rp)

    def test_a_failure_on_one_provider_writes_nothing(self):
        full = self.create_provider()['uuid']
        self.set_inventory(full, {'DISK_GB': {'total': 1}})
        consumer = new_uuid()
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 5}})
        before = {rp: self.provider_generation(rp) for rp in (self.rp, full)}
        self.put_allocations(consumer, {self.rp: {'DISK_GB': 50},
                                        full: {'DISK_GB': 2}},
                             generation=1, status=409)
        self.assertEqual(before, {rp: self.provider_generation(rp)
                                  for rp in (self.rp, full)})
        self.assertEqual({'DISK_GB': 5}, self.allocations_of(consumer)[
            'allocations'][self.rp]['resources'])
        self.assertEqual(1, self.allocations_of(consumer)[
            'consumer_generation'])


class TestBadInput(base.AllocationTestCase):
    """Every refusal is a 400 in Placement's error body."""

    def _bad(self, body, detail=None, consumer=None, version='1.38'):
        response = self.put('/allocations/%s' % (consumer or new_uuid()),
                            body, version=version)
        self.assertError(response, 400, detail=detail)
        self.assertEqual(0, self.allocation_count())
        self.assertEqual(0, self.consumer_count())

    def _with(self, resources=None, **changes):
        body = base.consumer_body('1.38', {
            self.rp: resources or {'DISK_GB': 1}})
        body.update(changes)
        return body

    def test_malformed_consumer_uuid(self):
        self._bad(self._with(), 'Malformed consumer_uuid: not-a-uuid',
                  consumer='not-a-uuid')

    def test_not_json(self):
        self._bad('{"allocations": ', 'Malformed JSON')

    def test_amounts(self):
        for amount in (0, -1, 'one', 1.5, None, 2 ** 31, 10 ** 30):
            self._bad(self._with({'DISK_GB': amount}),
                      'JSON does not validate')

    def test_resource_class_names(self):
        for name in ('disk_gb', '', 'DISK GB'):
            self._bad(self._with({name: 1}), 'JSON does not validate')
        self._bad(self._with({'CUSTOM_NOPE': 1}),
                  'Unable to allocate inventory for consumer')
        self._bad(self._with({'CUSTOM_NOPE': 1}),
                  'No such resource class CUSTOM_NOPE')

    def test_unknown_provider(self):
        missing = new_uuid()
        body = base.consumer_body('1.38', {missing: {'DISK_GB': 1}})
        self._bad(body, "Allocation for resource provider '%s' that does "
                        "not exist." % missing)

    def test_malformed_provider_uuid(self):
        self._bad(base.consumer_body('1.38', {'nope': {'DISK_GB': 1}}),
                  'JSON does not validate')
        self._bad(base.consumer_body('1.7', {'nope': {'DISK_GB': 1}}),
                  'JSON does not validate', version='1.7')

    def test_extra_keys(self):
        self._bad(self._with(extra=1), 'Additional properties')
        body = self._with()
        body['allocations'][self.rp]['extra'] = 1
        self._bad(body, 'Additional properties')
        body = base.consumer_body('1.7', {self.rp: {'DISK_GB': 1}})
        body['allocations'][0]['resource_provider']['name'] = 'x'
        self._bad(body, 'Additional properties', version='1.7')

    def test_wrong_types(self):
        for key, value in (('project_id', 5), ('project_id', ''),
                           ('user_id', None), ('consumer_generation', '1'),
                           ('consumer_generation', 2 ** 40),
                           ('consumer_type', 'lower'),
                           ('allocations', []), ('allocations', 'x')):
            self._bad(self._with(**{key: value}), 'JSON does not validate')
        self._bad([], 'JSON does not validate')

    def test_no_allocations_before_1_28(self):
        self._bad(base.consumer_body('1.27', {}), 'JSON does not validate',
                  version='1.27')
        self._bad(base.consumer_body('1.0', {}), 'JSON does not validate',
                  version='1.0')

    def test_wrong_content_type(self):
        response = self.put('/allocations/%s' % new_uuid(),
                            json.dumps(self._with()),
                            content_type='text/plain')
        self.assertError(response, 415)


class TestStatements(base.AllocationTestCase):
    """What a new consumer's claim sends to the database, BEGIN and COMMIT
    aside: on PostgreSQL the lookup (which locks the provider) and the
    provider's compare-and-swap, which carries the consumer's record, the
    inventory's ``allocated`` and the allocation in its own statement
    (db.writes); elsewhere those three follow the swap one by one."""

    def test_new_consumer_claim(self):
        # The project, user and consumer type exist from here on.
        self.put_allocations(new_uuid(), {self.rp: {'DISK_GB': 1}})
        consumer = new_uuid()
        statements = volapi_fixtures.statements_sent(lambda: self.put_allocations(
            consumer, {self.rp: {'DISK_GB': 2}}))
        self.assertEqual(2 if self.backend == 'postgresql' else 5,
                         len(statements), statements)
        self.assertEqual({'DISK_GB': 2}, self.allocations_of(consumer)[
            'allocations'][self.rp]['resources'])
        self.assertEqual(3, self.get(
            '/resource_providers/%s/usages' % self.rp).json['usages'][
            'DISK_GB'])
