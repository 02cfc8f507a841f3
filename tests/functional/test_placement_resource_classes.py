"""/resource_classes (1.2)."""
import os_resource_classes as orc

from tests.functional import test_placement_base as base


class TestResourceClasses(base.PlacementTestCase):

    def names(self):
        return [rc['name'] for rc in
                self.get('/resource_classes').json['resource_classes']]

    def test_standard_classes_listed_in_order(self):
        self.assertEqual(list(orc.STANDARDS), self.names())
        shown = self.get('/resource_classes/VCPU').json
        self.assertEqual({'name': 'VCPU', 'links': [
            {'rel': 'self', 'href': '/resource_classes/VCPU'}]}, shown)

    def test_post_get_delete(self):
        response = self.post('/resource_classes', {'name': 'CUSTOM_GOLD'},
                             status=201, version='1.2')
        self.assertTrue(response.headers['Location'].endswith(
            '/resource_classes/CUSTOM_GOLD'))
        self.assertEqual(b'', response.body)
        self.assertEqual('CUSTOM_GOLD', self.names()[-1])
        self.get('/resource_classes/CUSTOM_GOLD')
        self.assertError(self.post('/resource_classes',
                                   {'name': 'CUSTOM_GOLD'}), 409,
                         detail='Conflicting resource class already exists')
        self.delete('/resource_classes/CUSTOM_GOLD')
        self.assertError(self.get('/resource_classes/CUSTOM_GOLD',
                                  status=None), 404)

    def test_custom_ids_are_unique_after_deletes(self):
        for name in ('CUSTOM_A', 'CUSTOM_B'):
            self.post('/resource_classes', {'name': name}, status=201)
        self.delete('/resource_classes/CUSTOM_B')
        self.post('/resource_classes', {'name': 'CUSTOM_C'}, status=201)
        self.assertEqual(['CUSTOM_A', 'CUSTOM_C'], self.names()[-2:])

    def test_bad_names_are_400(self):
        for body in ({'name': 'GOLD'}, {'name': 'CUSTOM_gold'},
                     {'name': 'CUSTOM_' + 'X' * 250}, {'name': 1}, {},
                     {'name': 'CUSTOM_X', 'x': 1}):
            self.assertError(self.post('/resource_classes', body), 400)
        self.assertError(self.put('/resource_classes/GOLD', version='1.7'),
                         400)

    def test_put_1_7_create_or_check(self):
        response = self.put('/resource_classes/CUSTOM_GOLD', status=201,
                            version='1.7')
        self.assertTrue(response.headers['Location'].endswith(
            '/resource_classes/CUSTOM_GOLD'))
        self.put('/resource_classes/CUSTOM_GOLD', status=204, version='1.7')

    def test_put_1_2_to_1_6_renames(self):
        self.post('/resource_classes', {'name': 'CUSTOM_OLD'}, status=201)
        rp = self.create_provider()
        self.set_inventory(rp['uuid'], {'CUSTOM_OLD': {'total': 5}})
        renamed = self.put('/resource_classes/CUSTOM_OLD',
                           {'name': 'CUSTOM_NEW'}, status=200,
                           version='1.6').json
        self.assertEqual('CUSTOM_NEW', renamed['name'])
        # The inventory follows the class.
        inventories = self.get('/resource_providers/%s/inventories'
                               % rp['uuid']).json['inventories']
        self.assertEqual(['CUSTOM_NEW'], list(inventories))
        self.assertError(self.put('/resource_classes/VCPU',
                                  {'name': 'CUSTOM_V'}, version='1.6'), 400,
                         detail='Cannot update standard resource class')
        self.post('/resource_classes', {'name': 'CUSTOM_OTHER'}, status=201)
        self.assertError(self.put('/resource_classes/CUSTOM_OTHER',
                                  {'name': 'CUSTOM_NEW'}, version='1.6'), 409)
        self.assertError(self.put('/resource_classes/CUSTOM_NOPE',
                                  {'name': 'CUSTOM_Y'}, version='1.6'), 404)

    def test_delete_rules(self):
        self.assertError(self.delete('/resource_classes/VCPU', status=None),
                         400, detail='Cannot delete standard resource class '
                                     'VCPU.')
        self.assertError(self.delete('/resource_classes/CUSTOM_NOPE',
                                     status=None), 404)

    def test_before_1_2_is_404(self):
        self.assertError(self.get('/resource_classes', status=None,
                                  version='1.1'), 404)
