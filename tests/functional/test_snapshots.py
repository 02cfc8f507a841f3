"""Snapshots through the API: Cinder's views, create/delete as transitions
(with their precise refusals), rename, lists, bad input as 4xx faults,
tenant isolation; and the whole life of a snapshot with a real worker."""
import uuid

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf

ADMIN = api_fixtures.ADMIN
SUMMARY_FIELDS = {'id', 'created_at', 'updated_at', 'name', 'description',
                  'volume_id', 'status', 'size', 'metadata'}
EXTENDED_FIELDS = {'os-extended-snapshot-attributes:progress',
                   'os-extended-snapshot-attributes:project_id'}


class SnapshotTestCase(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project)

    def create(self, status=202, headers=None, **spec):
        spec.setdefault('volume_id', self.volume.id)
        return self.app.post_json('/v3/snapshots', {'snapshot': spec},
                                  headers=headers or self.owner,
                                  status=status)

    def snapshot_row(self, snapshot_id):
        return rows.row(self.context, models.Snapshot, snapshot_id)


class CreateTest(SnapshotTestCase):

    def test_create(self):
        snapshot = self.create(name='s1', description='d',
                               metadata={'k': 'v'}).json['snapshot']
        self.assertEqual(SUMMARY_FIELDS | EXTENDED_FIELDS, set(snapshot))
        self.assertEqual(('creating', 's1', 'd', {'k': 'v'}, 1),
                         (snapshot['status'], snapshot['name'],
                          snapshot['description'], snapshot['metadata'],
                          snapshot['size']))
        self.assertEqual('0%', snapshot[
            'os-extended-snapshot-attributes:progress'])
        self.assertEqual(self.project, snapshot[
            'os-extended-snapshot-attributes:project_id'])
        self.assertEqual('creating', rows.worker_status(
            self.context, 'snapshot', snapshot['id']))

    def test_fields_by_microversion(self):
        newer = self.create(headers=api_fixtures.caller(
            self.project, version='3.41')).json['snapshot']
        self.assertIsNone(newer['group_snapshot_id'])
        self.assertEqual('user-a', newer['user_id'])

    def test_in_use_volume_needs_force(self):
        volume = rows.volume(self.context, project_id=self.project,
                             status='in-use', attach_status='attached')
        response = self.create(volume_id=volume.id, status=400)
        self.assertEqual("Invalid volume: volume status must be "
                         "'available', it is 'in-use'",
                         self.fault(response, 400))
        self.assertEqual(0, rows.count(self.context, models.Snapshot))
        self.create(volume_id=volume.id, force='True')
        self.assertEqual(1, rows.count(self.context, models.Snapshot))

    def test_in_use_volume_without_force_from_366(self):
        def in_use():
            return rows.volume(self.context, project_id=self.project,
                               status='in-use', attach_status='attached')

        at_365 = api_fixtures.caller(self.project, version='3.65')
        at_366 = api_fixtures.caller(self.project, version='3.66')
        self.create(volume_id=in_use().id, headers=at_365, status=400)
        self.create(volume_id=in_use().id, headers=at_365, force=False,
                    status=400)
        self.assertEqual(0, rows.count(self.context, models.Snapshot))
        self.create(volume_id=in_use().id, headers=at_366)
        # A true force is ignored from 3.66; a false one is refused.
        self.create(volume_id=in_use().id, headers=at_366, force='true')
        self.assertEqual(2, rows.count(self.context, models.Snapshot))
        for force in (False, 'false', '0'):
            response = self.create(volume_id=self.volume.id, headers=at_366,
                                   force=force, status=400)
            self.assertEqual(
                "Since microversion 3.66 the 'force' flag is invalid for "
                "this request.  For backward compatability, however, when "
                "the 'force' flag is passed with a value evaluating to "
                "True, it is silently ignored.", self.fault(response, 400))
        self.assertEqual(2, rows.count(self.context, models.Snapshot))
        # Other statuses stay refused.
        error = rows.volume(self.context, project_id=self.project,
                            status='error')
        self.assertEqual(
            "Invalid volume: volume status must be one of 'available', "
            "'in-use', it is 'error'", self.fault(self.create(
                volume_id=error.id, headers=at_366, status=400), 400))

    def test_consumes_quota_from_365(self):
        snapshot_id = self.create().json['snapshot']['id']
        for version, shown in (('3.64', False), ('3.65', True)):
            headers = api_fixtures.caller(self.project, version=version)
            for body in (
                    self.create(headers=headers).json['snapshot'],
                    self.app.get('/v3/snapshots/%s' % snapshot_id,
                                 headers=headers).json['snapshot'],
                    self.app.get('/v3/snapshots/detail',
                                 headers=headers).json['snapshots'][0]):
                if shown:
                    self.assertIs(True, body['consumes_quota'])
                else:
                    self.assertNotIn('consumes_quota', body)
            # Cinder's summary list has no such field.
            self.assertNotIn('consumes_quota', self.app.get(
                '/v3/snapshots', headers=headers).json['snapshots'][0])

    def test_consumes_quota_filter(self):
        snapshot_id = self.create().json['snapshot']['id']

        def listed(query, version='3.65', headers=None, status=200):
            response = self.app.get(
                '/v3/snapshots?with_count=true&' + query,
                headers=headers or api_fixtures.caller(
                    self.project, version=version), status=status)
            if status != 200:
                return self.fault(response, status)
            body = response.json
            if tuple(map(int, version.split('.'))) >= (3, 45):
                self.assertEqual(len(body['snapshots']), body['count'])
            return [s['id'] for s in body['snapshots']]

        for version in ('3.31', '3.65'):
            self.assertEqual([snapshot_id],
                             listed('consumes_quota=true', version))
            self.assertEqual([], listed('consumes_quota=false', version))
        self.assertEqual("Value 'x' for 'use_quota' is not a boolean.",
                         listed('consumes_quota=x', status=400))
        admin = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.65'})
        self.assertEqual([], listed('all_tenants=1&use_quota=0',
                                    headers=admin))
        self.assertEqual([snapshot_id], listed('all_tenants=1&use_quota=1',
                                               headers=admin))
        # Before 3.31 volapi's snapshot lists ignore filters they lack.
        self.assertEqual([snapshot_id], listed('consumes_quota=false',
                                               '3.30'))

    def test_refused_while_migrating_or_unscheduled(self):
        migrating = rows.volume(self.context, project_id=self.project,
                                migration_status='migrating')
        self.assertIn("migration_status must be one of", self.fault(
            self.create(volume_id=migrating.id, status=400), 400))
        unscheduled = rows.volume(self.context, project_id=self.project,
                                  host=None)
        self.assertEqual("Invalid volume: volume host must be set, it is "
                         "unset", self.fault(
                             self.create(volume_id=unscheduled.id,
                                         status=400), 400))

    def test_bad_input(self):
        cases = [({'snapshot': {}}, "'volume_id' is a required property"),
                 ({'snapshot': {'volume_id': 'x'}}, 'volume_id'),
                 ({'snapshot': {'volume_id': self.volume.id,
                                'force': 'maybe'}}, 'force'),
                 ({'snapshot': {'volume_id': self.volume.id,
                                'bogus': 1}}, 'Additional properties'),
                 ({'snapshot': {'volume_id': self.volume.id,
                                'name': 'x' * 256}}, 'name'),
                 ({'snapshot': {'volume_id': self.volume.id,
                                'metadata': {'k': 1}}},
                  "1 is not of type 'string'"),
                 ({}, "'snapshot' is a required property"),
                 ([], "is not of type 'object'")]
        for body, expected in cases:
            with self.subTest(body=body):
                response = self.app.post_json('/v3/snapshots', body,
                                              headers=self.owner, status=400)
                self.assertIn(expected, self.fault(response, 400))
        self.assertEqual(0, rows.count(self.context, models.Snapshot))

    def test_volume_of_another_project_or_none(self):
        for volume_id in (rows.volume(self.context,
                                      project_id='project-b').id,
                          str(uuid.uuid4())):
            response = self.create(volume_id=volume_id, status=404)
            self.assertEqual('Volume %s could not be found.' % volume_id,
                             self.fault(response, 404))


class ReadUpdateDeleteTest(SnapshotTestCase):

    def setUp(self):
        super().setUp()
        self.snapshot = rows.snapshot(self.context, self.volume,
                                      display_name='one')
        self.other = rows.snapshot(self.context, self.volume,
                                   status='error', display_name='two')
        foreign = rows.volume(self.context, project_id='project-b')
        self.foreign = rows.snapshot(self.context, foreign)

    def test_lists(self):
        listed = self.app.get('/v3/snapshots',
                              headers=self.owner).json['snapshots']
        self.assertEqual({self.snapshot.id, self.other.id},
                         {s['id'] for s in listed})
        self.assertEqual(SUMMARY_FIELDS, set(listed[0]))
        detailed = self.app.get('/v3/snapshots/detail',
                                headers=self.owner).json['snapshots']
        self.assertEqual(SUMMARY_FIELDS | EXTENDED_FIELDS, set(detailed[0]))
        everyone = self.app.get('/v3/snapshots?all_tenants=1',
                                headers=ADMIN).json['snapshots']
        self.assertEqual(3, len(everyone))

    def test_filters_paging_and_count(self):
        def ids(query, headers=None):
            return [s['id'] for s in self.app.get(
                '/v3/snapshots' + query,
                headers=headers or self.owner).json['snapshots']]
        self.assertEqual([self.other.id], ids('?status=error'))
        self.assertEqual([self.snapshot.id], ids('?name=one'))
        self.assertEqual([self.snapshot.id, self.other.id],
                         ids('?sort=name:asc'))
        first = ids('?sort=name:asc&limit=1')
        self.assertEqual([self.other.id],
                         ids('?sort=name:asc&limit=1&marker=%s' % first[0]))
        body = self.app.get('/v3/snapshots?limit=1&with_count=true',
                            headers=api_fixtures.caller(
                                self.project, version='3.45')).json
        self.assertEqual(2, body['count'])
        self.assertIn('snapshots_links', body)
        for query in ('?sort=bogus', '?limit=-1', '?sort_dir=up'):
            with self.subTest(query=query):
                self.fault(self.app.get('/v3/snapshots' + query,
                                        headers=self.owner, status=400),
                           400)

    def test_show_and_tenant_isolation(self):
        shown = self.app.get('/v3/snapshots/%s' % self.snapshot.id,
                             headers=self.owner).json['snapshot']
        self.assertEqual('one', shown['name'])
        for method in ('get', 'delete'):
            response = getattr(self.app, method)(
                '/v3/snapshots/%s' % self.foreign.id, headers=self.owner,
                status=404)
            self.assertEqual('Snapshot %s could not be found.'
                             % self.foreign.id, self.fault(response, 404))

    def test_rename(self):
        renamed = self.app.put_json(
            '/v3/snapshots/%s' % self.snapshot.id,
            {'snapshot': {'name': 'new', 'description': 'desc'}},
            headers=self.owner).json['snapshot']
        self.assertEqual(('new', 'desc'),
                         (renamed['name'], renamed['description']))
        self.assertEqual('new', self.snapshot_row(
            self.snapshot.id)['display_name'])
        for body in ({'snapshot': {}}, {'snapshot': {'status': 'x'}}, {}):
            with self.subTest(body=body):
                self.fault(self.app.put_json(
                    '/v3/snapshots/%s' % self.snapshot.id, body,
                    headers=self.owner, status=400), 400)
        self.fault(self.app.put_json(
            '/v3/snapshots/%s' % self.foreign.id, {'snapshot': {'name': 'x'}},
            headers=self.owner, status=404), 404)

    def test_delete(self):
        self.app.delete('/v3/snapshots/%s' % self.snapshot.id,
                        headers=self.owner, status=202)
        self.assertEqual('deleting',
                         self.snapshot_row(self.snapshot.id)['status'])
        self.assertEqual('deleting', rows.worker_status(
            self.context, 'snapshot', self.snapshot.id))
        response = self.app.delete('/v3/snapshots/%s' % self.snapshot.id,
                                   headers=self.owner, status=400)
        self.assertEqual("Invalid snapshot: snapshot status must be one of "
                         "'available', 'error', it is 'deleting'",
                         self.fault(response, 400))


class SnapshotLifeTest(api_fixtures.APITestCase):
    """With a volume worker: the snapshot is made and removed for real."""

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))

    def get(self, path):
        return self.app.get(path, headers=self.owner, expect_errors=True)

    def test_life(self):
        volume_id = self.create_volume(size=1).json['volume']['id']
        vwf.wait_for(lambda: self.get('/v3/volumes/%s' % volume_id)
                     .json['volume']['status'], lambda s: s == 'available')
        snapshot_id = self.app.post_json(
            '/v3/snapshots', {'snapshot': {'volume_id': volume_id}},
            headers=self.owner, status=202).json['snapshot']['id']
        path = '/v3/snapshots/%s' % snapshot_id
        shown = vwf.wait_for(lambda: self.get(path).json['snapshot'],
                             lambda s: s['status'] == 'available')
        self.assertEqual('100%', shown[
            'os-extended-snapshot-attributes:progress'])
        self.app.delete(path, headers=self.owner, status=202)
        vwf.wait_for(lambda: self.get(path).status_int,
                     lambda status: status == 404)
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             snapshot_id))
        self.app.delete('/v3/volumes/%s' % volume_id, headers=self.owner,
                        status=202)
        vwf.wait_for(lambda: self.get('/v3/volumes/%s' % volume_id)
                     .status_int, lambda status: status == 404)


class AdminActionsTest(SnapshotTestCase):
    """POST /snapshots/{id}/action: os-reset_status and os-force_delete,
    admin only, each one compare-and-swap."""

    def setUp(self):
        super().setUp()
        self.snapshot = rows.snapshot(self.context, self.volume,
                                      status='creating')
        self.path = '/v3/snapshots/%s/action' % self.snapshot.id

    def act(self, body, headers=ADMIN, status=202):
        return self.app.post_json(self.path, body, headers=headers,
                                  status=status)

    def test_reset_status(self):
        # A snapshot stuck 'creating' (its worker gone) is set right, in
        # any case, and its workers row goes with it.
        rows.insert(self.context, models.Worker, resource_type='Snapshot',
                    resource_id=self.snapshot.id, status='creating')
        response = self.act({'os-reset_status': {'status': 'ERROR'}})
        self.assertEqual(b'', response.body)
        self.assertEqual('error', self.snapshot_row(self.snapshot.id)[
            'status'])
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             self.snapshot.id))

    def test_force_delete_from_any_status_but_deleting(self):
        self.act({'os-force_delete': {}})
        self.assertEqual('deleting', self.snapshot_row(self.snapshot.id)[
            'status'])
        self.assertEqual('deleting', rows.worker_status(
            self.context, 'snapshot', self.snapshot.id))
        self.assertEqual(
            "Invalid snapshot: snapshot status must not be 'deleting', it "
            "is 'deleting'",
            self.fault(self.act({'os-force_delete': {}}, status=400), 400))

    def test_admin_only(self):
        for body in ({'os-reset_status': {'status': 'available'}},
                     {'os-force_delete': {}}):
            self.fault(self.act(body, headers=self.owner, status=403), 403)
        self.assertEqual('creating', self.snapshot_row(self.snapshot.id)[
            'status'])

    def test_bad_input(self):
        for body, message in (
                ({'os-reset_status': {'status': 'deleted'}},
                 "Invalid status 'deleted'"),
                ({'os-reset_status': {}}, "'status' is a required"),
                ({'os-reset_status': {'status': 1}}, 'is not of type'),
                ({'os-reset_status': {'status': 'error', 'x': 1}},
                 'Additional properties'),
                ({'os-force_delete': {'x': 1}}, 'Additional properties'),
                ({'os-unknown': {}}, 'There is no such action: os-unknown'),
                ({'os-force_delete': {}, 'os-reset_status': {}},
                 'exactly one key')):
            self.assertIn(message, self.fault(self.act(body, status=400),
                                              400))
        self.assertEqual('creating', self.snapshot_row(self.snapshot.id)[
            'status'])
        self.fault(self.app.get(self.path, headers=ADMIN, status=405), 405)

    def test_unknown_snapshot(self):
        self.fault(self.app.post_json(
            '/v3/snapshots/%s/action' % uuid.uuid4(),
            {'os-force_delete': {}}, headers=ADMIN, status=404), 404)


class UpdateSnapshotStatusTest(SnapshotTestCase):
    """os-update_snapshot_status: the service making or deleting the data
    (a compute's assisted snapshot, the owner's credentials) reports status
    and progress within Cinder's status map."""

    def setUp(self):
        super().setUp()
        self.snapshot = rows.snapshot(self.context, self.volume,
                                      status='creating')
        self.path = '/v3/snapshots/%s/action' % self.snapshot.id

    def update(self, argument, expect=202, headers=None):
        return self.app.post_json(
            self.path, {'os-update_snapshot_status': argument},
            headers=headers or self.owner, status=expect)

    def test_progress_then_available(self):
        rows.insert(self.context, models.Worker, resource_type='Snapshot',
                    resource_id=self.snapshot.id, status='creating')
        self.update({'status': 'creating', 'progress': '40%'})
        row = self.snapshot_row(self.snapshot.id)
        self.assertEqual(('creating', '40%'), (row['status'],
                                               row['progress']))
        self.assertEqual('creating', rows.worker_status(
            self.context, 'snapshot', self.snapshot.id))
        self.update({'status': 'available', 'progress': '100%'})
        row = self.snapshot_row(self.snapshot.id)
        self.assertEqual(('available', '100%'), (row['status'],
                                                 row['progress']))
        # The operation it recorded is over.
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             self.snapshot.id))
        self.assertEqual(
            'Snapshot status available not allowed for '
            'update_snapshot_status',
            self.fault(self.update({'status': 'error'}, 400), 400))

    def test_refusals(self):
        self.assertEqual(
            'Provided snapshot status error_deleting not allowed for '
            'snapshot with status creating.',
            self.fault(self.update({'status': 'error_deleting'}, 400), 400))
        for argument in ({}, {'status': 'error', 'progress': '101%'},
                         {'status': 'error', 'progress': 'half'},
                         {'status': 'error', 'x': 1}):
            with self.subTest(argument=argument):
                self.fault(self.update(argument, 400), 400)
        self.fault(self.update({'status': 'error'}, 404,
                               api_fixtures.caller('project-b')), 404)
        self.assertEqual('creating', self.snapshot_row(self.snapshot.id)[
            'status'])

    def test_deleting_to_error_deleting(self):
        deleting = rows.snapshot(self.context, self.volume,
                                 status='deleting')
        self.path = '/v3/snapshots/%s/action' % deleting.id
        self.update({'status': 'error_deleting'})
        self.assertEqual('error_deleting',
                         self.snapshot_row(deleting.id)['status'])
