"""Concurrent backup requests: the compare-and-swaps of their
transactions decide, so one volume gets one backup at a time, a project's
backups quota is never exceeded, and a delete and a restore of one backup
never both start."""
from db import models
from tests import volume_rows as rows
from tests.functional import backup_fixtures
from tests.functional import test_claim_races

CLIENTS = 8
concurrently = test_claim_races.concurrently


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
