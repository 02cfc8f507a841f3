"""Encryption as a Cinder without encrypted volume types answers it:
every type shows none, making one encrypted is refused with the reason,
and every volume's encryption metadata is that of an unencrypted one."""
from tests.functional import api_fixtures

ADMIN = api_fixtures.ADMIN


class EncryptionTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.type_id = self.app.post_json('/v3/types', {'volume_type': {
            'name': 'plain'}}, headers=ADMIN).json['volume_type']['id']
        self.path = '/v3/types/%s/encryption' % self.type_id

    def test_types(self):
        self.assertEqual({}, self.app.get(self.path, headers=ADMIN).json)
        missing = 'Volume type encryption for type %s does not exist.' % \
            self.type_id
        self.assertEqual(missing, self.fault(self.app.get(
            self.path + '/cipher', headers=ADMIN, status=404), 404))
        self.assertEqual(missing, self.fault(self.app.put_json(
            self.path + '/x', {'encryption': {'cipher': 'c'}},
            headers=ADMIN, status=404), 404))
        self.assertEqual(missing, self.fault(self.app.delete(
            self.path + '/x', headers=ADMIN, status=404), 404))
        self.assertIn('no key manager', self.fault(self.app.post_json(
            self.path, {'encryption': {'provider': 'luks',
                                       'control_location': 'front-end'}},
            headers=ADMIN, status=400), 400))
        self.fault(self.app.get(self.path, headers=self.owner, status=403),
                   403)
        self.fault(self.app.get('/v3/types/nope/encryption', headers=ADMIN,
                                status=404), 404)

    def test_volumes(self):
        volume_id = self.create_volume().json['volume']['id']
        path = '/v3/volumes/%s/encryption' % volume_id
        self.assertEqual({'encryption_key_id': None},
                         self.app.get(path, headers=self.owner).json)
        # None, which Cinder answers with an empty body.
        self.assertEqual(b'', self.app.get(path + '/encryption_key_id',
                                           headers=self.owner).body)
        self.fault(self.app.get(path + '/cipher', headers=self.owner,
                                status=404), 404)
        self.fault(self.app.get(path, headers=api_fixtures.caller(
            'project-b'), status=404), 404)
