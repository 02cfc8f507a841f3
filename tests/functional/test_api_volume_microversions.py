"""What microversions 3.60 to 3.67 change in the volume API, at their
boundaries: time comparison and consumes_quota filters of volume lists,
cluster_name, volume_type_id and consumes_quota in volume details, no
encryption_key_id (volapi has no encrypted volume), and URLs without a
project id."""
import datetime

import sqlalchemy as sa

from db import models
from db import session
from tests.functional import api_fixtures


def _at(version, admin=False):
    if admin:
        return dict(api_fixtures.ADMIN, **{'OpenStack-API-Version':
                                           'volume %s' % version})
    return api_fixtures.caller(version=version)


class TimeFilterTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.ids = [self.create_volume().json['volume']['id']
                    for _ in range(3)]
        # Known times: 2020-01-01, 2020-01-02, 2020-01-03 (updated a day
        # later each).
        table = models.Volume.__table__
        with session.writer.connection.using(self.context) as conn:
            for day, volume_id in enumerate(self.ids, start=1):
                created = datetime.datetime(2020, 1, day)
                conn.execute(table.update().where(
                    table.c.id == volume_id).values(
                    created_at=created,
                    updated_at=created + datetime.timedelta(days=1)))

    def listed(self, query, version='3.60', admin=False):
        if admin:
            query += '&all_tenants=1'
        volumes = self.app.get('/v3/volumes?' + query,
                               headers=_at(version, admin)).json['volumes']
        return sorted(self.ids.index(v['id']) + 1 for v in volumes)

    def test_operators(self):
        cases = [('created_at=gt:2020-01-02T00:00:00', [3]),
                 ('created_at=gte:2020-01-02T00:00:00', [2, 3]),
                 ('created_at=lt:2020-01-02T00:00:00', [1]),
                 ('created_at=lte:2020-01-02T00:00:00Z', [1, 2]),
                 ('created_at=eq:2020-01-02T00:00:00', [2]),
                 ('created_at=neq:2020-01-02T00:00:00', [1, 3]),
                 # The offset is taken into account.
                 ('created_at=eq:2020-01-02T02:00:00%2B02:00', [2]),
                 ('updated_at=gt:2020-01-03T00:00:00', [3]),
                 ('created_at=gt:2020-01-01', [2, 3]),
                 # Cinder ORs comparisons: outside [day 1, day 3], none.
                 ('created_at=lt:2020-01-01T00:00:00,'
                  'gt:2020-01-03T00:00:00', []),
                 ('created_at=lte:2020-01-01T00:00:00,'
                  'gte:2020-01-03T00:00:00', [1, 3]),
                 ('created_at=gt:2020-01-01T00:00:00&'
                  'updated_at=lt:2020-01-04T00:00:00', [2])]
        for query, expected in cases:
            with self.subTest(query=query):
                self.assertEqual(expected, self.listed(query))
                self.assertEqual(expected, self.listed(query, admin=True))
        body = self.app.get(
            '/v3/volumes/detail?with_count=true&'
            'created_at=gte:2020-01-02T00:00:00', headers=_at('3.60')).json
        self.assertEqual(2, body['count'])
        summary = self.app.get(
            '/v3/volumes/summary?created_at=gte:2020-01-02T00:00:00',
            headers=_at('3.60')).json['volume-summary']
        self.assertEqual(2, summary['total_count'])

    def test_bad_values_are_cinders_400s(self):
        cases = [('created_at=2020-01-02T00:00:00',
                  'Invalid 2020-01-02T00 operator'),
                 ('created_at=foo:2020-01-02', 'Invalid foo operator'),
                 ('created_at=', 'Invalid  operator'),
                 ('updated_at=gt', 'Invalid gt value'),
                 ('updated_at=gt:', 'Invalid  value'),
                 ('created_at=gt:yesterday', 'Invalid yesterday value'),
                 ('created_at=gt:2020-13-01', 'Invalid 2020-13-01 value'),
                 # The first bad unit is the one named.
                 ('created_at=gt:2020-01-01,xx:2020', 'Invalid xx operator'),
                 ('created_at=gt:9999-12-31T23:59:59-01:00',
                  'Invalid 9999-12-31T23:59:59-01:00 value'),
                 ('created_at~=2020', 'created_at~')]
        for query, expected in cases:
            for admin in (False, True):
                with self.subTest(query=query, admin=admin):
                    response = self.app.get(
                        '/v3/volumes?' + query.replace('+', '%2B'),
                        headers=_at('3.60', admin), status=400)
                    self.assertIn(expected, self.fault(response, 400))

    def test_versions(self):
        # Cinder drops the filter before 3.31 only; its resource filters
        # take it from 3.31 whatever the version.
        query = 'created_at=gt:2020-01-02T00:00:00'
        for admin in (False, True):
            self.assertEqual([1, 2, 3], self.listed(query, '3.30', admin))
            self.assertEqual([1, 2, 3], self.listed('created_at=bad',
                                                    '3.30', admin))
            self.assertEqual([3], self.listed(query, '3.31', admin))
            self.assertEqual([3], self.listed(query, '3.59', admin))
            self.assertEqual([3], self.listed(query, '3.67', admin))


class ConsumesQuotaTest(api_fixtures.APITestCase):

    def test_filter(self):
        volume_id = self.create_volume().json['volume']['id']

        def listed(query, version, admin=False, status=200):
            response = self.app.get('/v3/volumes?' + query,
                                    headers=_at(version, admin),
                                    status=status)
            if status != 200:
                return self.fault(response, status)
            return [v['id'] for v in response.json['volumes']]

        for version in ('3.31', '3.64', '3.65'):
            self.assertEqual([volume_id],
                             listed('consumes_quota=true', version))
            self.assertEqual([], listed('consumes_quota=false', version))
            self.assertEqual([], listed('consumes_quota=0', version))
            self.assertEqual(
                "Value 'maybe' for 'use_quota' is not a boolean.",
                listed('consumes_quota=maybe', version, status=400))
        # An administrator may name it as the database does, too.
        self.assertEqual([], listed('all_tenants=1&use_quota=false', '3.65',
                                    admin=True))
        self.assertEqual([volume_id], listed(
            'all_tenants=1&use_quota=true', '3.65', admin=True))
        self.assertEqual('Invalid filters use_quota are found in query '
                         'options.',
                         listed('use_quota=true', '3.65', status=400))
        # Before 3.31 a user's unknown filter is dropped.
        self.assertEqual([volume_id], listed('consumes_quota=false', '3.30'))


class DetailFieldsTest(api_fixtures.APITestCase):

    def views(self, volume_id, version, admin=False):
        headers = _at(version, admin)
        query = '?all_tenants=1' if admin else ''
        return [self.app.get('/v3/volumes/%s' % volume_id,
                             headers=headers).json['volume'],
                self.app.get('/v3/volumes/detail' + query,
                             headers=headers).json['volumes'][0]]

    def test_fields_at_their_versions(self):
        created = self.create_volume().json['volume']
        type_id = self.app.get('/v3/types/default', headers=self.owner
                               ).json['volume_type']['id']
        table = models.Volume.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(table.update().where(table.c.id == created['id'])
                         .values(cluster_name='c1@file#file'))
        fields = {'cluster_name': '3.61', 'volume_type_id': '3.63',
                  'consumes_quota': '3.65'}
        values = {'cluster_name': 'c1@file#file', 'volume_type_id': type_id,
                  'consumes_quota': True}
        for field, added in fields.items():
            minor = int(added.split('.')[1])
            before = '3.%d' % (minor - 1)
            for admin in (False, True):
                for view in self.views(created['id'], before, admin):
                    self.assertNotIn(field, view)
                for view in self.views(created['id'], added, admin):
                    if field == 'cluster_name' and not admin:
                        # Administrators only.
                        self.assertNotIn(field, view)
                    else:
                        self.assertEqual(values[field], view[field])
        for admin in (False, True):
            for view in self.views(created['id'], '3.67', admin):
                self.assertEqual('__DEFAULT__', view['volume_type'])
                self.assertNotIn('encryption_key_id', view)
                self.assertFalse(view['encrypted'])
        # The create's answer shows them too.
        new = self.create_volume(headers=_at('3.67', admin=True)
                                 ).json['volume']
        self.assertEqual((type_id, True),
                         (new['volume_type_id'], new['consumes_quota']))
        self.assertIn('cluster_name', new)


class ProjectIdOptionalTest(api_fixtures.APITestCase):

    def test_urls_with_and_without_project_id_at_367(self):
        headers = _at('3.67')
        volume_id = self.create_volume(headers=headers).json['volume']['id']
        for prefix in ('/v3', '/v3/project-a'):
            self.assertEqual(volume_id, self.app.get(
                '%s/volumes/%s' % (prefix, volume_id),
                headers=headers).json['volume']['id'])
            self.assertEqual([volume_id], [v['id'] for v in self.app.get(
                prefix + '/volumes', headers=headers).json['volumes']])
        # Another project's id in the URL stays Cinder's 400.
        response = self.app.get('/v3/project-b/volumes', headers=headers,
                                status=400)
        self.assertEqual('Malformed request url', self.fault(response, 400))
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual(1, conn.execute(sa.select(sa.func.count())
                                             .select_from(models.Volume)
                                             ).scalar())
