"""Group snapshots through the API (3.14, 3.19, 3.29): the wire format of
Cinder's views, its refusals (4xx, never a 5xx), the claims a create
makes and a delete releases, and the rules each compare-and-swap
enforces."""
from db import models
import objects
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import test_groups
from volapi.volume.transitions import engine

UUID = test_groups.UUID
ADMIN = dict(api_fixtures.ADMIN, **{'OpenStack-API-Version': 'volume 3.14'})
DETAIL_FIELDS = {'id', 'group_id', 'group_type_id', 'status', 'created_at',
                 'name', 'description'}


class GroupSnapshotsAPITestCase(test_groups.GroupsAPITestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.user = api_fixtures.caller(self.project, version='3.14')
        self.kind = self.group_type('gold')
        self.vt = self.volume_type('vt')

    def group_with_volumes(self, count=2):
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume_ids = [self.available_volume('vt') for _ in range(count)]
        if volume_ids:
            self.update(group_id, add_volumes=','.join(volume_ids))
        return group_id, volume_ids

    def snapshot_group(self, group_id, expect=202, headers=None, **fields):
        return self.app.post_json(
            '/v3/group_snapshots',
            {'group_snapshot': dict(group_id=group_id, **fields)},
            headers=headers or self.user, status=expect)

    def show_snapshot(self, group_snapshot_id, headers=None, expect=200):
        response = self.app.get('/v3/group_snapshots/%s' % group_snapshot_id,
                                headers=headers or self.user, status=expect)
        return response.json['group_snapshot'] if expect == 200 else response

    def delete_snapshot(self, group_snapshot_id, expect=202, headers=None):
        return self.app.delete('/v3/group_snapshots/%s' % group_snapshot_id,
                               headers=headers or self.user, status=expect)

    def snapshots_of(self, group_snapshot_id):
        return [s for s in self.app.get(
            '/v3/snapshots/detail', headers=self.user).json['snapshots']
            if s['group_snapshot_id'] == group_snapshot_id]

    def worker_ends(self, snapshot_id, name, **values):
        """What the snapshot's worker does at the end of its operation
        (the transition and what it links), in one transaction."""
        snapshot = self.objects_snapshot(snapshot_id)
        engine.apply(self.context, name, snapshot, **values)

    def objects_snapshot(self, snapshot_id):
        return objects.Snapshot.get_by_id(self.context, snapshot_id)

    def usage(self):
        quota = self.app.get('/v3/os-quota-sets/%s?usage=True'
                             % self.project, headers=ADMIN).json['quota_set']
        return quota['snapshots']['in_use'], quota['gigabytes']['in_use']


class CreateTest(GroupSnapshotsAPITestCase):

    def test_create_show_list(self):
        group_id, volume_ids = self.group_with_volumes(2)
        made = self.snapshot_group(group_id, name=' gs ', description='d')
        made = made.json['group_snapshot']
        self.assertEqual({'id', 'name', 'group_type_id'}, set(made))
        self.assertEqual(('gs', self.kind['id']),
                         (made['name'], made['group_type_id']))
        shown = self.show_snapshot(made['id'])
        self.assertEqual(DETAIL_FIELDS, set(shown))
        self.assertEqual(('creating', group_id, 'gs', 'd'),
                         (shown['status'], shown['group_id'], shown['name'],
                          shown['description']))
        snapshots = self.snapshots_of(made['id'])
        self.assertEqual(sorted(volume_ids),
                         sorted(s['volume_id'] for s in snapshots))
        self.assertEqual({'creating'}, {s['status'] for s in snapshots})
        self.assertEqual({'gs'}, {s['name'] for s in snapshots})
        for snapshot in snapshots:
            self.assertEqual('creating', rows.worker_status(
                self.context, 'snapshot', snapshot['id']))
        # The claims of two snapshots of 1 GB.
        self.assertEqual((2, 4), self.usage())
        summary = self.app.get('/v3/group_snapshots',
                               headers=self.user).json
        self.assertEqual({'group_snapshots': [{'id': made['id'],
                                               'name': 'gs'}]}, summary)
        detail = self.app.get('/v3/group_snapshots/detail',
                              headers=self.user).json['group_snapshots']
        self.assertEqual([shown], detail)
        # The project id from 3.58, for administrators.
        newer = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.58'})
        self.assertEqual(self.project,
                         self.show_snapshot(made['id'], newer)['project_id'])
        self.assertNotIn('project_id', self.show_snapshot(
            made['id'], api_fixtures.caller(self.project, version='3.58')))
        # Another project sees nothing.
        other = api_fixtures.caller('project-b', version='3.14')
        self.assertEqual([], self.app.get('/v3/group_snapshots',
                                          headers=other)
                         .json['group_snapshots'])
        self.show_snapshot(made['id'], other, expect=404)

    def test_available_when_its_last_snapshot_is(self):
        group_id, _volume_ids = self.group_with_volumes(2)
        made = self.snapshot_group(group_id).json['group_snapshot']
        first, second = [s['id'] for s in self.snapshots_of(made['id'])]
        self.worker_ends(first, 'snapshot_create_done')
        self.assertEqual('creating', self.show_snapshot(made['id'])['status'])
        self.worker_ends(second, 'snapshot_create_done')
        self.assertEqual('available',
                         self.show_snapshot(made['id'])['status'])

    def test_error_when_one_snapshot_failed(self):
        group_id, _volume_ids = self.group_with_volumes(2)
        made = self.snapshot_group(group_id).json['group_snapshot']
        first, second = [s['id'] for s in self.snapshots_of(made['id'])]
        self.worker_ends(first, 'snapshot_create_failed')
        self.assertEqual('creating', self.show_snapshot(made['id'])['status'])
        self.worker_ends(second, 'snapshot_create_done')
        self.assertEqual('error', self.show_snapshot(made['id'])['status'])

    def test_empty_group_available_at_once(self):
        group_id, _ = self.group_with_volumes(0)
        made = self.snapshot_group(group_id).json['group_snapshot']
        self.assertEqual('available',
                         self.show_snapshot(made['id'])['status'])
        self.delete_snapshot(made['id'])
        self.show_snapshot(made['id'], expect=404)
        self.delete(group_id)

    def test_refusals(self):
        group_id, volume_ids = self.group_with_volumes(1)
        before = self.usage()
        response = self.snapshot_group(UUID, expect=404)
        self.assertEqual('Group %s could not be found.' % UUID,
                         self.fault(response, 404))
        for body in ({}, {'group_id': 'not-a-uuid'},
                     {'group_id': group_id, 'name': 'x' * 256},
                     {'group_id': group_id, 'description': 5},
                     {'group_id': group_id, 'bogus': 1}):
            response = self.app.post_json('/v3/group_snapshots',
                                          {'group_snapshot': body},
                                          headers=self.user, status=400)
            self.assertTrue(self.fault(response, 400))
        for body in ({}, [], 'x', {'group_snapshot': None},
                     {'group_snapshot': {'group_id': group_id}, 'x': 1}):
            self.app.post_json('/v3/group_snapshots', body,
                               headers=self.user, status=400)
        # Before 3.14 there are no group snapshots, body or not.
        older = api_fixtures.caller(self.project, version='3.13')
        response = self.snapshot_group(group_id, headers=older, expect=404)
        self.assertIn('3.13 is not supported', self.fault(response, 404))
        self.app.post_json('/v3/group_snapshots', {'x': 1}, headers=older,
                           status=404)
        self.app.get('/v3/group_snapshots', headers=older, status=404)
        # Another project's group is not found.
        other = api_fixtures.caller('project-b', version='3.14')
        self.snapshot_group(group_id, headers=other, expect=404)
        # A volume that is not available nor in-use.
        self.app.post_json('/v3/admin/volumes/%s/action' % volume_ids[0],
                           {'os-reset_status': {'status': 'error'}},
                           headers=api_fixtures.ADMIN, status=202)
        response = self.snapshot_group(group_id, expect=400)
        self.assertIn('Invalid volume', self.fault(response, 400))
        self.assertEqual([], self.app.get('/v3/group_snapshots',
                                          headers=self.user)
                         .json['group_snapshots'])
        self.assertEqual(before, self.usage())

    def test_snapshots_quota(self):
        self.config.set('quota', snapshots=3)
        group_id, _ = self.group_with_volumes(2)
        self.snapshot_group(group_id)
        response = self.snapshot_group(group_id, expect=413)
        self.assertEqual('Maximum number of snapshots allowed (3) exceeded',
                         self.fault(response, 413))
        self.assertEqual((2, 4), self.usage())
        self.assertEqual(1, len(self.app.get(
            '/v3/group_snapshots', headers=self.user)
            .json['group_snapshots']))


class DeleteTest(GroupSnapshotsAPITestCase):

    def made(self, count=2):
        group_id, volume_ids = self.group_with_volumes(count)
        made = self.snapshot_group(group_id).json['group_snapshot']
        snapshot_ids = [s['id'] for s in self.snapshots_of(made['id'])]
        for snapshot_id in snapshot_ids:
            self.worker_ends(snapshot_id, 'snapshot_create_done')
        return group_id, made['id'], snapshot_ids

    def test_delete_releases_when_snapshots_end(self):
        group_id, made, snapshot_ids = self.made()
        self.assertEqual((2, 4), self.usage())
        self.delete_snapshot(made)
        self.assertEqual('deleting', self.show_snapshot(made)['status'])
        self.assertEqual({'deleting'}, {
            s['status'] for s in self.snapshots_of(made)})
        self.worker_ends(snapshot_ids[0], 'snapshot_delete_done')
        self.assertEqual('deleting', self.show_snapshot(made)['status'])
        # Gigabytes: the two volumes' and the snapshots' left.
        self.assertEqual((1, 3), self.usage())
        self.worker_ends(snapshot_ids[1], 'snapshot_delete_done')
        self.show_snapshot(made, expect=404)
        self.assertEqual((0, 2), self.usage())
        # Its group may go now.
        self.delete(group_id, **{'delete-volumes': True})

    def test_failed_snapshot_delete_leaves_error_deleting(self):
        _group_id, made, snapshot_ids = self.made()
        self.delete_snapshot(made)
        self.worker_ends(snapshot_ids[0], 'snapshot_delete_failed')
        self.worker_ends(snapshot_ids[1], 'snapshot_delete_done')
        self.assertEqual('error_deleting',
                         self.show_snapshot(made)['status'])

    def test_refusals(self):
        group_id, made, snapshot_ids = self.made()
        # Its snapshots go with it only (Cinder's rule).
        response = self.app.delete('/v3/snapshots/%s' % snapshot_ids[0],
                                   headers=self.user, status=400)
        self.assertIn('group_snapshot_id', self.fault(response, 400))
        self.app.post_json('/v3/snapshots/%s/action' % snapshot_ids[0],
                           {'os-force_delete': {}},
                           headers=api_fixtures.ADMIN, status=400)
        # Its group stays while it does.
        response = self.delete(group_id, expect=400,
                               **{'delete-volumes': True})
        self.assertEqual('Invalid group: Group has existing snapshots.',
                         self.fault(response, 400))
        response = self.delete_snapshot(UUID, expect=404)
        self.assertEqual('GroupSnapshot %s could not be found.' % UUID,
                         self.fault(response, 404))
        other = api_fixtures.caller('project-b', version='3.14')
        self.delete_snapshot(made, headers=other, expect=404)
        self.delete_snapshot(made, headers=api_fixtures.caller(
            self.project, version='3.13'), expect=404)
        self.delete_snapshot(made)
        response = self.delete_snapshot(made, expect=400)
        self.assertEqual(
            'Invalid GroupSnapshot: GroupSnapshot status must be available '
            'or error, and no Group can be currently using it as source for '
            'its creation.', self.fault(response, 400))


class ResetStatusTest(GroupSnapshotsAPITestCase):

    def action(self, group_snapshot_id, body, headers, expect=202):
        return self.app.post_json(
            '/v3/group_snapshots/%s/action' % group_snapshot_id, body,
            headers=headers, status=expect)

    def test_reset_status(self):
        group_id, _ = self.group_with_volumes(1)
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        admin = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.19'})
        self.action(made, {'reset_status': {'status': 'Error'}}, admin)
        self.assertEqual('error', self.show_snapshot(made)['status'])
        response = self.action(made, {'reset_status': {'status': 'bogus'}},
                               admin, 400)
        self.assertIn('Invalid GroupSnapshot Status: Group snapshot status: '
                      'bogus is invalid', self.fault(response, 400))
        response = self.action(made, {'reset_status': {'status': ' '}},
                               admin, 400)
        self.assertIn("The 'status' can not be empty.",
                      self.fault(response, 400))
        for body in ({'reset_status': {}}, {'reset_status': 'x'},
                     {'reset_status': {'status': 1}},
                     {'reset_status': {'status': 'error', 'x': 1}}):
            self.action(made, body, admin, 400)
        response = self.action(made, {'bogus': {}}, admin, 400)
        self.assertEqual('There is no such action: bogus',
                         self.fault(response, 400))
        # Administrators only; from 3.19.
        self.action(made, {'reset_status': {'status': 'error'}},
                    api_fixtures.caller(self.project, version='3.19'), 403)
        self.action(made, {'reset_status': {'status': 'error'}}, ADMIN, 404)
        self.action(UUID, {'reset_status': {'status': 'error'}}, admin, 404)


class ListTest(GroupSnapshotsAPITestCase):

    def test_filters_sort_pages_from_329(self):
        group_id, _ = self.group_with_volumes(1)
        made = [self.snapshot_group(group_id, name=n)
                .json['group_snapshot']['id'] for n in ('a', 'b', 'c')]
        self.app.post_json('/v3/admin/group_snapshots/%s/action' % made[1],
                           {'reset_status': {'status': 'error'}},
                           headers=dict(ADMIN, **{
                               'OpenStack-API-Version': 'volume 3.19'}),
                           status=202)
        user = api_fixtures.caller(self.project, version='3.29')

        def names(query, headers=user):
            body = self.app.get('/v3/group_snapshots/detail?' + query,
                                headers=headers).json
            return [g['name'] for g in body['group_snapshots']], body

        self.assertEqual(['a', 'b', 'c'], names('sort=name:asc')[0])
        self.assertEqual(['b'], names('status=error')[0])
        self.assertEqual(['c', 'b', 'a'], names(
            'group_id=%s&sort=name:desc' % group_id)[0])
        page, body = names('sort=name:asc&limit=2')
        self.assertEqual(['a', 'b'], page)
        self.assertIn('marker=%s' % made[1],
                      body['group_snapshot_links'][0]['href'])
        self.assertEqual(['c'], names('sort=name:asc&marker=%s' % made[1])[0])
        response = self.app.get('/v3/group_snapshots?bogus=1', headers=user,
                                status=400)
        self.assertIn('Invalid filters bogus', self.fault(response, 400))
        self.app.get('/v3/group_snapshots?sort=bogus', headers=user,
                     status=400)
        self.app.get('/v3/group_snapshots?marker=%s' % UUID, headers=user,
                     status=404)
        self.app.get('/v3/group_snapshots?limit=x', headers=user,
                     status=400)
        # Before 3.29 the parameters are not read (Cinder's list).
        self.assertEqual(3, len(self.app.get(
            '/v3/group_snapshots?status=error&bogus=1',
            headers=self.user).json['group_snapshots']))
        # An administrator sees every project's with all_tenants.
        admin = dict(api_fixtures.ADMIN,
                     **{'OpenStack-API-Version': 'volume 3.29'})
        self.assertEqual(3, len(names('all_tenants=1', admin)[0]))
        self.assertEqual(0, len(names('', admin)[0]))

    def test_snapshot_view_names_its_group_snapshot(self):
        group_id, volume_ids = self.group_with_volumes(1)
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        snapshot, = self.snapshots_of(made)
        self.assertEqual(made, rows.row(self.context, models.Snapshot,
                                        snapshot['id'])['group_snapshot_id'])
        self.assertEqual(volume_ids, [snapshot['volume_id']])


class FromSourceTest(GroupSnapshotsAPITestCase):

    def from_src(self, expect=202, headers=None, **spec):
        return self.app.post_json('/v3/groups/action',
                                  {'create-from-src': spec},
                                  headers=headers or self.user,
                                  status=expect)

    def volumes_of(self, group_id):
        return [v for v in self.app.get(
            '/v3/volumes/detail', headers=self.user).json['volumes']
            if v['group_id'] == group_id]

    def available_group_snapshot(self, count=2):
        group_id, volume_ids = self.group_with_volumes(count)
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        snapshot_ids = [s['id'] for s in self.snapshots_of(made)]
        for snapshot_id in snapshot_ids:
            self.worker_ends(snapshot_id, 'snapshot_create_done')
        return group_id, made, snapshot_ids

    def test_from_group_snapshot(self):
        group_id, made, snapshot_ids = self.available_group_snapshot()
        new = self.from_src(group_snapshot_id=made, name=' copy ',
                            description='d').json['group']
        self.assertEqual({'id', 'name'}, set(new))
        self.assertEqual('copy', new['name'])
        shown = self.show(new['id'])
        self.assertEqual((made, None, 'available', self.kind['id'],
                          [self.vt['id']]),
                         (shown['group_snapshot_id'],
                          shown['source_group_id'], shown['status'],
                          shown['group_type'], shown['volume_types']))
        volumes = self.volumes_of(new['id'])
        self.assertEqual(sorted(snapshot_ids),
                         sorted(v['snapshot_id'] for v in volumes))
        self.assertEqual({'creating'}, {v['status'] for v in volumes})
        quota = self.app.get('/v3/os-quota-sets/%s?usage=True'
                             % self.project, headers=ADMIN).json['quota_set']
        self.assertEqual((4, 2, 2), (quota['volumes']['in_use'],
                                     quota['groups']['in_use'],
                                     quota['snapshots']['in_use']))
        # Its source stays while a volume is being made from it.
        response = self.delete_snapshot(made, expect=400)
        self.assertIn('no Group can be currently using it as source',
                      self.fault(response, 400))

    def test_from_source_group(self):
        group_id, volume_ids = self.group_with_volumes(2)
        new = self.from_src(source_group_id=group_id).json['group']
        shown = self.show(new['id'])
        self.assertEqual((None, group_id), (shown['group_snapshot_id'],
                                            shown['source_group_id']))
        self.assertEqual(sorted(volume_ids), sorted(
            v['source_volid'] for v in self.volumes_of(new['id'])))

    def test_refusals(self):
        group_id, made, _snapshot_ids = self.available_group_snapshot(1)
        empty_group, _ = self.group_with_volumes(0)
        before = self.app.get('/v3/groups', headers=self.user).json
        for spec in ({}, {'group_snapshot_id': made,
                          'source_group_id': group_id},
                     {'group_snapshot_id': 'nope'},
                     {'source_group_id': group_id, 'name': 'x' * 256},
                     {'source_group_id': group_id, 'bogus': 1}):
            self.from_src(expect=400, **spec)
        for body in ({}, {'create-from-src': None}, [], {'bogus': {}}):
            self.app.post_json('/v3/groups/action', body, headers=self.user,
                               status=400)
        # Only POST is routed to the action (Cinder's router).
        response = self.app.get('/v3/groups/action', headers=self.user,
                                status=404)
        self.assertEqual('Group action could not be found.',
                         self.fault(response, 404))
        response = self.from_src(expect=404, group_snapshot_id=UUID)
        self.assertEqual('GroupSnapshot %s could not be found.' % UUID,
                         self.fault(response, 404))
        response = self.from_src(expect=404, source_group_id=UUID)
        self.assertEqual('Group %s could not be found.' % UUID,
                         self.fault(response, 404))
        response = self.from_src(expect=400, source_group_id=empty_group)
        self.assertEqual('Invalid group: Source Group is empty. No group '
                         'will be created.', self.fault(response, 400))
        other = api_fixtures.caller('project-b', version='3.14')
        self.from_src(expect=404, headers=other, group_snapshot_id=made)
        self.from_src(expect=404, headers=api_fixtures.caller(
            self.project, version='3.13'), group_snapshot_id=made)
        # A snapshot that is not available is no source.
        self.app.post_json('/v3/snapshots/%s/action' % _snapshot_ids[0],
                           {'os-reset_status': {'status': 'error'}},
                           headers=api_fixtures.ADMIN, status=202)
        response = self.from_src(expect=400, group_snapshot_id=made)
        self.assertIn('Invalid snapshot', self.fault(response, 400))
        self.assertEqual(before, self.app.get('/v3/groups',
                                              headers=self.user).json)


class SnapshotResetTest(GroupSnapshotsAPITestCase):

    def test_reset_of_its_last_snapshot_in_flight_ends_it(self):
        group_id, _ = self.group_with_volumes(2)
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        first, second = [s['id'] for s in self.snapshots_of(made)]
        self.worker_ends(first, 'snapshot_create_done')
        self.app.post_json('/v3/snapshots/%s/action' % second,
                           {'os-reset_status': {'status': 'available'}},
                           headers=api_fixtures.ADMIN, status=202)
        self.assertEqual('available', self.show_snapshot(made)['status'])


class CascadeTest(GroupSnapshotsAPITestCase):

    def test_volume_cascade_delete_leaves_its_group_snapshot_whole(self):
        group_id, volume_ids = self.group_with_volumes(1)
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        snapshot, = self.snapshots_of(made)
        self.worker_ends(snapshot['id'], 'snapshot_create_done')
        self.update(group_id, remove_volumes=volume_ids[0])
        response = self.app.delete('/v3/volumes/%s?cascade=true'
                                   % volume_ids[0], headers=self.user,
                                   status=400)
        self.assertIn('group_snapshot_id', self.fault(response, 400))
        self.assertEqual(['available'], [
            s['status'] for s in self.snapshots_of(made)])
