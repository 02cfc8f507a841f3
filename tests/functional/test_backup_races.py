"""Concurrent backup requests: the compare-and-swaps of their
transactions decide, so one volume gets one backup at a time, a project's
backups quota is never exceeded, and a delete and a restore of one backup
never both start."""
import fixtures

from db import models
from tests import volume_rows as rows
from tests.functional import backup_fixtures
from tests.functional import commit_after_read
from tests.functional import test_claim_races
from tests.functional import test_read_then_write
from rpc import volume as volume_rpc
from volapi.volume import api as volume_api

CLIENTS = 8
concurrently = test_claim_races.concurrently
# Another pool the volume's migration moves it to.
ELSEWHERE = 'worker-2@file#file'


class BackupRaceTest(backup_fixtures.BackupTestCase):

    def post(self, volume_id):
        return self.create(volume_id=volume_id, status='*')

    def test_one_backup_of_a_volume_at_a_time(self):
        volume = rows.volume(self.context, project_id=self.project)
        responses = concurrently(lambda i: self.post(volume.id), CLIENTS)
        statuses = sorted(r.status_int for r in responses)
        self.assertEqual([202] + [400] * (CLIENTS - 1), statuses)
        for response in responses:
            if response.status_int == 400:
                self.assertEqual(
                    "Invalid volume: volume status must be 'available', it "
                    "is 'backing-up'", self.fault(response, 400))
        self.assertEqual(1, rows.count(self.context, models.Backup))
        self.assertEqual((1, 1), self.usage())

    def test_quota_admits_exactly_its_limit(self):
        limit = 3
        volumes = [rows.volume(self.context, project_id=self.project)
                   for _ in range(CLIENTS)]
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'backups': limit}},
                          headers=backup_fixtures.ADMIN)
        responses = concurrently(lambda i: self.post(volumes[i].id),
                                 CLIENTS)
        statuses = sorted(r.status_int for r in responses)
        self.assertEqual([202] * limit + [413] * (CLIENTS - limit),
                         statuses)
        for response in responses:
            if response.status_int == 413:
                self.assertEqual(
                    'Maximum number of backups allowed (3) exceeded',
                    self.fault(response, 413))
        self.assertEqual(limit, rows.count(self.context, models.Backup))
        self.assertEqual(limit, rows.count(self.context, models.Volume,
                                           status='backing-up'))
        self.assertEqual((limit, limit), self.usage())

    def test_delete_racing_restore(self):
        # Every row inserted before the first claim counts them.
        pairs = [[rows.volume(self.context, project_id=self.project)
                  for _ in range(2)] for _ in range(3)]
        for volume, target in pairs:
            backup_id = self.backup_id(volume.id)
            self.reset(backup_id, 'available')

            def request(i):
                if i == 0:
                    return self.app.delete('/v3/backups/%s' % backup_id,
                                           headers=self.owner, status='*')
                return self.restore(backup_id, volume_id=target.id,
                                    status='*')

            responses = concurrently(request, 2)
            self.assertEqual([202, 400], sorted(r.status_int
                                                for r in responses))
            loser = [r for r in responses if r.status_int == 400][0]
            self.assertIn('Invalid backup: backup status must be',
                          self.fault(loser, 400))
            status = self.backup_row(backup_id)['status']
            target_status = self.volume_row(target.id)['status']
            # Both rows went one way: the restore's, or the delete's.
            self.assertIn((status, target_status),
                          [('restoring', 'restoring-backup'),
                           ('deleting', 'available')])


class MigratedMeanwhileTest(backup_fixtures.BackupTestCase):
    """A migration of the volume that ends between the request's read and
    its swap: the work must not be cast to the pool read, where the data
    no longer is. The swap requires the host read (a retry reads it
    again)."""

    def setUp(self):
        super().setUp()
        self.cast_to = []
        for method in ('create_backup', 'restore_backup'):
            self.record_casts(method)

    def record_casts(self, method):
        original = getattr(volume_rpc.VolumeWorkerClient, method)

        def recorded(client, ctxt, backup, volume):
            self.cast_to.append(volume.host)
            return original(client, ctxt, backup, volume)

        self.useFixture(fixtures.MonkeyPatch(
            'rpc.volume.VolumeWorkerClient.' + method, recorded))

    def migrated_after_the_read(self, volume):
        return self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', test_read_then_write.commit_update(
                models.Volume, volume.id, host=ELSEWHERE,
                migration_status='success')))

    def test_backup_of_a_volume_migrated_meanwhile(self):
        volume = rows.volume(self.context, project_id=self.project)
        change = self.migrated_after_the_read(volume)
        response = self.create(volume_id=volume.id, status='*')
        change.wait()
        self.assert_cast_to_the_volume_pool(response, change, volume.id)
        if response.status_int == 202:
            self.assertEqual(self.cast_to, [self.backup_row(
                response.json['backup']['id'])['host']])

    def test_restore_to_a_volume_migrated_meanwhile(self):
        source = rows.volume(self.context, project_id=self.project)
        # Inserted before the first claim, which counts it.
        target = rows.volume(self.context, project_id=self.project)
        backup_id = self.backup_id(source.id)
        self.reset(backup_id, 'available')
        self.cast_to.clear()
        change = self.migrated_after_the_read(target)
        response = self.restore(backup_id, volume_id=target.id, status='*')
        change.wait()
        self.assert_cast_to_the_volume_pool(response, change, target.id)

    def assert_cast_to_the_volume_pool(self, response, change, volume_id):
        if response.status_int == 400:
            # Refused, where the migration ended in between.
            self.assertTrue(change.in_between)
            self.assertEqual(
                "Invalid volume: volume host must be '%s', it is '%s'"
                % (rows.HOST, ELSEWHERE), self.fault(response, 400))
            self.assertEqual(('available', []), (
                self.volume_row(volume_id)['status'], self.cast_to))
            return
        self.assertEqual(202, response.status_int, response.text)
        # Cast to where the volume was when the swap committed: the
        # migration's pool if it ended in between, else (SQLite, where
        # the two ran in turn) the first.
        self.assertEqual([ELSEWHERE if change.in_between else rows.HOST],
                         self.cast_to)
