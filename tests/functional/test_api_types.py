"""Volume types over the API: list/show/default, admin-only create and
delete, unique live names, and deletion refused while volumes use a type."""
import threading

from tests.functional import api_fixtures

ADMIN = api_fixtures.ADMIN


class TypesTest(api_fixtures.APITestCase):

    def create_type(self, name, expect=200, headers=ADMIN, **fields):
        body = {'volume_type': dict({'name': name}, **fields)}
        return self.app.post_json('/v3/types', body, headers=headers,
                                  status=expect)

    def test_create_show_list(self):
        created = self.create_type(
            'gold', description='fast', extra_specs={'multiattach':
                                                     '<is> True'},
        ).json['volume_type']
        self.assertEqual('gold', created['name'])
        self.assertEqual('fast', created['description'])
        self.assertTrue(created['is_public'])
        self.assertEqual({'multiattach': '<is> True'},
                         created['extra_specs'])
        for ident in (created['id'], 'gold'):
            shown = self.app.get('/v3/types/%s' % ident,
                                 headers=self.owner).json['volume_type']
            self.assertEqual(created['id'], shown['id'])
        names = [t['name'] for t in self.app.get(
            '/v3/types', headers=self.owner).json['volume_types']]
        self.assertIn('gold', names)
        # A volume of a multiattach type is multiattach.
        volume = self.create_volume(volume_type='gold').json['volume']
        self.assertEqual('gold', volume['volume_type'])
        self.assertTrue(volume['multiattach'])

    def test_default_type(self):
        default = self.app.get('/v3/types/default',
                               headers=self.owner).json['volume_type']
        self.assertEqual('__DEFAULT__', default['name'])
        response = self.app.delete('/v3/types/%s' % default['id'],
                                   headers=ADMIN, status=400)
        self.assertEqual('Default volume type can not be deleted.',
                         self.fault(response, 400))

    def test_private_types_are_hidden_from_users(self):
        hidden = self.create_type(
            'secret', **{'os-volume-type-access:is_public': False}
        ).json['volume_type']
        self.assertFalse(hidden['is_public'])
        names = [t['name'] for t in self.app.get(
            '/v3/types', headers=self.owner).json['volume_types']]
        self.assertNotIn('secret', names)
        self.app.get('/v3/types/%s' % hidden['id'], headers=self.owner,
                     status=404)
        names = [t['name'] for t in self.app.get(
            '/v3/types?is_public=false', headers=ADMIN).json['volume_types']]
        self.assertEqual(['secret'], names)

    def test_create_and_delete_are_admin_only(self):
        response = self.create_type('mine', headers=self.owner, expect=403)
        self.fault(response, 403)
        type_id = self.create_type('t').json['volume_type']['id']
        response = self.app.delete('/v3/types/%s' % type_id,
                                   headers=self.owner, status=403)
        self.fault(response, 403)

    def test_duplicate_name_is_409(self):
        self.create_type('dup')
        response = self.create_type('dup', expect=409)
        self.assertEqual('Volume Type dup already exists.',
                         self.fault(response, 409))

    def test_concurrent_creates_of_one_name(self):
        statuses = []

        def create():
            statuses.append(self.create_type('race', expect='*').status_int)

        threads = [threading.Thread(target=create) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual([200, 409, 409, 409], sorted(statuses))

    def test_name_is_free_again_after_delete(self):
        type_id = self.create_type('again').json['volume_type']['id']
        self.app.delete('/v3/types/%s' % type_id, headers=ADMIN, status=202)
        self.app.get('/v3/types/%s' % type_id, headers=ADMIN, status=404)
        self.create_type('again')

    def test_in_use_type_cannot_be_deleted(self):
        type_id = self.create_type('used').json['volume_type']['id']
        self.create_volume(volume_type='used')
        response = self.app.delete('/v3/types/%s' % type_id, headers=ADMIN,
                                   status=400)
        self.assertEqual('Volume Type %s deletion is not allowed with '
                         'volumes present with the type.' % type_id,
                         self.fault(response, 400))
        self.app.get('/v3/types/used', headers=self.owner, status=200)

    def test_bad_bodies(self):
        cases = [
            ({}, "'volume_type' is a required property"),
            ({'volume_type': {}}, "'name' is a required property"),
            ({'volume_type': {'name': ''}}, 'should be non-empty'),
            ({'volume_type': {'name': '   '}}, 'white space'),
            ({'volume_type': {'name': 'x' * 256}}, 'is too long'),
            ({'volume_type': {'name': 'x', 'extra_specs': {'k': 1}}},
             'is not of type'),
            ({'volume_type': {'name': 'x', 'bogus': 1}}, "'bogus' was"),
            ({'volume_type': {'name': 'x',
                              'os-volume-type-access:is_public': 'perhaps'}},
             'is not one of'),
        ]
        for body, expected in cases:
            response = self.app.post_json('/v3/types', body, headers=ADMIN,
                                          status=400)
            self.assertIn(expected, self.fault(response, 400), body)

    def test_missing_type_is_404(self):
        for ident in ('nope', '0b7a4b0e-8a7c-4d5e-9a40-3d1d5a6b9d11'):
            response = self.app.get('/v3/types/%s' % ident,
                                    headers=self.owner, status=404)
            self.assertEqual('Volume type %s could not be found.' % ident,
                             self.fault(response, 404))


class TypeUpdateAndExtraSpecsTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.type_id = self.app.post_json(
            '/v3/types', {'volume_type': {'name': 'silver',
                                          'extra_specs': {'a': '1'}}},
            headers=ADMIN).json['volume_type']['id']
        self.url = '/v3/types/%s' % self.type_id

    def test_update(self):
        updated = self.app.put_json(
            self.url, {'volume_type': {'name': 'platinum',
                                       'description': 'd',
                                       'is_public': False}},
            headers=ADMIN).json['volume_type']
        self.assertEqual(('platinum', 'd', False), (
            updated['name'], updated['description'], updated['is_public']))
        self.app.post_json('/v3/types', {'volume_type': {'name': 'silver'}},
                           headers=ADMIN, status=200)  # the old name is free
        response = self.app.put_json(
            self.url, {'volume_type': {'name': 'silver'}}, headers=ADMIN,
            status=409)
        self.assertEqual('Volume Type silver already exists.',
                         self.fault(response, 409))
        for body in ({'volume_type': {}}, {'volume_type': {'name': ' '}},
                     {'volume_type': {'size': 1}}):
            self.fault(self.app.put_json(self.url, body, headers=ADMIN,
                                         status=400), 400)
        self.fault(self.app.put_json(self.url, {'volume_type': {
            'name': 'x'}}, headers=self.owner, status=403), 403)

    def test_extra_specs(self):
        specs = self.url + '/extra_specs'
        self.assertEqual({'extra_specs': {'a': '1'}},
                         self.app.get(specs, headers=self.owner).json)
        self.app.post_json(specs, {'extra_specs': {'b': '2', 'a': '3'}},
                           headers=ADMIN)
        self.assertEqual({'a': '3', 'b': '2'}, self.app.get(
            specs, headers=self.owner).json['extra_specs'])
        self.assertEqual({'b': '2'}, self.app.get(specs + '/b',
                                                  headers=self.owner).json)
        self.assertEqual({'b': '4'}, self.app.put_json(
            specs + '/b', {'b': '4'}, headers=ADMIN).json)
        self.app.delete(specs + '/b', headers=ADMIN, status=202)
        response = self.app.get(specs + '/b', headers=self.owner,
                                status=404)
        self.assertEqual('Volume Type %s has no extra specs with key b.'
                         % self.type_id, self.fault(response, 404))
        self.fault(self.app.put_json(specs + '/b', {'c': '1'},
                                     headers=ADMIN, status=400), 400)
        self.fault(self.app.post_json(specs, {'extra_specs': {'c': 5}},
                                      headers=ADMIN, status=400), 400)
        self.fault(self.app.post_json(specs, {'extra_specs': {'c': '5'}},
                                      headers=self.owner, status=403), 403)
        self.app.delete(self.url, headers=ADMIN, status=202)
        self.fault(self.app.post_json(specs, {'extra_specs': {'c': '5'}},
                                      headers=ADMIN, status=404), 404)
