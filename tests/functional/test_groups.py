"""Generic volume groups and group types through the API (3.11, 3.13):
the wire format, Cinder's refusals (4xx, never a 5xx) and the rules each
compare-and-swap enforces."""
from tests.functional import api_fixtures

ADMIN = dict(api_fixtures.ADMIN, **{'OpenStack-API-Version': 'volume 3.13'})
UUID = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'


class GroupsAPITestCase(api_fixtures.APITestCase):
    """Group types, volume types and groups made through the API."""

    def setUp(self):
        super().setUp()
        self.user = api_fixtures.caller(self.project, version='3.13')

    def group_type(self, name='gt', **fields):
        return self.app.post_json(
            '/v3/group_types', {'group_type': dict(name=name, **fields)},
            headers=ADMIN).json['group_type']

    def volume_type(self, name):
        return self.app.post_json('/v3/types', {'volume_type': {
            'name': name}}, headers=api_fixtures.ADMIN).json['volume_type']

    def group(self, group_type, volume_types, headers=None, expect=202,
              **fields):
        body = {'group': dict(group_type=group_type,
                              volume_types=volume_types, **fields)}
        return self.app.post_json('/v3/groups', body,
                                  headers=headers or self.user,
                                  status=expect)

    def show(self, group_id, headers=None):
        return self.app.get('/v3/groups/%s' % group_id,
                            headers=headers or self.user).json['group']

    def available_volume(self, type_name, **fields):
        volume = self.create_volume(volume_type=type_name,
                                    headers=self.user, **fields)
        volume_id = volume.json['volume']['id']
        self.make_available(volume_id)
        return volume_id

    def volume(self, volume_id):
        return self.app.get('/v3/volumes/%s' % volume_id,
                            headers=self.user).json['volume']

    def update(self, group_id, expect=202, **fields):
        return self.app.put_json('/v3/groups/%s' % group_id,
                                 {'group': fields}, headers=self.user,
                                 status=expect)

    def delete(self, group_id, expect=202, **flags):
        return self.app.post_json('/v3/groups/%s/action' % group_id,
                                  {'delete': flags}, headers=self.user,
                                  status=expect)


class GroupTypesTest(GroupsAPITestCase):

    def test_create_show_list_update_delete(self):
        made = self.group_type('gold', description='d',
                               group_specs={'consistent_group_snapshot_'
                                            'enabled': '<is> True'})
        self.assertEqual({'id', 'name', 'description', 'is_public',
                          'group_specs'}, set(made))
        shown = self.app.get('/v3/group_types/%s' % made['id'],
                             headers=self.user).json['group_type']
        # Specs are for administrators.
        self.assertNotIn('group_specs', shown)
        self.assertEqual('gold', shown['name'])
        listed = self.app.get('/v3/group_types',
                              headers=self.user).json['group_types']
        self.assertEqual(['gold'], [t['name'] for t in listed])
        self.app.put_json('/v3/group_types/%s' % made['id'],
                          {'group_type': {'name': 'silver'}}, headers=ADMIN)
        self.assertEqual('silver', self.app.get(
            '/v3/group_types/gold', headers=ADMIN, status=404) and
            self.app.get('/v3/group_types/%s' % made['id'],
                         headers=ADMIN).json['group_type']['name'])
        self.app.delete('/v3/group_types/%s' % made['id'], headers=ADMIN,
                        status=202)
        self.app.get('/v3/group_types/%s' % made['id'], headers=ADMIN,
                     status=404)

    def test_before_311_not_found(self):
        response = self.app.get('/v3/group_types', headers=dict(
            ADMIN, **{'OpenStack-API-Version': 'volume 3.10'}), status=404)
        self.assertIn('3.10 is not supported', self.fault(response, 404))

    def test_duplicate_name_conflict(self):
        self.group_type('gold')
        response = self.app.post_json(
            '/v3/group_types', {'group_type': {'name': 'gold'}},
            headers=ADMIN, status=409)
        self.assertEqual('Group Type gold already exists.',
                         self.fault(response, 409))

    def test_bad_input(self):
        for body in ({'group_type': {'name': 'x' * 256}},
                     {'group_type': {'name': ''}},
                     {'group_type': {'name': 'a', 'group_specs': {
                         'bad key': 'v'}}},
                     {'group_type': {'name': 'a', 'is_public': 'maybe'}},
                     {'group_type': {}}, {'x': 1}):
            self.app.post_json('/v3/group_types', body, headers=ADMIN,
                               status=400)
        self.app.get('/v3/group_types/%s' % UUID, headers=ADMIN,
                     status=404)
        self.app.get('/v3/group_types/not-a-uuid', headers=ADMIN,
                     status=404)

    def test_users_cannot_manage(self):
        self.app.post_json('/v3/group_types', {'group_type': {'name': 'g'}},
                           headers=self.user, status=403)

    def test_specs(self):
        made = self.group_type('gold')
        url = '/v3/group_types/%s/group_specs' % made['id']
        self.app.post_json(url, {'group_specs': {'a': '1', 'b': '2'}},
                           headers=ADMIN)
        self.app.put_json(url + '/a', {'a': '3'}, headers=ADMIN)
        self.assertEqual({'a': '3', 'b': '2'}, self.app.get(
            url, headers=ADMIN).json['group_specs'])
        self.app.delete(url + '/b', headers=ADMIN, status=202)
        self.assertEqual({'a': '3'}, self.app.get(url, headers=ADMIN).json[
            'group_specs'])
        response = self.app.get(url + '/b', headers=ADMIN, status=404)
        self.assertIn('has no extra spec with key b',
                      self.fault(response, 404))
        self.app.put_json(url + '/a', {'c': '3'}, headers=ADMIN, status=400)
        self.app.get(url, headers=self.user, status=403)

    def test_type_in_use_by_a_live_group_is_kept(self):
        kind = self.group_type('gold')
        self.volume_type('vt')
        group_id = self.group('gold', ['vt']).json['group']['id']
        response = self.app.delete('/v3/group_types/%s' % kind['id'],
                                   headers=ADMIN, status=400)
        self.assertEqual('Target group type is still in use.',
                         self.fault(response, 400))
        self.delete(group_id)
        self.app.delete('/v3/group_types/%s' % kind['id'], headers=ADMIN,
                        status=202)


class GroupsTest(GroupsAPITestCase):

    def setUp(self):
        super().setUp()
        self.kind = self.group_type('gold')
        self.vt = self.volume_type('vt')
        self.other_vt = self.volume_type('other')

    def test_create_available_at_once(self):
        made = self.group('gold', ['vt'], name=' g1 ', description='d')
        self.assertEqual({'id', 'name'}, set(made.json['group']))
        self.assertEqual('g1', made.json['group']['name'])
        shown = self.show(made.json['group']['id'])
        self.assertEqual('available', shown['status'])
        self.assertEqual(self.kind['id'], shown['group_type'])
        self.assertEqual([self.vt['id']], shown['volume_types'])
        detail = self.app.get('/v3/groups/detail',
                              headers=self.user).json['groups']
        self.assertEqual([shown['id']], [g['id'] for g in detail])
        self.assertEqual('available', detail[0]['status'])
        summary = self.app.get('/v3/groups', headers=self.user).json
        self.assertEqual([{'id': shown['id'], 'name': 'g1'}],
                         summary['groups'])
        # Another project sees nothing.
        other = api_fixtures.caller('project-b', version='3.13')
        self.assertEqual([], self.app.get('/v3/groups', headers=other)
                         .json['groups'])
        self.app.get('/v3/groups/%s' % shown['id'], headers=other,
                     status=404)

    def test_create_refusals(self):
        response = self.group('nope', ['vt'], expect=404)
        self.assertEqual('Group type with name nope could not be found.',
                         self.fault(response, 404))
        response = self.group('gold', ['nope'], expect=404)
        self.assertEqual('Volume type with name nope could not be found.',
                         self.fault(response, 404))
        for body in ({'group_type': 'gold', 'volume_types': []},
                     {'group_type': 'gold'},
                     {'group_type': 'gold', 'volume_types': ['vt'],
                      'name': 'x' * 256},
                     {'group_type': 'x' * 256, 'volume_types': ['vt']},
                     {'group_type': 'gold', 'volume_types': ['vt', 'vt']},
                     {'group_type': 'gold', 'volume_types': ['vt'],
                      'availability_zone': 'elsewhere'},
                     {'group_type': 'gold', 'volume_types': ['vt'],
                      'bogus': 1}):
            self.app.post_json('/v3/groups', {'group': body},
                               headers=self.user, status=400)
        self.app.post_json('/v3/groups', {'group': {
            'group_type': 'gold', 'volume_types': ['vt']}},
            headers=api_fixtures.caller(self.project, version='3.12'),
            status=404)
        self.app.get('/v3/groups/not-a-uuid', headers=self.user, status=404)

    def test_groups_quota(self):
        self.config.set('quota', groups=1)
        self.group('gold', ['vt'])
        response = self.group('gold', ['vt'], expect=413)
        self.assertEqual('Maximum number of groups allowed (1) exceeded',
                         self.fault(response, 413))
        quota = self.app.get('/v3/os-quota-sets/%s?usage=True'
                             % self.project, headers=ADMIN).json['quota_set']
        self.assertEqual({'limit': 1, 'in_use': 1, 'reserved': 0,
                          'allocated': 0}, quota['groups'])

    def test_volume_created_in_group(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume = self.create_volume(volume_type='vt', group_id=group_id,
                                    headers=self.user).json['volume']
        self.assertEqual(group_id, volume['group_id'])
        self.assertEqual(group_id, self.volume(volume['id'])['group_id'])
        # Before 3.13 the volume view has no group_id.
        self.assertNotIn('group_id', self.app.get(
            '/v3/volumes/%s' % volume['id'], headers=self.owner
        ).json['volume'])
        response = self.create_volume(volume_type='other', group_id=group_id,
                                      headers=self.user, expect=400)
        self.assertIn('requested type must be supported by this group',
                      self.fault(response, 400))
        response = self.create_volume(group_id=UUID, volume_type='vt',
                                      headers=self.user, expect=404)
        self.assertEqual('Group %s could not be found.' % UUID,
                         self.fault(response, 404))
        self.create_volume(group_id='not-a-uuid', volume_type='vt',
                           headers=self.user, expect=404)

    def test_group_volumes_share_one_pool(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        first = self.create_volume(volume_type='vt', group_id=group_id,
                                   headers=self.user).json['volume']['id']
        second = self.create_volume(volume_type='vt', group_id=group_id,
                                    headers=self.user).json['volume']['id']
        hosts = {self.app.get('/v3/volumes/%s' % v, headers=ADMIN)
                 .json['volume']['os-vol-host-attr:host']
                 for v in (first, second)}
        self.assertEqual(1, len(hosts))
        self.assertNotIn(None, hosts)

    def test_add_and_remove_volumes(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume_id = self.available_volume('vt')
        self.update(group_id, add_volumes=volume_id, name='renamed')
        self.assertEqual(group_id, self.volume(volume_id)['group_id'])
        self.assertEqual('renamed', self.show(group_id)['name'])
        shown = self.app.get(
            '/v3/groups/%s?list_volume=True' % group_id,
            headers=api_fixtures.caller(self.project, version='3.25')
        ).json['group']
        self.assertEqual([volume_id], shown['volumes'])
        # A volume of a group cannot be deleted on its own.
        self.app.delete('/v3/volumes/%s' % volume_id, headers=self.user,
                        status=400)
        self.update(group_id, remove_volumes=volume_id)
        self.assertIsNone(self.volume(volume_id)['group_id'])

    def test_add_refusals(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        other_group = self.group('gold', ['vt']).json['group']['id']
        wrong_type = self.available_volume('other')
        response = self.update(group_id, add_volumes=wrong_type, expect=400)
        self.assertIn('is not supported by the group',
                      self.fault(response, 400))
        creating = self.create_volume(volume_type='vt', headers=self.user
                                      ).json['volume']['id']
        response = self.update(group_id, add_volumes=creating, expect=400)
        self.assertIn('invalid state: creating', self.fault(response, 400))
        response = self.update(group_id, add_volumes=UUID, expect=400)
        self.assertIn('because volume cannot be found',
                      self.fault(response, 400))
        response = self.update(group_id, add_volumes='garbage', expect=400)
        self.assertIn('because volume cannot be found',
                      self.fault(response, 400))
        volume_id = self.available_volume('vt')
        self.update(other_group, add_volumes=volume_id)
        response = self.update(group_id, add_volumes=volume_id, expect=400)
        self.assertIn('is already in group %s' % other_group,
                      self.fault(response, 400))
        response = self.update(group_id, add_volumes=volume_id,
                               remove_volumes=volume_id, expect=400)
        self.assertIn('are in both add and remove',
                      self.fault(response, 400))
        response = self.update(group_id, remove_volumes=wrong_type,
                               expect=400)
        self.assertIn('because it is not in the group',
                      self.fault(response, 400))
        self.update(group_id, expect=400)
        self.update(group_id, add_volumes='x' * 256, expect=400)

    def test_delete_refused_with_volumes(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume_id = self.available_volume('vt')
        self.update(group_id, add_volumes=volume_id)
        response = self.delete(group_id, expect=400)
        self.assertEqual(
            'Invalid group: Group %s still contains volumes. The '
            'delete-volumes flag is required to delete it.' % group_id,
            self.fault(response, 400))
        self.delete(group_id, **{'delete-volumes': True})
        self.assertEqual('deleting', self.volume(volume_id)['status'])
        self.app.get('/v3/groups/%s' % group_id, headers=self.user,
                     status=404)

    def test_delete_with_volumes_refused_for_an_attached_volume(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume_id = self.available_volume('vt')
        self.update(group_id, add_volumes=volume_id)
        attached = {'os-reset_status': {'status': 'in-use',
                                        'attach_status': 'attached'}}
        self.app.post_json('/v3/admin/volumes/%s/action' % volume_id,
                           attached, headers=api_fixtures.ADMIN, status=202)
        response = self.delete(group_id, expect=400,
                               **{'delete-volumes': True})
        self.assertIn('must not have attached volumes',
                      self.fault(response, 400))
        self.assertEqual('in-use', self.volume(volume_id)['status'])
        self.assertEqual('available', self.show(group_id)['status'])

    def test_delete_bad_bodies(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        self.delete(group_id, expect=400, **{'delete-volumes': 'perhaps'})
        for body in ({'delete': None}, {'delete': {'x': 1}}, {'nope': {}},
                     {'delete': {}, 'reset_status': {}}, []):
            with self.subTest(body=body):
                self.fault(self.app.post_json(
                    '/v3/groups/%s/action' % group_id, body,
                    headers=self.user, status=400), 400)
        self.app.post_json('/v3/groups/%s/action' % UUID, {'delete': {}},
                           headers=self.user, status=404)

    def test_reset_status(self):
        group_id = self.group('gold', ['vt']).json['group']['id']
        path = '/v3/groups/%s/action' % group_id
        admin = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.20'})

        def reset(status, headers=admin, expect=202):
            return self.app.post_json(path, {'reset_status': {
                'status': status}}, headers=headers, status=expect)

        self.fault(reset('error', headers=api_fixtures.caller(
            self.project, version='3.20'), expect=403), 403)
        self.assertEqual(
            'API version 3.19 is not supported on this method.',
            self.fault(reset('error', headers=dict(ADMIN, **{
                'OpenStack-API-Version': 'volume 3.19'}), expect=404), 404))
        reset('ERROR')
        self.assertEqual('error', self.show(group_id)['status'])
        # An error group takes no volume; available again, it does.
        volume_id = self.available_volume('vt')
        self.update(group_id, add_volumes=volume_id, expect=400)
        reset('available')
        self.update(group_id, add_volumes=volume_id)
        self.assertIn("Invalid status 'deleted'",
                      self.fault(reset('deleted', expect=400), 400))
        self.fault(reset('', expect=400), 400)
        self.app.post_json('/v3/groups/%s/action' % UUID, {
            'reset_status': {'status': 'error'}}, headers=admin, status=404)
