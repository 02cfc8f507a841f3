"""No input reaches a 500: garbage bodies and query strings on every
volume and type endpoint get a 2xx or a 4xx in Cinder's fault format."""
from tests.functional import api_fixtures

BODIES = [b'', b'null', b'[]', b'{}', b'"x"', b'1e999', b'{"a": }',
          b'{"volume": null}', b'{"volume": []}', b'{"volume": "x"}',
          b'{"volume": {"size": null}}', b'{"volume": {"size": {}}}',
          b'{"volume": {"size": "1e3"}}', b'{"volume": {"size": 1, '
          b'"name": "\\u00e9\\ud83d\\ude00"}}',
          b'{"volume": {"size": 1, "volume_type": ""}}',
          b'{"volume": {"size": 1, "snapshot_id": null, "metadata": null}}',
          b'{"volume": {"size": 1, "source_volid": ""}}',
          b'{"volume_type": null}', b'{"volume_type": {"name": null}}',
          b'{"volume_type": {"name": "t", "extra_specs": null}}',
          b'{"metadata": null}', b'{"metadata": {"k": null}}',
          b'{"meta": null}', b'{"meta": {}}', b'{"meta": {"x": "1"}}',
          b'\xff\xfe', b'{"volume": {"size": 99999999999999999999999}}',
          b'{"volume": {"size": 1, "name": "a\\u0000b"}}',
          b'{"metadata": {"k\\u0000": "v"}}',
          # Valid JSON nested far deeper than any request; then too deep
          # for the parser itself.
          b'{"volume": {"size": ' + b'[' * 600 + b'1' + b']' * 600 + b'}}',
          b'[' * 5000 + b']' * 5000]

QUERIES = ['limit=1e99', 'limit=', 'marker=', "marker='", 'sort=:',
           'sort=,,', 'sort=name:', 'sort_dir=sideways', 'offset=-5',
           'offset=99999999999999999999999', 'all_tenants=maybe',
           'with_count=maybe', 'metadata={', 'metadata={1:2}',
           'bootable=maybe', 'size=big', 'size=99999999999999999999',
           'limit=99999999999999999999', 'size=-1', 'name~=%25', 'status=%00',
           'is_public=perhaps', 'extra_specs={', 'cascade=x', 'force=x',
           'size~=1', 'multiattach=foo', 'created_at=foo',
           'launched_at=2001-02-30']


class NoServerErrorTest(api_fixtures.APITestCase):

    def _check(self, response, what):
        self.assertLess(response.status_int, 500, what)
        if response.status_int >= 400 and response.content_type == \
                'application/json':
            (name,) = response.json
            self.assertEqual(response.status_int,
                             response.json[name]['code'], what)

    def test_bodies(self):
        volume_id = self.create_volume().json['volume']['id']
        paths = ['/v3/volumes', '/v3/volumes/%s' % volume_id,
                 '/v3/volumes/%s/metadata' % volume_id,
                 '/v3/volumes/%s/metadata/x' % volume_id,
                 '/v3/volumes/%s/action' % volume_id, '/v3/types',
                 '/v3/types/default', '/v3/types/default/extra_specs',
                 '/v3/types/default/extra_specs/k']
        for headers in (self.owner, api_fixtures.ADMIN,
                        api_fixtures.caller(version='3.59')):
            for path in paths:
                for method in ('POST', 'PUT'):
                    for body in BODIES:
                        response = self.app.request(
                            path, method=method, body=body,
                            headers=dict(headers, **{
                                'Content-Type': 'application/json'}),
                            expect_errors=True)
                        self._check(response, (method, path, body))

    def test_queries(self):
        volume_id = self.create_volume().json['volume']['id']
        paths = ['/v3/volumes', '/v3/volumes/detail', '/v3/types',
                 '/v3/volumes/%s' % volume_id]
        for headers in (self.owner, api_fixtures.ADMIN,
                        api_fixtures.caller(version='3.59')):
            for path in paths:
                for query in QUERIES:
                    for method in ('GET', 'DELETE'):
                        response = self.app.request(
                            path + '?' + query, method=method,
                            headers=headers, expect_errors=True)
                        self._check(response, (method, path, query))

    def test_odd_ids(self):
        for ident in ('%00', 'x' * 300, '..', '%25', "'", '%E2%98%83'):
            for path in ('/v3/volumes/%s', '/v3/types/%s',
                         '/v3/volumes/%s/metadata'):
                response = self.app.get(path % ident, headers=self.owner,
                                        expect_errors=True)
                self._check(response, path % ident)
