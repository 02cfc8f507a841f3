"""/resource_providers: create, show, update (names, trees, re-parenting),
delete, and the list filters, per microversion."""
import uuid

import sqlalchemy as sa

from db import models
from db import session
from tests.functional import test_placement_base as base

AGG1 = '11111111-1111-1111-1111-111111111111'
AGG2 = '22222222-2222-2222-2222-222222222222'
AGG3 = '33333333-3333-3333-3333-333333333333'


def add_allocation(context, rp_uuid, class_id, used, consumer=None):
    """An allocation row as the allocation writer leaves it (the provider's
    generation bumped with it)."""
    rp = models.ResourceProvider.__table__
    with session.writer.connection.using(context) as conn:
        rp_id = conn.execute(sa.select(rp.c.id).where(
            rp.c.uuid == rp_uuid)).scalar_one()
        base.insert_allocations(conn, [{
            'resource_provider_id': rp_id, 'resource_class_id': class_id,
            'consumer_id': consumer or str(uuid.uuid4()), 'used': used}])
        conn.execute(rp.update().where(rp.c.id == rp_id).values(
            generation=rp.c.generation + 1))


class TestCreate(base.PlacementTestCase):

    def test_create_1_0_is_201_without_body(self):
        response = self.post('/resource_providers', {'name': 'one'},
                             status=201, version='1.0')
        self.assertEqual(b'', response.body)
        location = response.headers['Location']
        self.assertRegex(location, '/resource_providers/[0-9a-f-]{36}$')
        rp = self.get(location.split('localhost')[1]).json
        self.assertEqual('one', rp['name'])
        self.assertEqual(0, rp['generation'])

    def test_create_1_20_returns_the_provider(self):
        rp_uuid = str(uuid.uuid4())
        response = self.post('/resource_providers',
                             {'name': 'one', 'uuid': rp_uuid}, status=200,
                             version='1.20')
        self.assertEqual(rp_uuid, response.json['uuid'])
        self.assertTrue(response.headers['Location'].endswith(rp_uuid))
        self.assertIn('last-modified', response.headers)

    def test_dashless_uuid_is_stored_canonical(self):
        rp_uuid = uuid.uuid4()
        rp = self.post('/resource_providers',
                       {'name': 'one', 'uuid': rp_uuid.hex}, status=200).json
        self.assertEqual(str(rp_uuid), rp['uuid'])

    def test_duplicate_name_or_uuid_is_409(self):
        rp = self.create_provider('one')
        response = self.post('/resource_providers', {'name': 'one'})
        self.assertError(response, 409, 'placement.duplicate_name',
                         'Conflicting resource provider name: one already '
                         'exists.')
        response = self.post('/resource_providers',
                             {'name': 'two', 'uuid': rp['uuid']})
        self.assertError(response, 409, 'placement.duplicate_name',
                         'uuid: %s' % rp['uuid'])

    def test_parent_from_1_14(self):
        root = self.create_provider('root')
        body = {'name': 'child', 'parent_provider_uuid': root['uuid']}
        self.assertError(self.post('/resource_providers', body,
                                   version='1.13'), 400,
                         detail='Additional properties are not allowed')
        child = self.post('/resource_providers', body, status=200,
                          version='1.20').json
        self.assertEqual(root['uuid'], child['parent_provider_uuid'])
        self.assertEqual(root['uuid'], child['root_provider_uuid'])
        grandchild = self.create_provider('gc', parent=child['uuid'])
        self.assertEqual(root['uuid'], grandchild['root_provider_uuid'])
        self.assertEqual(child['uuid'], grandchild['parent_provider_uuid'])

    def test_unknown_parent_is_400(self):
        response = self.post('/resource_providers', {
            'name': 'child', 'parent_provider_uuid': str(uuid.uuid4())})
        self.assertError(response, 400,
                         detail='parent provider UUID does not exist.')
        self.assertEqual([], self.get('/resource_providers').json[
            'resource_providers'])

    def test_bad_bodies_are_400(self):
        for body in ({}, {'name': ''}, {'name': 'x' * 201}, {'name': 7},
                     {'name': 'x', 'uuid': 'not-a-uuid'},
                     {'name': 'x', 'uuid': 12},
                     {'name': 'x', 'generation': 3},
                     {'name': 'x', 'parent_provider_uuid': 'nope'},
                     {'name': 'x\u0000y'}, {'name': '\ud800'}, [], 'x'):
            self.assertError(self.post('/resource_providers', body), 400)
        self.assertEqual([], self.get('/resource_providers').json[
            'resource_providers'])


class TestShow(base.PlacementTestCase):

    def test_links_and_fields_per_version(self):
        rp = self.create_provider('one')
        path = '/resource_providers/%s' % rp['uuid']
        expected_links = [
            ('1.0', ['self', 'inventories', 'usages']),
            ('1.1', ['self', 'inventories', 'usages', 'aggregates']),
            ('1.6', ['self', 'inventories', 'usages', 'aggregates',
                     'traits']),
            ('1.11', ['self', 'inventories', 'usages', 'aggregates',
                      'traits', 'allocations']),
        ]
        for version, rels in expected_links:
            shown = self.get(path, version=version).json
            self.assertEqual(rels, [link['rel'] for link in shown['links']])
            self.assertEqual(path, shown['links'][0]['href'])
            self.assertEqual({'uuid', 'name', 'generation', 'links'},
                             set(shown))
        shown = self.get(path, version='1.14').json
        self.assertEqual(rp['uuid'], shown['root_provider_uuid'])
        self.assertIsNone(shown['parent_provider_uuid'])

    def test_missing_is_404(self):
        self.assertError(self.get('/resource_providers/%s' % uuid.uuid4(),
                                  status=None), 404,
                         detail='No resource provider with uuid')


class TestUpdate(base.PlacementTestCase):

    def path(self, rp):
        return '/resource_providers/%s' % rp['uuid']

    def test_rename(self):
        rp = self.create_provider('one')
        updated = self.put(self.path(rp), {'name': 'uno'}, status=200).json
        self.assertEqual('uno', updated['name'])
        self.assertEqual(rp['generation'], updated['generation'])
        self.assertEqual('uno', self.get(self.path(rp)).json['name'])

    def test_rename_to_taken_name_is_409(self):
        rp = self.create_provider('one')
        self.create_provider('two')
        self.assertError(self.put(self.path(rp), {'name': 'two'}), 409,
                         'placement.duplicate_name')

    def test_generation_is_not_part_of_the_body(self):
        rp = self.create_provider('one')
        self.assertError(self.put(self.path(rp), {'name': 'x',
                                                  'generation': 0}), 400)

    def test_missing_provider_is_404(self):
        self.assertError(self.put('/resource_providers/%s' % uuid.uuid4(),
                                  {'name': 'x'}), 404)

    def test_give_a_root_a_parent(self):
        root = self.create_provider('root')
        other = self.create_provider('other')
        leaf = self.create_provider('leaf', parent=other['uuid'])
        moved = self.put(self.path(other), {
            'name': 'other', 'parent_provider_uuid': root['uuid']},
            status=200, version='1.14').json
        self.assertEqual(root['uuid'], moved['parent_provider_uuid'])
        self.assertEqual(root['uuid'], moved['root_provider_uuid'])
        # The subtree follows.
        self.assertEqual(root['uuid'], self.get(
            self.path(leaf)).json['root_provider_uuid'])

    def test_loops_are_refused(self):
        root = self.create_provider('root')
        child = self.create_provider('child', parent=root['uuid'])
        for version in ('1.14', '1.37'):
            for target in (root, child):
                response = self.put(self.path(root), {
                    'name': 'root', 'parent_provider_uuid': target['uuid']},
                    version=version)
                self.assertError(response, 400,
                                 detail='creating loop in the provider '
                                        'tree is not allowed.')

    def test_reparent_needs_1_37(self):
        root1 = self.create_provider('root1')
        root2 = self.create_provider('root2')
        child = self.create_provider('child', parent=root1['uuid'])
        body = {'name': 'child', 'parent_provider_uuid': root2['uuid']}
        self.assertError(self.put(self.path(child), body, version='1.36'),
                         400, detail='re-parenting a provider is not '
                                     'currently allowed.')
        moved = self.put(self.path(child), body, status=200,
                         version='1.37').json
        self.assertEqual(root2['uuid'], moved['parent_provider_uuid'])
        self.assertEqual(root2['uuid'], moved['root_provider_uuid'])

    def test_unparent_needs_1_37(self):
        root = self.create_provider('root')
        child = self.create_provider('child', parent=root['uuid'])
        grandchild = self.create_provider('gc', parent=child['uuid'])
        body = {'name': 'child', 'parent_provider_uuid': None}
        self.assertError(self.put(self.path(child), body, version='1.36'),
                         400, detail='un-parenting a provider is not '
                                     'currently allowed.')
        moved = self.put(self.path(child), body, status=200,
                         version='1.37').json
        self.assertIsNone(moved['parent_provider_uuid'])
        self.assertEqual(child['uuid'], moved['root_provider_uuid'])
        shown = self.get(self.path(grandchild)).json
        self.assertEqual(child['uuid'], shown['root_provider_uuid'])
        self.assertEqual(child['uuid'], shown['parent_provider_uuid'])
        in_tree = self.get('/resource_providers?in_tree=%s' % root['uuid'])
        self.assertEqual([root['uuid']], [
            p['uuid'] for p in in_tree.json['resource_providers']])

    def test_move_within_a_tree(self):
        root = self.create_provider('root')
        a = self.create_provider('a', parent=root['uuid'])
        b = self.create_provider('b', parent=root['uuid'])
        a1 = self.create_provider('a1', parent=a['uuid'])
        self.put(self.path(a), {'name': 'a', 'parent_provider_uuid':
                                b['uuid']}, status=200, version='1.37')
        shown = self.get(self.path(a1)).json
        self.assertEqual(root['uuid'], shown['root_provider_uuid'])
        self.assertEqual(a['uuid'], shown['parent_provider_uuid'])

    def test_same_parent_again_is_fine_before_1_37(self):
        root = self.create_provider('root')
        child = self.create_provider('child', parent=root['uuid'])
        self.put(self.path(child), {'name': 'child2', 'parent_provider_uuid':
                                    root['uuid']}, status=200,
                 version='1.14')

    def test_unknown_parent_is_400(self):
        rp = self.create_provider('rp')
        self.assertError(self.put(self.path(rp), {
            'name': 'rp', 'parent_provider_uuid': str(uuid.uuid4())}), 400,
            detail='parent provider UUID does not exist.')

    def test_parent_field_before_1_14_is_400(self):
        root = self.create_provider('root')
        rp = self.create_provider('rp')
        self.assertError(self.put(self.path(rp), {
            'name': 'rp', 'parent_provider_uuid': root['uuid']},
            version='1.13'), 400)


class TestDelete(base.PlacementTestCase):

    def test_delete(self):
        rp = self.create_provider('one')
        self.set_inventory(rp['uuid'], {'DISK_GB': {'total': 10}})
        self.put('/traits/CUSTOM_T', status=201)
        self.put('/resource_providers/%s/traits' % rp['uuid'], {
            'traits': ['CUSTOM_T'], 'resource_provider_generation': 1},
            status=200)
        self.put('/resource_providers/%s/aggregates' % rp['uuid'], {
            'aggregates': [AGG1], 'resource_provider_generation': 2},
            status=200)
        self.delete('/resource_providers/%s' % rp['uuid'])
        self.get('/resource_providers/%s' % rp['uuid'], status=404)
        # The trait is free again.
        self.delete('/traits/CUSTOM_T')

    def test_missing_is_404(self):
        self.assertError(self.delete('/resource_providers/%s' % uuid.uuid4(),
                                     status=None), 404,
                         detail='found for delete')

    def test_parent_is_409(self):
        root = self.create_provider('root')
        self.create_provider('child', parent=root['uuid'])
        self.assertError(
            self.delete('/resource_providers/%s' % root['uuid'], status=None),
            409, 'placement.resource_provider.cannot_delete_parent')

    def test_with_allocations_is_409(self):
        rp = self.create_provider('one')
        self.set_inventory(rp['uuid'], {'DISK_GB': {'total': 10}})
        add_allocation(self.context, rp['uuid'], 2, 5)
        self.assertError(
            self.delete('/resource_providers/%s' % rp['uuid'], status=None),
            409, 'placement.resource_provider.inuse',
            'Resource provider has allocations.')
        self.get('/resource_providers/%s' % rp['uuid'])

    def test_delete_a_child_then_the_root(self):
        root = self.create_provider('root')
        child = self.create_provider('child', parent=root['uuid'])
        self.delete('/resource_providers/%s' % child['uuid'])
        self.delete('/resource_providers/%s' % root['uuid'])


class TestList(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.root = self.create_provider('root')
        self.child = self.create_provider('child', parent=self.root['uuid'])
        self.other = self.create_provider('other')

    def names(self, query, version=None, status=200):
        response = self.get('/resource_providers' + query, status=status,
                            version=version)
        return sorted(p['name'] for p in response.json['resource_providers'])

    def test_all(self):
        self.assertEqual(['child', 'other', 'root'], self.names(''))

    def test_name_and_uuid(self):
        self.assertEqual(['other'], self.names('?name=other'))
        self.assertEqual(['child'],
                         self.names('?uuid=%s' % self.child['uuid']))
        self.assertEqual([], self.names('?name=nope'))
        self.assertError(self.get('/resource_providers?uuid=nope',
                                  status=None), 400,
                         detail='Invalid query string parameters')

    def test_unknown_parameters_per_version(self):
        for param, version in (('member_of=%s' % AGG1, '1.2'),
                               ('resources=DISK_GB:1', '1.3'),
                               ('in_tree=%s' % AGG1, '1.13'),
                               ('required=CUSTOM_X', '1.17'),
                               ('bogus=1', 'latest')):
            self.assertError(self.get('/resource_providers?' + param,
                                      status=None, version=version), 400,
                             detail='Additional properties are not allowed')

    def test_in_tree(self):
        self.assertEqual(['child', 'root'], self.names(
            '?in_tree=%s' % self.child['uuid']))
        self.assertEqual([], self.names('?in_tree=%s' % uuid.uuid4()))
        self.assertError(self.get('/resource_providers?in_tree=x',
                                  status=None), 400)

    def set_aggregates(self, rp, aggregates):
        path = '/resource_providers/%s/aggregates' % rp['uuid']
        self.put(path, aggregates, status=200, version='1.1')

    def test_member_of(self):
        self.set_aggregates(self.root, [AGG1])
        self.set_aggregates(self.other, [AGG2, AGG3])
        self.assertEqual(['root'], self.names('?member_of=%s' % AGG1,
                                              version='1.3'))
        self.assertEqual(['other', 'root'], self.names(
            '?member_of=in:%s,%s' % (AGG1, AGG2), version='1.3'))
        self.assertError(self.get('/resource_providers?member_of=%s,%s'
                                  % (AGG1, AGG2), status=None), 400,
                         detail="must be prefixed with the 'in:'")
        self.assertError(self.get('/resource_providers?member_of=in:x',
                                  status=None), 400,
                         detail="Expected 'member_of' parameter to contain "
                                "valid UUID(s)")

    def test_repeated_member_of_from_1_24(self):
        self.set_aggregates(self.root, [AGG1])
        self.set_aggregates(self.other, [AGG1, AGG2])
        query = '?member_of=%s&member_of=%s' % (AGG1, AGG2)
        self.assertError(self.get('/resource_providers' + query,
                                  status=None, version='1.23'), 400,
                         detail='Multiple member_of parameters are not '
                                'supported')
        self.assertEqual(['other'], self.names(query, version='1.24'))

    def test_forbidden_member_of_from_1_32(self):
        self.set_aggregates(self.root, [AGG1])
        self.set_aggregates(self.other, [AGG2])
        self.assertError(self.get('/resource_providers?member_of=!%s' % AGG1,
                                  status=None, version='1.31'), 400)
        self.assertEqual(['child', 'other'], self.names(
            '?member_of=!%s' % AGG1, version='1.32'))
        self.assertEqual(['child'], self.names(
            '?member_of=!in:%s,%s' % (AGG1, AGG2), version='1.32'))
        self.assertEqual(['other'], self.names(
            '?member_of=in:%s,%s&member_of=!%s' % (AGG1, AGG2, AGG1),
            version='1.32'))

    def test_resources(self):
        self.set_inventory(self.root['uuid'], {
            'DISK_GB': {'total': 100, 'reserved': 10, 'max_unit': 50,
                        'step_size': 5},
            'VCPU': {'total': 4, 'allocation_ratio': 2.0}})
        self.set_inventory(self.other['uuid'], {'DISK_GB': {'total': 20}})
        add_allocation(self.context, self.root['uuid'], 2, 45)
        self.assertEqual(['other', 'root'], self.names(
            '?resources=DISK_GB:10', version='1.4'))
        # 100 - 10 reserved - 45 used = 45 left; max_unit 50.
        self.assertEqual(['root'], self.names('?resources=DISK_GB:45'))
        self.assertEqual([], self.names('?resources=DISK_GB:50'))
        # step_size 5
        self.assertEqual(['other'], self.names('?resources=DISK_GB:11'))
        self.assertEqual(['root'], self.names('?resources=VCPU:8'))
        self.assertEqual(['root'], self.names(
            '?resources=VCPU:8,DISK_GB:5'))
        self.assertEqual([], self.names('?resources=VCPU:9'))
        self.assertEqual([], self.names('?resources=DISK_GB:%d' % 2 ** 63))

    def test_bad_resources(self):
        for query, detail in (
                ('', 'Got: empty string.'),
                ('DISK_GB', 'Badly formed resources parameter'),
                ('DISK_GB:x', 'expected positive integer amount'),
                ('DISK_GB:0', 'requires amount >= 1'),
                ('DISK_GB:-1', 'requires amount >= 1'),
                ('CUSTOM_NOPE:1', 'Invalid resource class in resources '
                                  'parameter: No such resource class '
                                  'CUSTOM_NOPE.')):
            self.assertError(self.get('/resource_providers?resources=' +
                                      query, status=None), 400, detail=detail)

    def test_required_traits(self):
        self.put('/traits/CUSTOM_A', status=201)
        self.put('/traits/CUSTOM_B', status=201)
        for rp, traits in ((self.root, ['CUSTOM_A', 'CUSTOM_B']),
                           (self.other, ['CUSTOM_B'])):
            self.put('/resource_providers/%s/traits' % rp['uuid'], {
                'traits': traits, 'resource_provider_generation': 0},
                status=200)
        self.assertEqual(['other', 'root'], self.names(
            '?required=CUSTOM_B', version='1.18'))
        self.assertEqual(['root'], self.names('?required=CUSTOM_A,CUSTOM_B',
                                              version='1.18'))
        self.assertError(self.get('/resource_providers?required=!CUSTOM_A',
                                  status=None, version='1.21'), 400,
                         detail="Expected 'required' parameter value of the "
                                "form: HW_CPU_X86_VMX,CUSTOM_MAGIC")
        self.assertEqual(['other'], self.names(
            '?required=CUSTOM_B,!CUSTOM_A', version='1.22'))
        self.assertEqual(['child'], self.names(
            '?required=!CUSTOM_B', version='1.22'))
        self.assertError(self.get('/resource_providers?required=CUSTOM_NOPE',
                                  status=None), 400,
                         detail='Invalid trait(s) in "required" parameter: '
                                'No such trait(s): CUSTOM_NOPE.')
        self.assertError(self.get('/resource_providers?required=',
                                  status=None), 400)

    def test_any_traits_from_1_39(self):
        for name in ('CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'):
            self.put('/traits/%s' % name, status=201)
        for rp, traits in ((self.root, ['CUSTOM_A', 'CUSTOM_C']),
                           (self.child, ['CUSTOM_B']),
                           (self.other, ['CUSTOM_C'])):
            self.put('/resource_providers/%s/traits' % rp['uuid'], {
                'traits': traits, 'resource_provider_generation': 0},
                status=200)
        self.assertError(self.get(
            '/resource_providers?required=in:CUSTOM_A,CUSTOM_B',
            status=None, version='1.38'), 400)
        self.assertEqual(['child', 'root'], self.names(
            '?required=in:CUSTOM_A,CUSTOM_B', version='1.39'))
        self.assertEqual(['root'], self.names(
            '?required=in:CUSTOM_A,CUSTOM_B&required=CUSTOM_C',
            version='1.39'))
        self.assertEqual(['child'], self.names(
            '?required=in:CUSTOM_A,CUSTOM_B&required=!CUSTOM_C',
            version='1.39'))
        # Before 1.39 the last of repeated parameters counts.
        self.assertEqual(['other', 'root'], self.names(
            '?required=CUSTOM_A&required=CUSTOM_C', version='1.38'))
        self.assertError(self.get(
            '/resource_providers?required=in:CUSTOM_A,!CUSTOM_B',
            status=None, version='1.39'), 400)

    def test_last_modified_is_the_newest(self):
        response = self.get('/resource_providers', version='1.15')
        self.assertIn('last-modified', response.headers)
