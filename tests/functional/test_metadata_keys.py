"""Keys of metadata and extra specs are compared byte for byte on every
backend: keys that differ only in case or in trailing spaces are distinct
keys (MariaDB's default collation made them one: a 500, or a merge)."""
from tests.functional import api_fixtures

KEYS = {'Z': '1', 'z': '2', 'z ': '3'}


class DistinctKeysTest(api_fixtures.APITestCase):

    def test_volume_metadata(self):
        volume = self.create_volume(metadata=KEYS).json['volume']
        self.assertEqual(KEYS, volume['metadata'])
        path = '/v3/volumes/%s/metadata' % volume['id']
        self.app.post_json(path, {'metadata': {'Z': 'one'}},
                           headers=self.owner)
        self.assertEqual(dict(KEYS, Z='one'), self.app.get(
            path, headers=self.owner).json['metadata'])
        self.app.delete(path + '/z', headers=self.owner)
        self.assertEqual({'Z': 'one', 'z ': '3'}, self.app.get(
            path, headers=self.owner).json['metadata'])

    def test_type_extra_specs(self):
        created = self.app.post_json('/v3/types', {'volume_type': {
            'name': 'keys', 'extra_specs': KEYS}},
            headers=api_fixtures.ADMIN).json['volume_type']
        self.assertEqual(KEYS, created['extra_specs'])
        self.assertEqual(KEYS, self.app.get(
            '/v3/types/%s/extra_specs' % created['id'],
            headers=api_fixtures.ADMIN).json['extra_specs'])
