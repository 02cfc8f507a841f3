"""Backups through the API: Cinder's views and messages, create/delete as
transitions with their quota claims, lists, microversion gates, bad input
as 4xx faults, tenant isolation. Casts go nowhere here (the worker's side:
test_backups_worker.py)."""
import uuid

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import backup_fixtures

ADMIN = api_fixtures.ADMIN
DETAIL_FIELDS = {'id', 'status', 'size', 'object_count',
                 'availability_zone', 'container', 'created_at',
                 'updated_at', 'name', 'description', 'fail_reason',
                 'volume_id', 'links', 'is_incremental',
                 'has_dependent_backups', 'snapshot_id', 'data_timestamp'}


class CreateTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project,
                                  size=2)

    def test_create(self):
        body = self.create(volume_id=self.volume.id, name=' b1 ',
                           description='d', container='c').json['backup']
        self.assertEqual({'id', 'name', 'links'}, set(body))
        self.assertEqual('b1', body['name'])
        backup = self.backup_row(body['id'])
        self.assertEqual(('creating', 2, 'c', 'd', self.volume.host),
                         (backup['status'], backup['size'],
                          backup['container'], backup['display_description'],
                          backup['host']))
        volume = self.volume_row(self.volume.id)
        self.assertEqual(('backing-up', 'available'),
                         (volume['status'], volume['previous_status']))
        self.assertEqual('creating', rows.worker_status(
            self.context, 'backup', body['id']))
        self.assertEqual((1, 2), self.usage())

    def test_show(self):
        backup_id = self.backup_id(self.volume.id, name='b')
        shown = self.show(backup_id)
        self.assertEqual(DETAIL_FIELDS, set(shown))
        self.assertEqual(('creating', 2, 'b', self.volume.id, False, False,
                          None, 'nova'),
                         (shown['status'], shown['size'], shown['name'],
                          shown['volume_id'], shown['is_incremental'],
                          shown['has_dependent_backups'],
                          shown['snapshot_id'], shown['availability_zone']))
        self.assertTrue(shown['links'][0]['href'].endswith(
            '/v3/%s/backups/%s' % (self.project, backup_id)))

    def test_in_use_volume_needs_force(self):
        volume = rows.volume(self.context, project_id=self.project,
                             status='in-use', attach_status='attached')
        response = self.create(volume_id=volume.id, status=400)
        self.assertEqual("Invalid volume: volume status must be "
                         "'available', it is 'in-use'",
                         self.fault(response, 400))
        self.create(volume_id=volume.id, force=False, status=400)
        self.assertEqual(0, rows.count(self.context, models.Backup))
        self.create(volume_id=volume.id, force='true')
        row = self.volume_row(volume.id)
        self.assertEqual(('backing-up', 'in-use'),
                         (row['status'], row['previous_status']))

    def test_volume_busy_or_missing(self):
        busy = rows.volume(self.context, project_id=self.project,
                           status='extending')
        self.assertEqual("Invalid volume: volume status must be "
                         "'available', it is 'extending'", self.fault(
                             self.create(volume_id=busy.id, status=400),
                             400))
        missing = str(uuid.uuid4())
        self.assertEqual('Volume %s could not be found.' % missing,
                         self.fault(self.create(volume_id=missing,
                                                status=404), 404))
        other = rows.volume(self.context, project_id='project-b')
        self.fault(self.create(volume_id=other.id, status=404), 404)
        self.assertEqual(0, rows.count(self.context, models.Backup))

    def test_second_backup_of_one_volume_refused(self):
        self.backup_id(self.volume.id)
        self.assertEqual("Invalid volume: volume status must be "
                         "'available', it is 'backing-up'", self.fault(
                             self.create(volume_id=self.volume.id,
                                         status=400), 400))
        self.assertEqual((1, 2), self.usage())

    def test_from_snapshot(self):
        snapshot = rows.snapshot(self.context, self.volume)
        other = rows.volume(self.context, project_id=self.project)
        backup_id = self.backup_id(self.volume.id, snapshot_id=snapshot.id)
        self.assertEqual('backing-up', rows.row(
            self.context, models.Snapshot, snapshot.id)['status'])
        self.assertEqual('available', self.volume_row(self.volume.id)[
            'status'])
        self.assertEqual(snapshot.id, self.show(backup_id)['snapshot_id'])
        self.assertEqual(
            'Invalid volume: Volume %s does not match with '
            'snapshot.volume_id %s.' % (other.id, self.volume.id),
            self.fault(self.create(volume_id=other.id,
                                   snapshot_id=snapshot.id, status=400),
                       400))

    def test_metadata_from_343(self):
        old = api_fixtures.caller(self.project, version='3.42')
        self.fault(self.create(volume_id=self.volume.id, metadata={'k': 'v'},
                               headers=old, status=400), 400)
        new = api_fixtures.caller(self.project, version='3.43')
        backup_id = self.create(volume_id=self.volume.id,
                                metadata={'k': 'v'}, headers=new
                                ).json['backup']['id']
        self.assertEqual({'k': 'v'}, self.show(backup_id, new)['metadata'])
        self.assertNotIn('metadata', self.show(backup_id, old))

    def test_availability_zone_from_351(self):
        old = api_fixtures.caller(self.project, version='3.50')
        self.fault(self.create(volume_id=self.volume.id,
                               availability_zone='nova', headers=old,
                               status=400), 400)
        new = api_fixtures.caller(self.project, version='3.51')
        self.assertEqual(
            "Invalid input received: Availability zone 'elsewhere' is "
            "invalid.", self.fault(self.create(
                volume_id=self.volume.id, availability_zone='elsewhere',
                headers=new, status=400), 400))
        self.create(volume_id=self.volume.id, availability_zone='nova',
                    headers=new)

    def test_bad_bodies(self):
        for body in ({}, {'backup': {}}, {'backup': {'volume_id': 'x'}},
                     {'backup': {'volume_id': self.volume.id,
                                 'force': 'maybe'}},
                     {'backup': {'volume_id': self.volume.id,
                                 'incremental': 3}},
                     {'backup': {'volume_id': self.volume.id,
                                 'name': 'n' * 256}},
                     {'backup': {'volume_id': self.volume.id, 'x': 1}},
                     {'backup': None}):
            response = self.app.post_json('/v3/backups', body,
                                          headers=self.owner, status=400)
            self.fault(response, 400)
        self.assertEqual(0, rows.count(self.context, models.Backup))
        self.assertEqual('available', self.volume_row(self.volume.id)[
            'status'])

    def test_incremental_needs_a_parent(self):
        # (Chains themselves: test_backup_chains.py.)
        self.assertEqual(
            'Invalid backup: No backups available to do an incremental '
            'backup.', self.fault(self.create(
                volume_id=self.volume.id, incremental=True, status=400),
                400))
        backup_id = self.backup_id(self.volume.id, incremental=False)
        self.assertFalse(self.show(backup_id)['is_incremental'])


class QuotaTest(backup_fixtures.BackupTestCase):

    def set_limits(self, **limits):
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': limits}, headers=ADMIN)

    def test_backups_limit(self):
        first = rows.volume(self.context, project_id=self.project)
        second = rows.volume(self.context, project_id=self.project)
        self.set_limits(backups=1)
        self.backup_id(first.id)
        self.assertEqual('Maximum number of backups allowed (1) exceeded',
                         self.fault(self.create(volume_id=second.id,
                                                status=413), 413))
        # Nothing of the refused create remains.
        self.assertEqual('available', self.volume_row(second.id)['status'])
        self.assertEqual((1, 1), self.usage())

    def test_backup_gigabytes_limit(self):
        first = rows.volume(self.context, project_id=self.project, size=2)
        big = rows.volume(self.context, project_id=self.project, size=2)
        self.set_limits(backup_gigabytes=3)
        self.backup_id(first.id)
        self.assertEqual(
            'Requested backup exceeds allowed Backup gigabytes quota. '
            'Requested 2G, quota is 3G and 2G has been consumed.',
            self.fault(self.create(volume_id=big.id, status=413), 413))

    def test_quota_sets_and_limits_show_backups(self):
        self.backup_id(rows.volume(self.context, project_id=self.project,
                                   size=3).id)
        shown = self.app.get('/v3/os-quota-sets/%s?usage=True'
                             % self.project, headers=ADMIN).json['quota_set']
        self.assertEqual({'limit': 10, 'in_use': 1, 'reserved': 0,
                          'allocated': 0}, shown['backups'])
        self.assertEqual(3, shown['backup_gigabytes']['in_use'])
        self.set_limits(backups=5, backup_gigabytes=50)
        absolute = self.app.get('/v3/limits', headers=self.owner).json[
            'limits']['absolute']
        self.assertEqual((5, 50, 1, 3), (
            absolute['maxTotalBackups'], absolute['maxTotalBackupGigabytes'],
            absolute['totalBackupsUsed'],
            absolute['totalBackupGigabytesUsed']))

    def test_limit_below_usage_refused(self):
        for volume in [rows.volume(self.context, project_id=self.project)
                       for _ in range(2)]:
            self.backup_id(volume.id)
        response = self.app.put_json(
            '/v3/os-quota-sets/%s' % self.project,
            {'quota_set': {'backups': 1}}, headers=ADMIN, status=400)
        self.assertIn('backups', self.fault(response, 400))


class DeleteTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project)
        self.backup = self.backup_id(self.volume.id)

    def delete(self, status=202, headers=None):
        return self.app.delete('/v3/backups/%s' % self.backup,
                               headers=headers or self.owner, status=status)

    def test_delete_needs_available_or_error(self):
        self.assertEqual("Invalid backup: backup status must be one of "
                         "'available', 'error', it is 'creating'",
                         self.fault(self.delete(status=400), 400))
        for status in ('available', 'error'):
            self.reset(self.backup, status)
            self.delete()
            self.assertEqual('deleting', self.backup_row(self.backup)[
                'status'])
            self.assertEqual('deleting', rows.worker_status(
                self.context, 'backup', self.backup))
            self.reset(self.backup, 'error')

    def test_force_delete(self):
        self.assertEqual(
            "Invalid backup: backup status must not be any of 'creating', "
            "'restoring', 'deleting', it is 'creating'", self.fault(
                self.action(self.backup, {'os-force_delete': {}},
                            status=400), 400))
        self.action(self.backup, {'os-force_delete': {}},
                    headers=self.owner, status=403)
        self.reset(self.backup, 'error')
        self.action(self.backup, {'os-force_delete': {}})
        self.assertEqual('deleting', self.backup_row(self.backup)['status'])

    def test_other_projects_see_nothing(self):
        other = api_fixtures.caller('project-b')
        self.fault(self.show(self.backup, other, status=404), 404)
        self.fault(self.delete(status=404, headers=other), 404)
        self.assertEqual([], self.app.get('/v3/backups', headers=other)
                         .json['backups'])
        self.assertEqual('creating', self.show(self.backup, ADMIN)['status'])

    def test_missing(self):
        missing = str(uuid.uuid4())
        self.assertEqual('Backup %s could not be found.' % missing,
                         self.fault(self.show(missing, status=404), 404))


class ResetStatusTest(backup_fixtures.BackupTestCase):

    def test_reset_status(self):
        volume = rows.volume(self.context, project_id=self.project)
        backup_id = self.backup_id(volume.id)
        self.reset(backup_id, 'ERROR')
        self.assertEqual('error', self.backup_row(backup_id)['status'])
        # Nothing in flight any more: the workers row is gone.
        self.assertIsNone(rows.worker_status(self.context, 'backup',
                                             backup_id))
        # The volume is left as it is, as in Cinder.
        self.assertEqual('backing-up', self.volume_row(volume.id)['status'])
        self.assertEqual(
            "Invalid input received: Backup status: creating is invalid, "
            "valid statuses are: ['available', 'error'].",
            self.fault(self.action(backup_id, {'os-reset_status': {
                'status': 'creating'}}, status=400), 400))
        for bad in ({'os-reset_status': {}}, {'os-reset_status': 'x'},
                    {'os-reset_status': {'status': 'error', 'x': 1}},
                    {'os-nothing': {}}, {}):
            self.fault(self.action(backup_id, bad, status=400), 400)
        self.action(backup_id, {'os-reset_status': {'status': 'available'}},
                    headers=self.owner, status=403)


class UpdateTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.backup = self.backup_id(rows.volume(
            self.context, project_id=self.project).id, name='old')

    def update(self, body, version='3.9', status=200):
        return self.app.put_json(
            '/v3/backups/%s' % self.backup, body,
            headers=api_fixtures.caller(self.project, version=version),
            status=status)

    def test_update_from_39(self):
        self.assertEqual('API version 3.8 is not supported on this method.',
                         self.fault(self.update({'backup': {'name': 'n'}},
                                                version='3.8', status=404),
                                    404))
        body = self.update({'backup': {'name': 'new',
                                       'description': 'd'}}).json
        self.assertEqual('new', body['backup']['name'])
        row = self.backup_row(self.backup)
        self.assertEqual(('new', 'd'), (row['display_name'],
                                        row['display_description']))

    def test_metadata_from_343(self):
        self.fault(self.update({'backup': {'metadata': {'a': 'b'}}},
                               version='3.42', status=400), 400)
        self.update({'backup': {'metadata': {'a': 'b'}}}, version='3.43')
        self.update({'backup': {'metadata': {'c': 'd'}}}, version='3.43')
        shown = self.show(self.backup, api_fixtures.caller(
            self.project, version='3.43'))
        self.assertEqual({'c': 'd'}, shown['metadata'])

    def test_bad_bodies(self):
        for body in ({}, {'backup': {'x': 1}}, {'backup': {'name': 5}},
                     [], {'backup': {'name': 'n' * 256}}):
            self.fault(self.update(body, status=400), 400)


class ListTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        volumes = [rows.volume(self.context, project_id=self.project)
                   for _ in range(3)]
        self.ids = [self.backup_id(volume.id, name='b%d' % i)
                    for i, volume in enumerate(volumes)]

    def get(self, path, headers=None, status=200):
        return self.app.get(path, headers=headers or self.owner,
                            status=status)

    def test_summary_and_detail(self):
        summary = self.get('/v3/backups').json['backups']
        self.assertEqual({'id', 'name', 'links'}, set(summary[0]))
        # Newest first.
        self.assertEqual(self.ids[::-1], [b['id'] for b in summary])
        detail = self.get('/v3/backups/detail').json['backups']
        self.assertEqual(DETAIL_FIELDS, set(detail[0]))

    def test_filters_and_sort(self):
        self.reset(self.ids[1], 'available')
        found = self.get('/v3/backups?status=available').json['backups']
        self.assertEqual([self.ids[1]], [b['id'] for b in found])
        found = self.get('/v3/backups?name=b2').json['backups']
        self.assertEqual([self.ids[2]], [b['id'] for b in found])
        old = api_fixtures.caller(self.project, version='3.36')
        self.fault(self.get('/v3/backups?sort=name:asc', old, status=400),
                   400)
        new = api_fixtures.caller(self.project, version='3.37')
        found = self.get('/v3/backups?sort=name:asc', new).json['backups']
        self.assertEqual(self.ids, [b['id'] for b in found])

    def test_paging_and_count(self):
        page = self.get('/v3/backups?limit=2').json
        self.assertEqual(2, len(page['backups']))
        following = self.get(page['backups_links'][0]['href']).json
        self.assertEqual([self.ids[0]], [b['id'] for b in
                                         following['backups']])
        at_345 = api_fixtures.caller(self.project, version='3.45')
        self.assertEqual(3, self.get('/v3/backups?with_count=true&limit=1',
                                     at_345).json['count'])
        self.fault(self.get('/v3/backups?with_count=maybe', at_345,
                            status=400), 400)
        self.fault(self.get('/v3/backups?all_tenants=maybe', ADMIN,
                            status=400), 400)
        self.fault(self.get('/v3/backups?limit=-1', status=400), 400)

    def test_admin_lists_all_tenants_with_project_attributes(self):
        self.assertEqual([], self.get('/v3/backups', ADMIN).json['backups'])
        headers = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.56'})
        detail = self.get('/v3/backups/detail?all_tenants=1',
                          headers).json['backups']
        self.assertEqual(3, len(detail))
        self.assertEqual((self.project, 'user-a'), (
            detail[0]['os-backup-project-attr:project_id'],
            detail[0]['user_id']))
        owner = api_fixtures.caller(self.project, version='3.56')
        self.assertNotIn('user_id', self.get('/v3/backups/detail', owner)
                         .json['backups'][0])


class RestoreTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project,
                                  size=2)
        self.target = rows.volume(self.context, project_id=self.project,
                                  size=2)
        self.small = rows.volume(self.context, project_id=self.project,
                                 size=1)
        self.other = rows.volume(self.context, project_id='project-b')
        self.backup = self.backup_id(self.volume.id)

    def test_backup_must_be_available(self):
        message = ("Invalid backup: backup status must be 'available', it "
                   "is 'creating'")
        self.assertEqual(message, self.fault(self.restore(
            self.backup, status=400), 400))
        self.assertEqual(message, self.fault(self.restore(
            self.backup, volume_id=self.target.id, status=400), 400))
        self.assertEqual('available', self.volume_row(self.target.id)[
            'status'])
        self.assertEqual(4, rows.count(self.context, models.Volume))

    def test_to_new_volume(self):
        self.reset(self.backup, 'available')
        restored = self.restore(self.backup, name='r').json['restore']
        self.assertEqual({'backup_id': self.backup, 'volume_name': 'r',
                          'volume_id': restored['volume_id']}, restored)
        volume = self.volume_row(restored['volume_id'])
        self.assertEqual(('restoring-backup', 2, self.project),
                         (volume['status'], volume['size'],
                          volume['project_id']))
        backup = self.backup_row(self.backup)
        self.assertEqual(('restoring', restored['volume_id']),
                         (backup['status'], backup['restore_volume_id']))
        self.assertEqual('restoring', rows.worker_status(
            self.context, 'backup', self.backup))
        # The new volume holds its quota as a created one does.
        used = self.app.get('/v3/os-quota-sets/%s?usage=True'
                            % self.project, headers=ADMIN).json['quota_set']
        self.assertEqual(4, used['volumes']['in_use'])

    def test_to_new_volume_over_quota(self):
        self.reset(self.backup, 'available')
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'volumes': 3}}, headers=ADMIN)
        self.assertEqual(
            "Maximum number of volumes allowed (3) exceeded for quota "
            "'volumes'.", self.fault(self.restore(self.backup, status=413),
                                     413))
        self.assertEqual('available', self.backup_row(self.backup)['status'])
        self.assertEqual(4, rows.count(self.context, models.Volume))

    def test_to_existing_volume(self):
        self.reset(self.backup, 'available')
        restored = self.restore(self.backup, volume_id=self.target.id,
                                name='ignored').json['restore']
        self.assertEqual(self.target.id, restored['volume_id'])
        self.assertEqual('restoring-backup', self.volume_row(
            self.target.id)['status'])
        # Both are held: neither a second restore nor a delete passes.
        self.assertEqual(
            "Invalid backup: backup status must be one of 'available', "
            "'error', it is 'restoring'", self.fault(self.app.delete(
                '/v3/backups/%s' % self.backup, headers=self.owner,
                status=400), 400))
        self.assertEqual(
            "Invalid volume: volume status must be one of 'available', "
            "'error', 'error_restoring', 'error_extending', "
            "'error_managing', it is 'restoring-backup'",
            self.fault(self.app.delete('/v3/volumes/%s' % self.target.id,
                                       headers=self.owner, status=400),
                       400))

    def test_to_unusable_volumes(self):
        self.reset(self.backup, 'available')
        self.fault(self.restore(self.backup, volume_id=self.other.id,
                                status=404), 404)
        missing = str(uuid.uuid4())
        self.assertEqual('Volume %s could not be found.' % missing,
                         self.fault(self.restore(self.backup,
                                                 volume_id=missing,
                                                 status=404), 404))
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'backing-up'", self.fault(self.restore(
                self.backup, volume_id=self.volume.id, status=400), 400))
        self.assertEqual(
            'Invalid volume: volume size 1 is too small to restore backup '
            'of size 2.', self.fault(self.restore(
                self.backup, volume_id=self.small.id, status=400), 400))
        self.assertEqual('available', self.backup_row(self.backup)['status'])

    def test_bad_bodies(self):
        self.reset(self.backup, 'available')
        for body in ({}, {'restore': {'volume_id': 'x'}},
                     {'restore': {'x': 1}}, {'restore': {'name': 5}},
                     {'restore': []}, []):
            self.fault(self.app.post_json(
                '/v3/backups/%s/restore' % self.backup, body,
                headers=self.owner, status=400), 400)
        self.app.get('/v3/backups/%s/restore' % self.backup,
                     headers=self.owner, status=405)
        self.assertEqual('available', self.backup_row(self.backup)['status'])
