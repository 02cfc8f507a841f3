"""Volumes over the API: create, show, list, update, delete, metadata;
every bad input is a 4xx in Cinder's fault format; other projects' volumes
do not exist for a non-admin."""
import sqlalchemy as sa

from db import models
from db import session
import objects
from tests import volume_rows as rows
from tests.functional import api_fixtures


def _volume_rows(context):
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(models.Volume.__table__)).all()


class CreateTest(api_fixtures.APITestCase):

    def test_create_and_show(self):
        response = self.create_volume(name=' data ', description='d',
                                      metadata={'k': 'v'})
        volume = response.json['volume']
        self.assertEqual('creating', volume['status'])
        self.assertEqual(1, volume['size'])
        self.assertEqual('data', volume['name'])
        self.assertEqual('d', volume['description'])
        self.assertEqual({'k': 'v'}, volume['metadata'])
        self.assertEqual('__DEFAULT__', volume['volume_type'])
        self.assertEqual('false', volume['bootable'])
        self.assertFalse(volume['encrypted'])
        self.assertFalse(volume['multiattach'])
        self.assertEqual('nova', volume['availability_zone'])
        self.assertEqual([], volume['attachments'])
        self.assertEqual(['bookmark', 'self'],
                         sorted(link['rel'] for link in volume['links']))
        shown = self.app.get('/v3/volumes/%s' % volume['id'],
                             headers=self.owner).json['volume']
        self.assertEqual(volume['id'], shown['id'])
        self.assertEqual({'k': 'v'}, shown['metadata'])

    def test_create_makes_a_missing_default_type_again(self):
        types = models.VolumeType.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.VolumeTypeExtraSpec.__table__.delete())
            conn.execute(types.delete())
        volume = self.create_volume().json['volume']
        self.assertEqual('__DEFAULT__', volume['volume_type'])
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual(['__DEFAULT__'], conn.execute(
                sa.select(types.c.name)).scalars().all())

    def test_create_records_its_workers_row_in_the_same_insert(self):
        volume = self.create_volume().json['volume']
        table = models.Worker.__table__
        with session.reader.connection.using(self.context) as conn:
            rows = conn.execute(sa.select(table.c.status, table.c.service_id)
                                .where(table.c.resource_id == volume['id'])
                                ).all()
        # A worker may already have claimed it; the row is there either way.
        self.assertEqual(1, len(rows))
        self.assertEqual('creating', rows[0].status)

    def test_refused_create_leaves_no_workers_row(self):
        self.create_volume(size=-1, expect=400)
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual(0, conn.execute(
                sa.select(sa.func.count()).select_from(
                    models.Worker.__table__)).scalar())

    def test_size_as_digit_string_and_legacy_names(self):
        volume = self.create_volume(size='3', display_name='old',
                                    display_description='dd').json['volume']
        self.assertEqual(3, volume['size'])
        self.assertEqual('old', volume['name'])
        self.assertEqual('dd', volume['description'])

    def test_fields_by_microversion(self):
        old = self.create_volume().json['volume']
        self.assertNotIn('group_id', old)
        self.assertNotIn('shared_targets', old)
        new = self.create_volume(headers=api_fixtures.caller(
            version='3.48')).json['volume']
        self.assertIn('group_id', new)
        self.assertIn('shared_targets', new)
        self.assertIn('service_uuid', new)

    def test_unknown_keys_ignored_before_353_refused_after(self):
        self.create_volume(user_id='x', status='available')
        response = self.create_volume(
            headers=api_fixtures.caller(version='3.53'), expect=400,
            status_x='nope')
        self.assertIn("'status_x' was unexpected", self.fault(response, 400))

    def test_bad_sizes(self):
        cases = [
            (0, 'Invalid input for field/attribute size. Value: 0. 0 is '
                'less than the minimum of 1'),
            (-1, 'Invalid input for field/attribute size. Value: -1. -1 is '
                 'less than the minimum of 1'),
            (10 ** 30, 'is greater than the maximum of 2147483647'),
            ('0', 'less than the minimum of 1'),
            ('abc', 'does not match'),
            (1.5, 'is not of type'),
            (True, 'is not of type'),
            ([1], 'is not of type'),
        ]
        for size, expected in cases:
            response = self.create_volume(size=size, expect=400)
            message = self.fault(response, 400)
            self.assertIn(expected, message, size)
        self.assertEqual([], _volume_rows(self.context))

    def test_missing_size(self):
        response = self.app.post_json('/v3/volumes', {'volume': {}},
                                      headers=self.owner, status=400)
        self.assertIn('Invalid volume size provided for create request',
                      self.fault(response, 400))

    def test_bad_bodies(self):
        post = self.app.post
        cases = [
            (post, '{"volume": ', 'Malformed message body'),
            (post, '[1, 2]', "is not of type 'object'"),
            (post, '"text"', "is not of type 'object'"),
            (post, '{}', "'volume' is a required property"),
            (post, '{"volume": 1}', "is not of type 'object'"),
            (post, '{"volume": {"size": 1}, "extra": 1}',
             "'extra' was unexpected"),
            (post, '', 'could not comply with the request'),
            # Bytes that are no UTF-8 are malformed JSON, as in Cinder.
            (post, '\xff', 'Malformed message body'),
        ]
        for method, body, expected in cases:
            response = method('/v3/volumes', body.encode('latin-1'),
                              headers=dict(self.owner, **{
                                  'Content-Type': 'application/json'}),
                              status=400)
            self.assertIn(expected, self.fault(response, 400), body)
        response = self.app.post('/v3/volumes', b'size=1', headers=dict(
            self.owner, **{'Content-Type': 'text/plain'}), status=415)
        self.assertEqual('Unsupported Content-Type',
                         self.fault(response, 415))

    def test_bad_fields(self):
        cases = [
            ({'name': 'x' * 256}, 'is too long'),
            ({'name': 5}, 'is not of type'),
            ({'description': 'd' * 256}, 'is too long'),
            ({'metadata': 'k=v'}, 'is not of type'),
            ({'metadata': {'k': 'v' * 256}}, 'is too long'),
            ({'metadata': {'k': 1}}, 'is not of type'),
            ({'metadata': {'': 'v'}}, 'does not match any of the regexes'),
            ({'snapshot_id': 'not-a-uuid'}, 'snapshot_id'),
            ({'availability_zone': 'mars'},
             "Availability zone 'mars' is invalid."),
            ({'volume_type': 'no-such-type'},
             'Volume type with name no-such-type could not be found.'),
            ({'multiattach': True}, 'multiattach parameter has been removed'),
            ({'multiattach': 'maybe'}, 'multiattach'),
        ]
        for fields, expected in cases:
            response = self.create_volume(expect='*', **fields)
            self.assertIn(response.status_int, (400, 404), fields)
            message = self.fault(response, response.status_int)
            self.assertIn(expected, message, fields)
        self.assertEqual([], _volume_rows(self.context))

    def test_from_snapshot_and_volume_must_exist(self):
        missing = '0b7a4b0e-8a7c-4d5e-9a40-3d1d5a6b9d11'
        response = self.create_volume(snapshot_id=missing, expect=404)
        self.assertEqual('Snapshot %s could not be found.' % missing,
                         self.fault(response, 404))
        response = self.create_volume(source_volid=missing, expect=404)
        self.assertEqual('Volume %s could not be found.' % missing,
                         self.fault(response, 404))

    def test_clone_needs_an_available_source_no_smaller(self):
        source = self.create_volume(size=2).json['volume']['id']
        response = self.create_volume(source_volid=source, size=2,
                                      expect=400)
        self.assertIn("status must be one of 'available', 'in-use', "
                      "it is 'creating'", self.fault(response, 400))
        self.make_available(source)
        response = self.create_volume(source_volid=source, size=1,
                                      expect=400)
        self.assertIn('cannot be smaller than the volume size 2GB',
                      self.fault(response, 400))
        clone = self.app.post_json(
            '/v3/volumes', {'volume': {'source_volid': source}},
            headers=self.owner, status=202).json['volume']
        self.assertEqual(2, clone['size'])
        self.assertEqual(source, clone['source_volid'])

    def test_other_projects_source_is_not_found(self):
        source = self.create_volume().json['volume']['id']
        self.make_available(source)
        response = self.create_volume(
            headers=api_fixtures.caller('project-b'), source_volid=source,
            expect=404)
        self.fault(response, 404)


class ShowListTest(api_fixtures.APITestCase):

    def test_other_tenant_volume_is_404(self):
        volume_id = self.create_volume().json['volume']['id']
        other = api_fixtures.caller('project-b', 'user-b')
        for method in (self.app.get, self.app.delete):
            response = method('/v3/volumes/%s' % volume_id, headers=other,
                              status=404)
            self.assertEqual('Volume %s could not be found.' % volume_id,
                             self.fault(response, 404))
        response = self.app.put_json('/v3/volumes/%s' % volume_id,
                                     {'volume': {'name': 'mine'}},
                                     headers=other, status=404)
        self.fault(response, 404)
        self.assertEqual([], self.app.get('/v3/volumes', headers=other)
                         .json['volumes'])

    def test_admin_all_tenants(self):
        mine = self.create_volume().json['volume']['id']
        theirs = self.create_volume(
            headers=api_fixtures.caller('project-b')).json['volume']['id']
        admin = api_fixtures.ADMIN
        listed = self.app.get('/v3/volumes', headers=admin).json['volumes']
        self.assertEqual([], listed)  # an admin's own project by default
        listed = self.app.get('/v3/volumes?all_tenants=1',
                              headers=admin).json['volumes']
        self.assertEqual({mine, theirs}, {v['id'] for v in listed})
        listed = self.app.get(
            '/v3/volumes/detail?all_tenants=1&project_id=project-b',
            headers=admin).json['volumes']
        self.assertEqual([theirs], [v['id'] for v in listed])
        self.assertEqual('project-b',
                         listed[0]['os-vol-tenant-attr:tenant_id'])
        # all_tenants from a non-admin is ignored, as in Cinder.
        listed = self.app.get('/v3/volumes?all_tenants=1',
                              headers=self.owner).json['volumes']
        self.assertEqual([mine], [v['id'] for v in listed])

    def test_summary_and_detail(self):
        volume_id = self.create_volume(name='n').json['volume']['id']
        (summary,) = self.app.get('/v3/volumes',
                                  headers=self.owner).json['volumes']
        self.assertEqual({'id', 'name', 'links'}, set(summary))
        (detail,) = self.app.get('/v3/volumes/detail',
                                 headers=self.owner).json['volumes']
        self.assertEqual(volume_id, detail['id'])
        self.assertEqual('creating', detail['status'])

    def test_pagination_and_sort(self):
        ids = [self.create_volume(name='v%d' % i, size=i + 1)
               .json['volume']['id'] for i in range(5)]
        by_size = self.app.get('/v3/volumes/detail?sort=size:asc',
                               headers=self.owner).json['volumes']
        self.assertEqual(ids, [v['id'] for v in by_size])
        page = self.app.get('/v3/volumes?sort=name:desc&limit=2',
                            headers=self.owner).json
        self.assertEqual(['v4', 'v3'], [v['name'] for v in page['volumes']])
        next_href = page['volumes_links'][0]['href']
        self.assertIn('marker=%s' % ids[3], next_href)
        page = self.app.get('/v3/volumes?sort=name:desc&limit=2&marker=%s'
                            % ids[3], headers=self.owner).json
        self.assertEqual(['v2', 'v1'], [v['name'] for v in page['volumes']])
        last = self.app.get('/v3/volumes?sort_key=name&sort_dir=desc&limit=2'
                            '&marker=%s' % ids[1], headers=self.owner).json
        self.assertEqual(['v0'], [v['name'] for v in last['volumes']])
        self.assertNotIn('volumes_links', last)
        offset = self.app.get('/v3/volumes?sort=size:asc&offset=3',
                              headers=self.owner).json['volumes']
        self.assertEqual(ids[3:], [v['id'] for v in offset])

    def test_sort_on_nullable_column_pages_through_everything(self):
        named = [self.create_volume(name='n%d' % i).json['volume']['id']
                 for i in range(2)]
        unnamed = [self.create_volume().json['volume']['id']
                   for i in range(2)]
        seen, marker = [], None
        while True:
            url = '/v3/volumes?sort=name:asc&limit=1'
            if marker:
                url += '&marker=%s' % marker
            page = self.app.get(url, headers=self.owner).json['volumes']
            if not page:
                break
            seen.append(page[0]['id'])
            marker = page[0]['id']
        self.assertEqual(4, len(seen))
        self.assertEqual(set(named + unnamed), set(seen))
        self.assertEqual(set(unnamed), set(seen[:2]))  # NULLs first

    def test_bad_list_parameters(self):
        cases = [
            ('limit=x', 'limit param must be an integer'),
            ('limit=-1', 'limit param must be positive'),
            ('offset=x', 'offset param must be an integer'),
            ('sort=size:up', 'Unknown sort direction'),
            ('sort=nope', 'Invalid sort key'),
            ('sort=size&sort_key=size', 'cannot be used with'),
            ('metadata=notadict', 'metadata=notadict'),
        ]
        for query, expected in cases:
            response = self.app.get('/v3/volumes?' + query,
                                    headers=self.owner, status=400)
            self.assertIn(expected, self.fault(response, 400), query)
        response = self.app.get(
            '/v3/volumes?marker=0b7a4b0e-8a7c-4d5e-9a40-3d1d5a6b9d11',
            headers=self.owner, status=404)
        self.assertIn('Marker', self.fault(response, 404))

    def test_leading_zeros_beyond_ints_limit_of_digits(self):
        # int() counts leading zeros against its 4300 digits.
        self.create_volume()
        volumes = self.app.get('/v3/volumes?limit=' + '0' * 5000 + '1',
                               headers=self.owner).json['volumes']
        self.assertEqual(1, len(volumes))

    def test_filters(self):
        a = self.create_volume(name='alpha', metadata={'tier': 'gold'},
                               size=2).json['volume']['id']
        b = self.create_volume(name='beta').json['volume']['id']
        self.make_available(b)

        def listed(query, version=None):
            return [v['id'] for v in self.app.get(
                '/v3/volumes?' + query, headers=api_fixtures.caller(
                    version=version)).json['volumes']]

        self.assertEqual([b], listed('status=available'))
        self.assertEqual([a], listed('name=alpha'))
        self.assertEqual([a], listed("metadata={'tier':'gold'}"))
        self.assertEqual([a], listed('size=2', version='3.31'))
        self.assertEqual([b], listed('name~=et', version='3.34'))
        # Unknown keys: dropped before 3.31, refused from 3.31 (non-admin).
        self.assertEqual(2, len(listed('color=red')))
        response = self.app.get('/v3/volumes?color=red', headers=api_fixtures
                                .caller(version='3.31'), status=400)
        self.assertEqual('Invalid filters color are found in query options.',
                         self.fault(response, 400))

    def test_filter_values_must_fit_the_column(self):
        volume_id = self.create_volume(size=12).json['volume']['id']
        admin = dict(api_fixtures.ADMIN,
                     **{'OpenStack-API-Version': 'volume 3.34'})
        cases = [('size~=1', api_fixtures.caller(version='3.34'), 'size~'),
                 ('size~=1', admin, 'size~'),
                 ('created_at~=2', admin, 'created_at~'),
                 ('multiattach=foo', admin, 'multiattach=foo'),
                 ('created_at=foo', admin, 'Invalid foo operator'),
                 ('size=foo', admin, 'size=foo'),
                 # In range as written, past year 9999 in UTC.
                 ('launched_at=9999-12-31T23:59:59-01:00', admin,
                  'launched_at=9999-12-31T23:59:59-01:00')]
        for query, headers, expected in cases:
            response = self.app.get('/v3/volumes?all_tenants=1&' + query,
                                    headers=headers, status=400)
            self.assertIn(expected, self.fault(response, 400), query)

        def listed(query):
            return [v['id'] for v in self.app.get(
                '/v3/volumes?all_tenants=1&' + query,
                headers=admin).json['volumes']]

        self.assertEqual([volume_id], listed('multiattach=false'))
        self.assertEqual([], listed('multiattach=true'))
        self.assertEqual([volume_id], listed('size=12'))
        self.assertEqual([], listed('created_at=eq:2001-02-03T04:05:06Z'))
        self.assertEqual([volume_id], listed('status~=creat'))

    def test_with_count(self):
        for _ in range(3):
            self.create_volume()
        body = self.app.get('/v3/volumes?limit=1&with_count=true',
                            headers=api_fixtures.caller(version='3.45')).json
        self.assertEqual(3, body['count'])
        self.assertEqual(1, len(body['volumes']))
        body = self.app.get('/v3/volumes?with_count=true',
                            headers=self.owner).json
        self.assertNotIn('count', body)


class UpdateDeleteTest(api_fixtures.APITestCase):

    def test_update_name_description_metadata(self):
        volume_id = self.create_volume(metadata={'a': '1'}).json['volume'][
            'id']
        volume = self.app.put_json(
            '/v3/volumes/%s' % volume_id,
            {'volume': {'name': 'new', 'description': 'desc',
                        'metadata': {'b': '2'}}},
            headers=self.owner).json['volume']
        self.assertEqual('new', volume['name'])
        self.assertEqual('desc', volume['description'])
        self.assertEqual({'b': '2'}, volume['metadata'])

    def test_refused_update_changes_nothing(self):
        volume_id = self.create_volume(name='old', metadata={'a': '1'}).json[
            'volume']['id']
        self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume_id,
            {'os-reset_status': {'status': 'maintenance'}},
            headers=api_fixtures.ADMIN, status=202)
        response = self.app.put_json(
            '/v3/volumes/%s' % volume_id,
            {'volume': {'name': 'new', 'metadata': {'b': '2'}}},
            headers=self.owner, status=400)
        self.assertIn('maintenance', self.fault(response, 400))
        volume = self.app.get('/v3/volumes/%s' % volume_id,
                              headers=self.owner).json['volume']
        self.assertEqual('old', volume['name'])
        self.assertEqual({'a': '1'}, volume['metadata'])

    def test_update_needs_a_field_from_353(self):
        volume_id = self.create_volume().json['volume']['id']
        self.app.put_json('/v3/volumes/%s' % volume_id, {'volume': {}},
                          headers=self.owner, status=200)
        response = self.app.put_json(
            '/v3/volumes/%s' % volume_id, {'volume': {}},
            headers=api_fixtures.caller(version='3.53'), status=400)
        self.fault(response, 400)
        response = self.app.put_json(
            '/v3/volumes/%s' % volume_id, {'volume': {'size': 5}},
            headers=self.owner, status=400)
        self.assertIn("'size' was unexpected", self.fault(response, 400))

    def test_delete_needs_a_deletable_status(self):
        volume_id = self.create_volume().json['volume']['id']
        response = self.app.delete('/v3/volumes/%s' % volume_id,
                                   headers=self.owner, status=400)
        self.assertIn("status must be", self.fault(response, 400))
        self.make_available(volume_id)
        response = self.app.delete('/v3/volumes/%s' % volume_id,
                                   headers=self.owner, status=202)
        self.assertEqual(b'', response.body)
        volume = self.app.get('/v3/volumes/%s' % volume_id,
                              headers=self.owner).json['volume']
        self.assertEqual('deleting', volume['status'])

    def test_force_delete_is_admin_only(self):
        volume_id = self.create_volume().json['volume']['id']
        response = self.app.delete(
            '/v3/volumes/%s?force=true' % volume_id,
            headers=api_fixtures.caller(version='3.23'), status=403)
        self.fault(response, 403)
        self.app.delete('/v3/volumes/%s?force=true' % volume_id,
                        headers=dict(api_fixtures.ADMIN, **{
                            'OpenStack-API-Version': 'volume 3.23'}),
                        status=202)
        response = self.app.delete('/v3/volumes/%s?cascade=maybe'
                                   % volume_id, headers=self.owner,
                                   status=400)
        self.fault(response, 400)

    def test_force_delete_action(self):
        """os-force_delete (admin, any microversion): from any status
        but 'deleting', as DELETE ?force=true."""
        volume_id = self.create_volume().json['volume']['id']
        path = '/v3/volumes/%s/action' % volume_id
        response = self.app.post_json(path, {'os-force_delete': None},
                                      headers=self.owner, status=403)
        self.fault(response, 403)
        response = self.app.post_json(path, {'os-force_delete': {'x': 1}},
                                      headers=api_fixtures.ADMIN, status=400)
        self.fault(response, 400)
        self.app.post_json(path, {'os-force_delete': {}},
                           headers=dict(api_fixtures.ADMIN, **{
                               'OpenStack-API-Version': 'volume 3.0'}),
                           status=202)
        self.assertEqual('deleting', self.app.get(
            '/v3/volumes/%s' % volume_id,
            headers=self.owner).json['volume']['status'])
        response = self.app.post_json(path, {'os-force_delete': None},
                                      headers=api_fixtures.ADMIN, status=400)
        self.assertIn("must not be 'deleting'", self.fault(response, 400))
        volume = rows.volume(self.context, project_id=self.project)
        rows.snapshot(self.context, volume)
        response = self.app.post_json(
            '/v3/volumes/%s/action' % volume.id, {'os-force_delete': None},
            headers=api_fixtures.ADMIN, status=400)
        self.assertIn('snapshot', self.fault(response, 400))


class MetadataTest(api_fixtures.APITestCase):
    """/volumes/{id}/metadata; SnapshotMetadataTest runs the same on
    /snapshots/{id}/metadata."""

    def setUp(self):
        super().setUp()
        self.url = self.owner_url() + '/metadata'
        self.app.put_json(self.url, {'metadata': {'a': '1'}},
                          headers=self.owner)

    def owner_url(self):
        return '/v3/volumes/%s' % self.create_volume().json['volume']['id']

    def test_crud(self):
        self.assertEqual({'a': '1'}, self.app.get(
            self.url, headers=self.owner).json['metadata'])
        merged = self.app.post_json(self.url, {'metadata': {'b': '2'}},
                                    headers=self.owner).json['metadata']
        self.assertEqual({'a': '1', 'b': '2'}, merged)
        replaced = self.app.put_json(self.url, {'metadata': {'c': '3'}},
                                     headers=self.owner).json['metadata']
        self.assertEqual({'c': '3'}, replaced)
        self.assertEqual({'meta': {'c': '3'}}, self.app.get(
            self.url + '/c', headers=self.owner).json)
        self.assertEqual({'meta': {'c': '4'}}, self.app.put_json(
            self.url + '/c', {'meta': {'c': '4'}}, headers=self.owner).json)
        self.app.delete(self.url + '/c', headers=self.owner, status=200)
        self.assertEqual({}, self.app.get(self.url, headers=self.owner)
                         .json['metadata'])

    def test_errors(self):
        response = self.app.get(self.url + '/missing', headers=self.owner,
                                status=404)
        self.assertEqual('Metadata item was not found',
                         self.fault(response, 404))
        self.app.delete(self.url + '/missing', headers=self.owner,
                        status=404)
        response = self.app.put_json(self.url + '/x', {'meta': {'y': '1'}},
                                     headers=self.owner, status=400)
        self.assertEqual('Request body and URI mismatch',
                         self.fault(response, 400))
        response = self.app.put_json(
            self.url + '/x', {'meta': {'x': '1', 'y': '2'}},
            headers=self.owner, status=400)
        self.fault(response, 400)
        response = self.app.post_json(self.url, {'metadata': ['x']},
                                      headers=self.owner, status=400)
        self.fault(response, 400)
        self.app.get(self.url, headers=api_fixtures.caller('project-b'),
                     status=404)


class VisibleAdminMetadataTest(api_fixtures.APITestCase):
    """As Cinder's add_visible_admin_metadata: a volume's views show its
    admin keys readonly and attached_mode in its metadata, over a user key
    of that name; its metadata API shows the user's keys only."""

    def test_readonly_in_the_views(self):
        volume_id = self.create_volume(metadata={
            'readonly': 'mine', 'k': 'v'}).json['volume']['id']
        volume = objects.Volume.get_by_id(self.context, volume_id)
        rows.admin_metadata(self.context, volume, 'readonly', 'True')
        rows.admin_metadata(self.context, volume, 'hidden', 'x')
        shown = {'readonly': 'True', 'k': 'v'}
        path = '/v3/volumes/%s' % volume_id
        self.assertEqual(shown, self.app.get(
            path, headers=self.owner).json['volume']['metadata'])
        self.assertEqual([shown], [v['metadata'] for v in self.app.get(
            '/v3/volumes/detail', headers=self.owner).json['volumes']])
        self.assertEqual(shown, self.app.put_json(
            path, {'volume': {'name': 'n'}},
            headers=self.owner).json['volume']['metadata'])
        self.assertEqual({'readonly': 'mine', 'k': 'v'}, self.app.get(
            path + '/metadata', headers=self.owner).json['metadata'])


class SnapshotMetadataTest(MetadataTest):

    def owner_url(self):
        volume = rows.volume(self.context, project_id=self.project)
        return '/v3/snapshots/%s' % rows.snapshot(self.context, volume).id

    def test_in_any_status(self):
        # As Cinder: a snapshot's metadata changes whatever its status.
        volume = rows.volume(self.context, project_id=self.project)
        for status in ('creating', 'deleting', 'error'):
            url = '/v3/snapshots/%s/metadata' % rows.snapshot(
                self.context, volume, status=status).id
            self.app.post_json(url, {'metadata': {status: 'x'}},
                               headers=self.owner)
            self.assertEqual({status: 'x'}, self.app.get(
                url, headers=self.owner).json['metadata'])


class SummaryTest(api_fixtures.APITestCase):

    def test_summary(self):
        self.create_volume(size=2, metadata={'tier': 'gold'})
        self.create_volume(size=3, metadata={'tier': 'silver', 'x': 'y'})
        self.create_volume(headers=api_fixtures.caller('project-b'), size=7)
        self.app.get('/v3/volumes/summary', headers=self.owner, status=404)
        body = self.app.get('/v3/volumes/summary', headers=api_fixtures
                            .caller(version='3.12')).json
        self.assertEqual({'volume-summary': {'total_count': 2,
                                             'total_size': 5}}, body)
        body = self.app.get('/v3/volumes/summary', headers=api_fixtures
                            .caller(version='3.36')).json['volume-summary']
        self.assertEqual({'tier': ['gold', 'silver'], 'x': ['y']},
                         body['metadata'])
        body = self.app.get(
            '/v3/volumes/summary?all_tenants=1', headers=dict(
                api_fixtures.ADMIN, **{'OpenStack-API-Version':
                                       'volume 3.12'})).json
        self.assertEqual(12, body['volume-summary']['total_size'])
