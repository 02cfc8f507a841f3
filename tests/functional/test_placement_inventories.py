"""/resource_providers/{uuid}/inventories: the whole set and single
classes, generations, validation per microversion, and inventory in use."""
import uuid

from tests.functional import test_placement_base as base
from tests.functional.test_placement_resource_providers import \
    add_allocation

DISK_GB = 2  # os_resource_classes.STANDARDS.index('DISK_GB')
VCPU = 0


class InventoryTestCase(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider('rp')
        self.path = '/resource_providers/%s/inventories' % self.rp['uuid']

    def generation(self):
        return self.get(self.path).json['resource_provider_generation']


class TestSetAll(InventoryTestCase):

    def test_put_with_defaults_and_get(self):
        result = self.set_inventory(self.rp['uuid'], {
            'DISK_GB': {'total': 100},
            'VCPU': {'total': 8, 'reserved': 2, 'min_unit': 1,
                     'max_unit': 4, 'step_size': 2,
                     'allocation_ratio': 16.0}})
        self.assertEqual(1, result['resource_provider_generation'])
        self.assertEqual({'total': 100, 'reserved': 0, 'min_unit': 1,
                          'max_unit': 2147483647, 'step_size': 1,
                          'allocation_ratio': 1.0},
                         result['inventories']['DISK_GB'])
        shown = self.get(self.path).json
        self.assertEqual(result, shown)
        self.assertEqual(1, self.get('/resource_providers/%s'
                                     % self.rp['uuid']).json['generation'])

    def test_put_replaces(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100},
                                             'VCPU': {'total': 8}})
        result = self.set_inventory(self.rp['uuid'],
                                    {'VCPU': {'total': 16}})
        self.assertEqual(['VCPU'], list(result['inventories']))
        self.assertEqual(16, self.get(self.path).json[
            'inventories']['VCPU']['total'])

    def test_stale_generation_is_409(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100}})
        response = self.put(self.path, {'resource_provider_generation': 0,
                                        'inventories': {}})
        self.assertError(response, 409, 'placement.concurrent_update',
                         'resource provider generation conflict')
        self.assertIn('DISK_GB', self.get(self.path).json['inventories'])

    def test_removing_allocated_class_is_409_inuse(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100},
                                             'VCPU': {'total': 8}})
        add_allocation(self.context, self.rp['uuid'], DISK_GB, 10)
        response = self.put(self.path, {
            'resource_provider_generation': self.generation(),
            'inventories': {'VCPU': {'total': 8}}})
        self.assertError(response, 409, 'placement.inventory.inuse',
                         "Inventory for 'DISK_GB' on resource provider '%s' "
                         "in use." % self.rp['uuid'])
        self.assertEqual({'DISK_GB', 'VCPU'},
                         set(self.get(self.path).json['inventories']))

    def test_shrinking_below_usage_is_409_inuse(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100}})
        add_allocation(self.context, self.rp['uuid'], DISK_GB, 60)
        response = self.put(self.path, {
            'resource_provider_generation': self.generation(),
            'inventories': {'DISK_GB': {'total': 100, 'reserved': 50}}})
        self.assertError(response, 409, 'placement.inventory.inuse')
        # Down to exactly the usage is fine.
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100,
                                                         'reserved': 40}})

    def test_unknown_class_is_400(self):
        for name in ('CUSTOM_NOPE', 'lowercase'):
            response = self.put(self.path, {
                'resource_provider_generation': 0,
                'inventories': {name: {'total': 1}}})
            self.assertError(response, 400,
                             detail='Unknown resource class in inventory')

    def test_custom_class(self):
        self.put('/resource_classes/CUSTOM_GOLD', status=201)
        self.set_inventory(self.rp['uuid'], {'CUSTOM_GOLD': {'total': 3}})
        # A class with inventory cannot be deleted.
        self.assertError(self.delete('/resource_classes/CUSTOM_GOLD',
                                     status=None), 409)

    def test_capacity_rules_per_version(self):
        reserved_is_total = {'resource_provider_generation': 0,
                             'inventories': {'DISK_GB': {'total': 10,
                                                         'reserved': 10}}}
        self.assertError(self.put(self.path, reserved_is_total,
                                  version='1.25'), 400,
                         detail='The reserved value is greater than or '
                                'equal to total.')
        self.put(self.path, reserved_is_total, status=200, version='1.26')
        response = self.put(self.path, {
            'resource_provider_generation': 1,
            'inventories': {'DISK_GB': {'total': 10, 'reserved': 11}}})
        self.assertError(response, 400,
                         detail='The reserved value is greater than total.')

    def test_missing_provider_is_404(self):
        response = self.put('/resource_providers/%s/inventories'
                            % uuid.uuid4(), {
                                'resource_provider_generation': 0,
                                'inventories': {}})
        self.assertError(response, 404)
        self.assertError(self.get('/resource_providers/%s/inventories'
                                  % uuid.uuid4(), status=None), 404)

    def test_bad_bodies_are_400_and_change_nothing(self):
        bad = [
            {'inventories': {}},
            {'resource_provider_generation': 0},
            {'resource_provider_generation': 'x', 'inventories': {}},
            {'resource_provider_generation': 0, 'inventories': []},
            {'resource_provider_generation': 0, 'inventories': {},
             'extra': 1},
        ]
        records = [
            {}, {'total': 0}, {'total': -1}, {'total': '1'},
            {'total': 2 ** 31}, {'total': 2 ** 63}, {'total': 1.5},
            {'total': True}, {'total': None},
            {'total': 10, 'reserved': -1}, {'total': 10, 'min_unit': 0},
            {'total': 10, 'max_unit': 0}, {'total': 10, 'step_size': 0},
            {'total': 10, 'allocation_ratio': 0},
            {'total': 10, 'allocation_ratio': -1.0},
            {'total': 10, 'allocation_ratio': 1e39},
            {'total': 10, 'allocation_ratio': 'x'},
            {'total': 10, 'min_unit': 5, 'max_unit': 4},
            {'total': 10, 'bogus': 1},
            'x',
        ]
        bad += [{'resource_provider_generation': 0,
                 'inventories': {'DISK_GB': record}} for record in records]
        for body in bad:
            response = self.put(self.path, body)
            self.assertError(response, 400)
        self.assertError(self.put(self.path, {
            'resource_provider_generation': 2 ** 70, 'inventories': {}}),
            409)
        self.assertEqual({'resource_provider_generation': 0,
                          'inventories': {}}, self.get(self.path).json)


class TestDeleteAll(InventoryTestCase):

    def test_delete_all(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100}})
        self.delete(self.path, version='1.5')
        self.assertEqual({}, self.get(self.path).json['inventories'])
        self.assertEqual(2, self.generation())

    def test_in_use_is_409(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100},
                                             'VCPU': {'total': 2}})
        add_allocation(self.context, self.rp['uuid'], VCPU, 1)
        response = self.delete(self.path, status=None)
        self.assertError(response, 409, 'placement.inventory.inuse',
                         "Inventory for 'VCPU' on resource provider '%s' in "
                         "use." % self.rp['uuid'])
        self.assertEqual(2, len(self.get(self.path).json['inventories']))


class TestOne(InventoryTestCase):

    def test_post_get_put_delete(self):
        response = self.post(self.path, {'resource_class': 'DISK_GB',
                                         'total': 50, 'reserved': 5},
                             status=201)
        self.assertTrue(response.headers['Location'].endswith(
            self.path + '/DISK_GB'))
        self.assertEqual(1, response.json['resource_provider_generation'])
        self.assertEqual(5, response.json['reserved'])
        one = self.path + '/DISK_GB'
        shown = self.get(one).json
        self.assertEqual(50, shown['total'])
        self.assertEqual(1, shown['resource_provider_generation'])
        updated = self.put(one, {'resource_provider_generation': 1,
                                 'total': 60}, status=200).json
        self.assertEqual(60, updated['total'])
        self.assertEqual(0, updated['reserved'])  # defaults, not merged
        self.assertEqual(2, updated['resource_provider_generation'])
        self.delete(one)
        self.assertError(self.get(one, status=None), 404,
                         detail='No inventory of class DISK_GB')
        self.assertEqual(3, self.generation())

    def test_post_existing_class_is_409(self):
        self.post(self.path, {'resource_class': 'DISK_GB', 'total': 5},
                  status=201)
        self.assertError(self.post(self.path, {'resource_class': 'DISK_GB',
                                               'total': 9}), 409,
                         'placement.concurrent_update', 'Update conflict')
        self.assertEqual(5, self.get(self.path + '/DISK_GB').json['total'])

    def test_post_unknown_class_is_400(self):
        self.assertError(self.post(self.path, {
            'resource_class': 'CUSTOM_NOPE', 'total': 5}), 400,
            detail='No such resource class CUSTOM_NOPE')
        self.assertError(self.post(self.path, {
            'resource_class': 'disk', 'total': 5}), 400,
            detail='does not match')

    def test_put_stale_generation_is_409(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 10}})
        self.assertError(self.put(self.path + '/DISK_GB', {
            'resource_provider_generation': 0, 'total': 20}), 409,
            'placement.concurrent_update')

    def test_put_missing_inventory_is_400(self):
        self.assertError(self.put(self.path + '/DISK_GB', {
            'resource_provider_generation': 0, 'total': 20}), 400,
            detail='No inventory record with resource class')
        self.assertError(self.put(self.path + '/CUSTOM_NOPE', {
            'resource_provider_generation': 0, 'total': 20}), 404,
            detail='No such resource class CUSTOM_NOPE')

    def test_put_below_usage_is_409(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 10}})
        add_allocation(self.context, self.rp['uuid'], DISK_GB, 8)
        self.assertError(self.put(self.path + '/DISK_GB', {
            'resource_provider_generation': self.generation(),
            'total': 7}), 409, 'placement.inventory.inuse')

    def test_delete_in_use_is_409(self):
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 10}})
        add_allocation(self.context, self.rp['uuid'], DISK_GB, 8)
        self.assertError(self.delete(self.path + '/DISK_GB', status=None),
                         409, 'placement.inventory.inuse')

    def test_delete_missing_is_404(self):
        for name in ('DISK_GB', 'CUSTOM_NOPE'):
            self.assertError(self.delete(self.path + '/' + name,
                                         status=None), 404,
                             detail='No inventory of class %s found for '
                                    'delete' % name)

    def test_single_inventory_shows_generation_once_written(self):
        self.set_inventory(self.rp['uuid'], {'VCPU': {'total': 1}})
        shown = self.get(self.path + '/VCPU').json
        self.assertEqual(1, shown['resource_provider_generation'])
