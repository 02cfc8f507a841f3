"""POST /volumes with a backup_id (3.47): the volume, its claim and quota,
and the backup's swap to 'restoring' in one transaction; the worker
restores the data and ends both; refusals as Cinder words them; races
with the quota and with the backup's delete."""
import uuid

import fixtures

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import backup_fixtures
from tests.functional import commit_after_read
from tests.functional import placement_invariant as invariant
from tests.functional import test_claim_races
from tests.functional import volume_worker_fixture as vwf
from volapi.volume import cleanup
from volapi.volume import create as volume_create
from volapi.volume.drivers import file as file_driver

ADMIN = api_fixtures.ADMIN
CLIENTS = 8


class FromBackupTestCase(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.v347 = api_fixtures.caller(self.project, version='3.47')

    def available_backup(self, size=2):
        """A backup (no worker here: statuses set by an admin)."""
        volume_id = self.create_volume(size=size).json['volume']['id']
        self.make_available(volume_id)
        backup_id = self.backup_id(volume_id)
        self.reset(backup_id, 'available')
        return backup_id

    def from_backup(self, backup_id, status=202, **spec):
        return self.create_volume(headers=self.v347, expect=status,
                                  backup_id=backup_id,
                                  **dict({'size': None}, **spec))

    def volume_usage(self):
        from objects import quota
        used = quota.usage(self.context, self.project)
        return used['volumes'], used['gigabytes']


class CreateFromBackupTest(FromBackupTestCase):

    def test_create(self):
        backup_id = self.available_backup(size=2)
        body = self.from_backup(backup_id, name='restored').json['volume']
        self.assertEqual(('creating', 2, 'restored'),
                         (body['status'], body['size'], body['name']))
        volume = self.volume_row(body['id'])
        self.assertEqual((backup_id, 'creating'),
                         (volume['backup_id'], volume['status']))
        self.assertIsNotNone(volume['host'])
        # The volume's creation is the operation; the backup is taken.
        self.assertEqual('creating', rows.worker_status(
            self.context, 'volume', body['id']))
        self.assertEqual('restoring', self.backup_row(backup_id)['status'])
        # With the backed up volume.
        self.assertEqual((2, 4), self.volume_usage())
        # A backup being restored cannot be deleted.
        response = self.app.delete('/v3/backups/%s' % backup_id,
                                   headers=self.owner, status=400)
        self.assertIn('Invalid backup: backup status must be',
                      self.fault(response, 400))

    def test_size_and_type(self):
        backup_id = self.available_backup(size=2)
        body = self.from_backup(backup_id, size=3).json['volume']
        self.assertEqual(3, body['size'])
        self.assertEqual('__DEFAULT__', body['volume_type'])
        self.assertEqual(
            'Invalid input received: Volume size 1GB cannot be smaller '
            'than the backup size 2GB. It must be >= backup size.',
            self.fault(self.from_backup(backup_id, size=1, status=400),
                       400))

    def test_refusals_change_nothing(self):
        backup_id = self.available_backup(size=1)
        volumes = rows.count(self.context, models.Volume)
        missing = str(uuid.uuid4())
        self.assertEqual('Backup %s could not be found.' % missing,
                         self.fault(self.from_backup(missing, status=404),
                                    404))
        other = api_fixtures.caller('project-b', version='3.47')
        self.assertEqual(
            'Backup %s could not be found.' % backup_id,
            self.fault(self.create_volume(headers=other, expect=404,
                                          backup_id=backup_id), 404))
        self.assertIn("backup_id",
                      self.fault(self.from_backup('not-a-uuid', status=400),
                                 400))
        self.assertIn("backup_id",
                      self.fault(self.from_backup(12, status=400), 400))
        snapshot = str(uuid.uuid4())
        self.assertEqual(
            'Invalid input received: only one of snapshot_id, source_volid '
            'and backup_id may be given, not snapshot_id and backup_id.',
            self.fault(self.from_backup(backup_id, snapshot_id=snapshot,
                                        status=400), 400))
        self.reset(backup_id, 'error')
        self.assertEqual(
            "Invalid backup: Originating backup status must be one of "
            "'available, restoring' values",
            self.fault(self.from_backup(backup_id, status=400), 400))
        self.assertEqual(volumes, rows.count(self.context, models.Volume))
        self.assertEqual('error', self.backup_row(backup_id)['status'])

    def test_over_quota_leaves_backup_alone(self):
        backup_id = self.available_backup(size=1)
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'volumes': 1}}, headers=ADMIN)
        response = self.from_backup(backup_id, status=413)
        self.assertIn('volumes', self.fault(response, 413))
        self.assertEqual('available', self.backup_row(backup_id)['status'])

    def test_several_volumes_from_one_backup(self):
        backup_id = self.available_backup(size=1)
        first = self.from_backup(backup_id).json['volume']['id']
        second = self.from_backup(backup_id).json['volume']['id']
        self.assertNotEqual(first, second)
        self.assertEqual('restoring', self.backup_row(backup_id)['status'])
        # Nobody serves the casts here: the cleanup ends both creations,
        # and the last one makes the backup available again.
        repaired = cleanup.clean_stale(self.context, unclaimed_timeout=0)
        self.assertEqual({first, second},
                         {w.resource_id for w in repaired})
        self.assertEqual(['error', 'error'],
                         [self.volume_row(v)['status']
                          for v in (first, second)])
        self.assertEqual('available', self.backup_row(backup_id)['status'])

    def test_a_force_delete_ends_the_restore(self):
        backup_id = self.available_backup(size=1)
        volume_id = self.from_backup(backup_id).json['volume']['id']
        self.app.post_json('/v3/volumes/%s/action' % volume_id,
                           {'os-force_delete': {}}, headers=ADMIN,
                           status=202)
        # Nothing restores it any more: the backup may go.
        self.assertEqual('available', self.backup_row(backup_id)['status'])
        self.app.delete('/v3/backups/%s' % backup_id, headers=self.owner,
                        status=202)

    def test_restore_refused_while_volumes_are_made(self):
        backup_id = self.available_backup(size=1)
        self.from_backup(backup_id)
        target = self.create_volume().json['volume']['id']
        self.make_available(target)
        self.assertIn('Invalid backup: backup status must be',
                      self.fault(self.restore(backup_id, volume_id=target,
                                              status=400), 400))


class FromBackupWorkerTest(FromBackupTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))

    def status(self, volume_id):
        return self.app.get('/v3/volumes/%s' % volume_id,
                            headers=self.owner).json['volume']['status']

    def backup_of_data(self, data):
        volume_id = self.create_volume(size=1).json['volume']['id']
        vwf.wait_for(lambda: self.status(volume_id),
                     lambda s: s == 'available')
        with open(self.volume_row(volume_id)['provider_location'],
                  'r+b') as f:
            f.write(data)
        backup_id = self.backup_id(volume_id)
        vwf.wait_for(lambda: self.show(backup_id)['status'],
                     lambda s: s == 'available')
        return backup_id

    def test_data_restored(self):
        backup_id = self.backup_of_data(b'from the backup')
        volume_id = self.from_backup(backup_id, size=2).json['volume']['id']
        vwf.wait_for(lambda: self.status(volume_id),
                     lambda s: s == 'available')
        vwf.wait_for(lambda: self.show(backup_id)['status'],
                     lambda s: s == 'available')
        volume = self.volume_row(volume_id)
        with open(volume['provider_location'], 'rb') as f:
            self.assertEqual(b'from the backup', f.read(15))
        self.assertIsNotNone(volume['launched_at'])
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             volume_id))

    def test_restore_failure(self):
        backup_id = self.backup_of_data(b'x')
        self.useFixture(fixtures.MockPatchObject(
            file_driver.FileDriver, 'restore_backup',
            side_effect=OSError('disk gone')))
        volume_id = self.from_backup(backup_id).json['volume']['id']
        vwf.wait_for(lambda: self.status(volume_id),
                     lambda s: s == 'error')
        vwf.wait_for(lambda: self.show(backup_id)['status'],
                     lambda s: s == 'available')


class FromBackupRaceTest(FromBackupTestCase):

    def test_quota_admits_exactly_its_limit(self):
        limit = 3
        backup_id = self.available_backup(size=1)
        # Room for 3 more: the backed up volume holds one.
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'volumes': limit + 1}},
                          headers=ADMIN)
        responses = test_claim_races.concurrently(
            lambda i: self.from_backup(backup_id, status='*'), CLIENTS)
        statuses = sorted(r.status_int for r in responses)
        self.assertEqual([202] * limit + [413] * (CLIENTS - limit),
                         statuses)
        for response in responses:
            if response.status_int == 413:
                self.assertIn("Maximum number of volumes allowed (4)",
                              self.fault(response, 413))
        self.assertEqual(limit, rows.count(self.context, models.Volume,
                                           backup_id=backup_id))
        self.assertEqual('restoring', self.backup_row(backup_id)['status'])

    def test_racing_the_backup_delete(self):
        for _ in range(3):
            backup_id = self.available_backup(size=1)

            def request(i):
                if i == 0:
                    return self.app.delete('/v3/backups/%s' % backup_id,
                                           headers=self.owner, status='*')
                return self.from_backup(backup_id, status='*')

            responses = test_claim_races.concurrently(request, 2)
            self.assertEqual([202, 400], sorted(r.status_int
                                                for r in responses))
            made = rows.count(self.context, models.Volume,
                              backup_id=backup_id)
            status = self.backup_row(backup_id)['status']
            # One went through, never both.
            self.assertIn((status, made), [('restoring', 1), ('deleting', 0)])

    def test_delete_committed_after_the_read(self):
        backup_id = self.available_backup(size=1)
        deleted = []

        def delete():
            deleted.append(self.app.delete('/v3/backups/%s' % backup_id,
                                           headers=self.owner, status='*'))

        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_create, '_source', delete))
        response = self.from_backup(backup_id, status='*')
        change.wait()
        made = rows.count(self.context, models.Volume, backup_id=backup_id)
        status = self.backup_row(backup_id)['status']
        if change.in_between:
            # The create read the backup available; its swap found it
            # deleting.
            self.assertIn('Invalid backup: backup status must be',
                          self.fault(response, 400))
            self.assertEqual(202, deleted[0].status_int)
            self.assertEqual(('deleting', 0), (status, made))
        else:
            # SQLite: the delete waited for the create's reads, which
            # hold the database, and came second.
            self.assertEqual(202, response.status_int)
            self.assertEqual(400, deleted[0].status_int)
            self.assertEqual(('restoring', 1), (status, made))
        if self.backend != 'sqlite':
            self.assertTrue(change.in_between)
