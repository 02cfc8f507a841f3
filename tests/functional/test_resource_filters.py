"""GET /resource_filters (3.33): each list's filters, as the list serves
them."""
from tests.functional import api_fixtures
from volapi.api.v3 import resource_filters


class ResourceFiltersTest(api_fixtures.APITestCase):

    def get(self, path, version='3.33', status=200):
        return self.app.get(path, headers=api_fixtures.caller(
            self.project, version=version), status=status)

    def test_all_and_one(self):
        listed = self.get('/v3/resource_filters').json['resource_filters']
        self.assertEqual(sorted(resource_filters.RESOURCE_FILTERS),
                         sorted(f['resource'] for f in listed))
        volume = self.get('/v3/resource_filters?resource=volume').json
        self.assertEqual({'resource_filters': [{
            'resource': 'volume', 'filters': [
                'name', 'status', 'metadata', 'bootable',
                'migration_status', 'availability_zone', 'group_id', 'size',
                'created_at', 'updated_at', 'consumes_quota']}]}, volume)
        self.assertEqual({'resource_filters': []}, self.get(
            '/v3/resource_filters?resource=nothing').json)
        self.assertEqual(
            'API version 3.32 is not supported on this method.',
            self.fault(self.get('/v3/resource_filters', version='3.32',
                                status=404), 404))

    def test_each_listed_filter_is_served(self):
        """A non-admin's list with each filter shown is a 200 (from 3.31
        an unknown filter is a 400)."""
        values = {'metadata': "{'k':'v'}", 'bootable': 'true',
                  'size': '1', 'consumes_quota': 'true',
                  'created_at': 'gt:2020-01-01T00:00:00',
                  'updated_at': 'gt:2020-01-01T00:00:00',
                  'is_public': 'true', 'extra_specs': "{'k':'v'}"}
        paths = {'volume': '/v3/volumes', 'snapshot': '/v3/snapshots',
                 'backup': '/v3/backups', 'group': '/v3/groups',
                 'attachment': '/v3/attachments', 'volume_type': '/v3/types'}
        for resource, path in paths.items():
            for name in resource_filters.RESOURCE_FILTERS[resource]:
                with self.subTest(resource=resource, filter=name):
                    self.get('%s?%s=%s' % (path, name,
                                           values.get(name, 'x')),
                             version='3.67')
        self.get('/v3/volumes?nonsense=1', version='3.67', status=400)
