"""POST /reshaper (1.30): inventories and the allocations on them move in
one transaction; generation conflicts are 409s that change nothing."""
from tests.functional import test_placement_allocations_base as base

new_uuid = base.new_uuid
CONCURRENT = 'placement.concurrent_update'


class ReshaperTestCase(base.AllocationTestCase):
    """A compute node with VGPU inventory, two instances using it."""

    def setUp(self):
        super().setUp()
        # Placement's default lets only services reshape.
        self.override_policy({'placement:reshaper:reshape': 'role:admin'})
        self.node = self.create_provider(name='node')['uuid']
        self.set_inventory(self.node, {'VGPU': {'total': 8},
                                       'DISK_GB': {'total': 100}})
        self.first, self.second = new_uuid(), new_uuid()
        self.put_allocations(self.first, {self.node: {'VGPU': 2,
                                                      'DISK_GB': 10}})
        self.put_allocations(self.second, {self.node: {'VGPU': 1}})

    def inventories(self, rp):
        return {name: inv['total'] for name, inv in self.get(
            '/resource_providers/%s/inventories' % rp).json[
                'inventories'].items()}

    def held(self, consumer):
        return {rp: held['resources'] for rp, held in
                self.allocations_of(consumer)['allocations'].items()}

    def inventory_part(self, rp, inventories, generation=None):
        if generation is None:
            generation = self.provider_generation(rp)
        return {'resource_provider_generation': generation,
                'inventories': {name: {'total': total}
                                for name, total in inventories.items()}}

    def allocation_part(self, allocations, generation, version='1.38',
                        **kwargs):
        return base.consumer_body(version, allocations,
                                  generation=generation, **kwargs)

    def reshape(self, body, status=204, version='1.38'):
        return self.post('/reshaper', body, status=status, version=version)

    def state(self):
        """Everything a refused reshape must leave as it was."""
        return ({rp: (self.provider_generation(rp), self.inventories(rp),
                      self.usages(rp)) for rp in (self.node, self.rp)},
                self.held(self.first), self.held(self.second),
                self.allocations_of(self.first)['consumer_generation'],
                self.consumer_count(), self.allocation_count())


class TestReshape(ReshaperTestCase):

    def test_move_inventory_and_allocations_to_child_providers(self):
        """The VGPU inventory leaves the node for one child per GPU, and
        each instance's VGPUs follow, in one call."""
        gpu0 = self.create_provider(name='gpu0', parent=self.node)['uuid']
        gpu1 = self.create_provider(name='gpu1', parent=self.node)['uuid']
        node_generation = self.provider_generation(self.node)
        self.reshape({
            'inventories': {
                self.node: self.inventory_part(self.node, {'DISK_GB': 100}),
                gpu0: self.inventory_part(gpu0, {'VGPU': 4}),
                gpu1: self.inventory_part(gpu1, {'VGPU': 4}),
            },
            'allocations': {
                self.first: self.allocation_part(
                    {self.node: {'DISK_GB': 10}, gpu0: {'VGPU': 2}}, 1),
                self.second: self.allocation_part({gpu1: {'VGPU': 1}}, 1),
            }})
        self.assertEqual({'DISK_GB': 100}, self.inventories(self.node))
        self.assertEqual({'VGPU': 4}, self.inventories(gpu0))
        self.assertEqual({self.node: {'DISK_GB': 10}, gpu0: {'VGPU': 2}},
                         self.held(self.first))
        self.assertEqual({gpu1: {'VGPU': 1}}, self.held(self.second))
        self.assertEqual({'VGPU': 2}, self.usages(gpu0))
        self.assertEqual({'DISK_GB': 10}, self.usages(self.node))
        # As Placement 16.0.0: a reshaped provider's inventories are
        # written twice (interim, final) around the allocations' write.
        self.assertEqual(node_generation + 3,
                         self.provider_generation(self.node))
        self.assertEqual(3, self.provider_generation(gpu0))
        self.assertEqual(2, self.allocations_of(self.second)[
            'consumer_generation'])

    def test_move_allocations_to_a_new_class(self):
        """A custom class becomes a standard one: inventory and
        allocations are renamed together."""
        self.put('/resource_classes/CUSTOM_MAGIC', status=201,
                 version='1.7')
        rp = self.create_provider()['uuid']
        self.set_inventory(rp, {'CUSTOM_MAGIC': {'total': 10}})
        consumer = new_uuid()
        self.put_allocations(consumer, {rp: {'CUSTOM_MAGIC': 3}})
        self.reshape({
            'inventories': {rp: self.inventory_part(rp, {'PGPU': 10})},
            'allocations': {consumer: self.allocation_part(
                {rp: {'PGPU': 3}}, 1)}})
        self.assertEqual({'PGPU': 10}, self.inventories(rp))
        self.assertEqual({rp: {'PGPU': 3}}, self.held(consumer))
        self.assertEqual({'PGPU': 3}, self.usages(rp))

    def test_inventory_only(self):
        self.reshape({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 16, 'DISK_GB': 100})},
            'allocations': {}})
        self.assertEqual({'VGPU': 16, 'DISK_GB': 100},
                         self.inventories(self.node))

    def test_consumer_whose_allocations_all_go_is_removed(self):
        self.reshape({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {self.second: self.allocation_part({}, 1)}})
        self.assertIsNone(self.consumer_row(self.second))

    def test_new_consumer(self):
        consumer = new_uuid()
        self.reshape({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {consumer: self.allocation_part(
                {self.node: {'VGPU': 5}}, None)}})
        self.assertEqual(1, self.consumer_row(consumer)['generation'])

    def test_before_1_30_there_is_no_reshaper(self):
        self.reshape({'inventories': {}, 'allocations': {}}, status=404,
                     version='1.29')

    def test_1_38_requires_consumer_type(self):
        part = self.allocation_part({self.node: {'VGPU': 2}}, 1)
        del part['consumer_type']
        response = self.reshape({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {self.first: part}}, status=400)
        self.assertError(response, 400,
                         detail="'consumer_type' is a required")
        # 1.30-1.37 take the 1.28 form, without it.
        self.reshape({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {self.first: part}}, version='1.30')


class TestRefusals(ReshaperTestCase):
    """Each leaves everything as it was."""

    def assertRefused(self, body, status, code=None, detail=None):
        before = self.state()
        self.assertError(self.reshape(body, status=status), status,
                         code=code, detail=detail)
        self.assertEqual(before, self.state())

    def test_stale_provider_generation(self):
        generation = self.provider_generation(self.node)
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8}, generation=generation - 1)},
            'allocations': {}}, 409, code=CONCURRENT,
            detail='resource provider generation conflict for provider '
                   '%s: actual: %d, given: %d' % (
                       self.node, generation, generation - 1))

    def test_stale_consumer_generation(self):
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {self.first: self.allocation_part(
                {self.node: {'VGPU': 1}}, 5)}}, 409, code=CONCURRENT,
            detail='consumer generation conflict - expected 1 but got 5')

    def test_inventory_removed_under_other_consumers(self):
        """second still holds VGPU on the node and is not in the request."""
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'DISK_GB': 100})},
            'allocations': {self.first: self.allocation_part(
                {self.node: {'DISK_GB': 10}}, 1)}},
            409, code='placement.inventory.inuse',
            detail="Inventory for 'VGPU' on resource provider '%s' in use"
                   % self.node)

    def test_allocations_exceeding_the_new_inventory(self):
        gpu = self.create_provider(parent=self.node)['uuid']
        self.assertRefused({
            'inventories': {
                self.node: self.inventory_part(self.node, {'DISK_GB': 100}),
                gpu: self.inventory_part(gpu, {'VGPU': 2})},
            'allocations': {
                self.first: self.allocation_part(
                    {self.node: {'DISK_GB': 10}, gpu: {'VGPU': 2}}, 1),
                self.second: self.allocation_part({gpu: {'VGPU': 1}}, 1)}},
            409, detail="Unable to allocate inventory: Unable to create "
                        "allocation for 'VGPU' on resource provider '%s'. "
                        "The requested amount would exceed the capacity."
                        % gpu)

    def test_allocation_of_a_class_the_new_inventory_lacks(self):
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'DISK_GB': 100})},
            'allocations': {
                self.first: self.allocation_part({self.node: {'VGPU': 2}},
                                                 1),
                self.second: self.allocation_part({}, 1)}},
            409, detail="Inventory for 'VGPU' on resource provider '%s' "
                        "invalid." % self.node)

    def test_new_consumer_in_a_failed_reshape_leaves_no_record(self):
        consumer = new_uuid()
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {consumer: self.allocation_part(
                {self.node: {'VGPU': 6}}, None)}}, 409,
            detail='exceed the capacity')
        self.assertIsNone(self.consumer_row(consumer))

    def test_unknown_providers_and_classes(self):
        missing = new_uuid()
        self.assertRefused({
            'inventories': {missing: self.inventory_part(self.node,
                                                         {'VGPU': 1})},
            'allocations': {}}, 400,
            code='placement.resource_provider.not_found',
            detail='Resource provider %s in inventories not found' % missing)
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'VGPU': 8, 'DISK_GB': 100})},
            'allocations': {self.first: self.allocation_part(
                {missing: {'VGPU': 1}}, 1)}}, 400,
            detail="Allocation for resource provider '%s' that does not "
                   "exist." % missing)
        self.assertRefused({
            'inventories': {self.node: self.inventory_part(
                self.node, {'CUSTOM_NOPE': 8})},
            'allocations': {}}, 400, detail='malformed reshaper data')

    def test_bad_input(self):
        good_inventories = {self.node: self.inventory_part(
            self.node, {'VGPU': 8, 'DISK_GB': 100})}
        for body in ({}, {'inventories': {}, 'allocations': {}},
                     {'inventories': good_inventories},
                     {'inventories': good_inventories, 'allocations': {},
                      'extra': 1},
                     {'inventories': {'nope': {}}, 'allocations': {}},
                     {'inventories': {self.node: {'inventories': {}}},
                      'allocations': {}},
                     {'inventories': {self.node: self.inventory_part(
                         self.node, {'VGPU': -1})}, 'allocations': {}},
                     {'inventories': good_inventories, 'allocations': {
                         self.first: self.allocation_part(
                             {self.node: {'VGPU': 0}}, 1)}}):
            self.assertRefused(body, 400, detail='JSON does not validate')
        bad_reserved = {self.node: self.inventory_part(self.node,
                                                       {'VGPU': 8})}
        bad_reserved[self.node]['inventories']['VGPU']['reserved'] = 9
        self.assertRefused({'inventories': bad_reserved, 'allocations': {}},
                           400, detail='Bad inventory VGPU for resource '
                                       'provider %s' % self.node)


class TestPolicy(base.AllocationTestCase):

    def test_only_services_reshape_by_default(self):
        self.assertError(self.post('/reshaper', {
            'inventories': {}, 'allocations': {}}, version='1.30'), 403,
            detail='Policy does not allow placement:reshaper:reshape to be '
                   'performed.')
