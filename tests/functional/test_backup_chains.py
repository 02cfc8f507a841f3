"""Incremental backups: the parent is the volume's latest available
backup (Cinder's rule), held in the child's transaction; a backup with
dependents cannot be deleted, decided in the delete's own SQL, so a
racing incremental create and a parent delete never leave a child
without its parent."""
import datetime

from db import models
from tests import volume_rows as rows
from tests.functional import backup_fixtures
from tests.functional import commit_after_read
from tests.functional import test_claim_races
from tests.functional import volume_worker_fixture as vwf
from volapi.volume import backups as backup_api
from volapi.volume.transitions import engine
import objects

NO_PARENT = 'Invalid backup: No backups available to do an incremental ' \
    'backup.'
HAS_DEPENDENTS = 'Invalid backup: backup must have no incremental ' \
    'backups depending on it'


class ChainTestCase(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project)

    def full(self, **spec):
        """An available backup of the volume (no worker here: statuses
        set by an admin), the volume available again."""
        backup_id = self.backup_id(self.volume.id, **spec)
        self.reset(backup_id, 'available')
        self.release_volume()
        return backup_id

    def release_volume(self):
        rows.update(self.context, models.Volume, self.volume.id,
                    status='available')

    def incremental(self, status=202, **spec):
        return self.create(volume_id=self.volume.id, incremental=True,
                           status=status, **spec)

    def delete(self, backup_id, status=202):
        return self.app.delete('/v3/backups/%s' % backup_id,
                               headers=self.owner, status=status)


class IncrementalTest(ChainTestCase):

    def test_no_parent(self):
        self.assertEqual(NO_PARENT, self.fault(self.incremental(status=400),
                                               400))
        failed = self.backup_id(self.volume.id)
        self.reset(failed, 'error')
        self.release_volume()
        self.assertEqual(NO_PARENT, self.fault(self.incremental(status=400),
                                               400))
        # Nothing was claimed, the volume was left alone.
        self.assertEqual((1, 1), self.usage())
        self.assertEqual('available',
                         self.volume_row(self.volume.id)['status'])

    def test_parent_is_the_latest_available(self):
        older = self.full()
        newer = self.full()
        rows.update(self.context, models.Backup, older,
                    data_timestamp=datetime.datetime(2020, 1, 1))
        child = self.incremental().json['backup']['id']
        self.assertEqual(newer, self.backup_row(child)['parent_id'])
        shown = self.show(child)
        self.assertEqual((True, False), (shown['is_incremental'],
                                         shown['has_dependent_backups']))
        parent = self.show(newer)
        self.assertEqual((False, True), (parent['is_incremental'],
                                         parent['has_dependent_backups']))
        self.assertFalse(self.show(older)['has_dependent_backups'])
        listed = {b['id']: b for b in self.app.get(
            '/v3/backups/detail', headers=self.owner).json['backups']}
        self.assertEqual((True, True, False),
                         (listed[child]['is_incremental'],
                          listed[newer]['has_dependent_backups'],
                          listed[older]['has_dependent_backups']))

    def test_of_a_snapshot_takes_a_parent_older_than_it(self):
        before = self.full()
        rows.update(self.context, models.Backup, before,
                    data_timestamp=datetime.datetime(2020, 1, 1))
        snapshot = self.app.post_json(
            '/v3/snapshots', {'snapshot': {'volume_id': self.volume.id}},
            headers=self.owner, status=202).json['snapshot']['id']
        rows.update(self.context, models.Snapshot, snapshot,
                    status='available',
                    created_at=datetime.datetime(2021, 1, 1))
        self.full()  # newer than the snapshot: not its parent
        child = self.incremental(snapshot_id=snapshot).json['backup']['id']
        self.assertEqual(before, self.backup_row(child)['parent_id'])

    def test_parent_with_dependents_is_not_deleted(self):
        parent = self.full()
        child = self.incremental().json['backup']['id']
        self.assertEqual(HAS_DEPENDENTS,
                         self.fault(self.delete(parent, status=400), 400))
        self.assertEqual(HAS_DEPENDENTS, self.fault(self.action(
            parent, {'os-force_delete': {}}, status=400), 400))
        self.assertEqual('available', self.backup_row(parent)['status'])
        self.reset(child, 'available')
        self.delete(child)
        # A child being deleted still depends on it until it is gone.
        self.assertEqual(HAS_DEPENDENTS,
                         self.fault(self.delete(parent, status=400), 400))
        # What the worker does once the data is gone.
        engine.apply(self.context, 'backup_delete_done',
                     objects.Backup.get_by_id(self.context, child))
        self.delete(parent)


class ChainRaceTest(ChainTestCase):

    def test_incremental_create_racing_parent_delete(self):
        for _ in range(3):
            parent = self.full()

            def request(i):
                if i == 0:
                    return self.delete(parent, status='*')
                return self.incremental(status='*')

            responses = test_claim_races.concurrently(request, 2)
            self.assertEqual([202, 400], sorted(r.status_int
                                                for r in responses))
            children = rows.count(self.context, models.Backup,
                                  parent_id=parent)
            status = self.backup_row(parent)['status']
            # The child and its parent's delete never both went through.
            self.assertIn((status, children),
                          [('available', 1), ('deleting', 0)])
            self.release_volume()
            rows.update(self.context, models.Backup, parent,
                        status='error')

    def test_child_committed_after_the_delete_read_its_parent(self):
        parent = self.full()
        made = []
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, backup_api, 'get',
            lambda: made.append(self.incremental(status='*'))))
        response = self.delete(parent, status='*')
        change.wait()
        children = rows.count(self.context, models.Backup, parent_id=parent)
        if change.in_between:
            # The delete read no child; its swap found one.
            self.assertEqual(HAS_DEPENDENTS, self.fault(response, 400))
            self.assertEqual(202, made[0].status_int)
            self.assertEqual(('available', 1),
                             (self.backup_row(parent)['status'], children))
        else:
            # SQLite: the create waited for the delete's transaction.
            self.assertEqual((202, 400), (response.status_int,
                                          made[0].status_int))
            self.assertEqual(0, children)
        if self.backend != 'sqlite':
            self.assertTrue(change.in_between)

    def test_parent_deleted_after_the_create_read_it(self):
        parent = self.full()
        deleted = []
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, backup_api, '_parent_hold',
            lambda: deleted.append(self.delete(parent, status='*'))))
        response = self.incremental(status='*')
        change.wait()
        children = rows.count(self.context, models.Backup, parent_id=parent)
        if change.in_between:
            self.assertIn('Invalid backup: backup status must be',
                          self.fault(response, 400))
            self.assertEqual(('deleting', 0),
                             (self.backup_row(parent)['status'], children))
        else:
            # The create's transaction held the database (SQLite): the
            # delete came second, and its SQL found the child.
            self.assertEqual(202, response.status_int)
            self.assertEqual(HAS_DEPENDENTS, self.fault(deleted[0], 400))
            self.assertEqual(1, children)
        if self.backend != 'sqlite':
            self.assertTrue(change.in_between)


class ChainWorkerTest(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))

    def status(self, path, key):
        return self.app.get(path, headers=self.owner,
                            expect_errors=True).json[key]['status']

    def wait_backup(self, backup_id):
        vwf.wait_for(lambda: self.show(backup_id)['status'],
                     lambda s: s == 'available')

    def test_chain_life(self):
        volume_id = self.create_volume(size=1).json['volume']['id']
        path = '/v3/volumes/%s' % volume_id
        vwf.wait_for(lambda: self.status(path, 'volume'),
                     lambda s: s == 'available')
        with open(self.volume_row(volume_id)['provider_location'],
                  'r+b') as f:
            f.write(b'first')
        parent = self.backup_id(volume_id)
        self.wait_backup(parent)
        vwf.wait_for(lambda: self.status(path, 'volume'),
                     lambda s: s == 'available')
        with open(self.volume_row(volume_id)['provider_location'],
                  'r+b') as f:
            f.write(b'later')
        child = self.backup_id(volume_id, incremental=True)
        self.wait_backup(child)
        # Restoring the incremental gives the data as it was backed up
        # last (the file driver keeps each backup's whole data).
        restored = self.restore(child).json['restore']['volume_id']
        vwf.wait_for(lambda: self.status('/v3/volumes/%s' % restored,
                                         'volume'),
                     lambda s: s == 'available')
        with open(self.volume_row(restored)['provider_location'],
                  'rb') as f:
            self.assertEqual(b'later', f.read(5))
        self.wait_backup(child)
        self.assertEqual(HAS_DEPENDENTS, self.fault(self.app.delete(
            '/v3/backups/%s' % parent, headers=self.owner, status=400),
            400))
        for backup_id in (child, parent):
            self.app.delete('/v3/backups/%s' % backup_id,
                            headers=self.owner, status=202)
            vwf.wait_for(lambda: self.app.get(
                '/v3/backups/%s' % backup_id, headers=self.owner,
                expect_errors=True).status_int, lambda s: s == 404)
        self.assertEqual((0, 0), self.usage())
