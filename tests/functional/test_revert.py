"""Reverting a volume to its latest snapshot (``revert``, 3.40), with a
running worker: the data, the statuses on the way, Cinder's refusals, a
failing backend, and a snapshot made between the API's read and its
compare-and-swap."""
import threading

import fixtures

import objects
from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf
from volapi.volume import snapshots as snapshot_api
from volapi.volume.transitions import engine

VERSION = '3.40'


class RevertTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(vwf.RunningWorker(self)).worker
        self.headers = api_fixtures.caller(self.project, version=VERSION)
        self.volume_id = self.create_volume(
            headers=self.headers).json['volume']['id']
        self.wait_status('volumes', self.volume_id, 'available')

    def wait_status(self, collection, ident, status):
        model = models.Volume if collection == 'volumes' else models.Snapshot
        return vwf.wait_for(
            lambda: rows.row(self.context, model, ident)['status'],
            lambda found: found == status)

    def snapshot(self):
        snapshot_id = self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': self.volume_id}}, headers=self.headers).json[
            'snapshot']['id']
        self.wait_status('snapshots', snapshot_id, 'available')
        return snapshot_id

    def revert(self, snapshot_id, status=202, headers=None):
        return self.app.post_json(
            '/v3/volumes/%s/action' % self.volume_id,
            {'revert': {'snapshot_id': snapshot_id}},
            headers=headers or self.headers, status=status)

    def volume_path(self):
        return self.worker.driver.volume_path(
            objects.Volume.get_by_id(self.context, self.volume_id))

    def write(self, data):
        with open(self.volume_path(), 'r+b') as f:
            f.write(data)

    def read(self, size):
        with open(self.volume_path(), 'rb') as f:
            return f.read(size)

    def test_the_data_is_the_snapshots_again(self):
        self.write(b'before')
        snapshot_id = self.snapshot()
        self.write(b'after!')
        self.revert(snapshot_id)
        self.wait_status('volumes', self.volume_id, 'available')
        self.wait_status('snapshots', snapshot_id, 'available')
        self.assertEqual(b'before', self.read(6))
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             snapshot_id))

    def test_refusals(self):
        self.assertEqual(
            "Volume %s doesn't have any snapshots." % self.volume_id,
            self.fault(self.revert(None, status=400), 400))
        older = self.snapshot()
        latest = self.snapshot()
        for wrong in (older, None):
            self.assertEqual(
                'Specified snapshot %s is None or not the latest one of '
                'volume %s.' % (wrong, self.volume_id),
                self.fault(self.revert(wrong, status=400), 400))
        old = api_fixtures.caller(self.project, version='3.39')
        self.assertEqual('API version 3.39 is not supported on this method.',
                         self.fault(self.revert(latest, status=404,
                                                headers=old), 404))
        self.fault(self.revert(latest, status=404,
                               headers=api_fixtures.caller(
                                   'project-b', version=VERSION)), 404)
        self.fault(self.app.post_json(
            '/v3/volumes/%s/action' % self.volume_id, {'revert': []},
            headers=self.headers, status=400), 400)
        self.app.post_json('/v3/volumes/%s/action' % self.volume_id,
                           {'os-reserve': None}, headers=self.headers)
        self.assertIn("status must be 'available', it is 'attaching'",
                      self.fault(self.revert(latest, status=409), 409))
        self.app.post_json('/v3/volumes/%s/action' % self.volume_id,
                           {'os-unreserve': None}, headers=self.headers)
        self.app.post_json('/v3/snapshots/%s/action' % latest,
                           {'os-reset_status': {'status': 'error'}},
                           headers=api_fixtures.ADMIN)
        self.assertIn("snapshot status must be 'available', it is 'error'",
                      self.fault(self.revert(latest, status=409), 409))
        self.assertEqual('available', rows.row(
            self.context, models.Volume, self.volume_id)['status'])

    def test_a_volume_grown_since_its_snapshot(self):
        snapshot_id = self.snapshot()
        self.app.post_json('/v3/volumes/%s/action' % self.volume_id,
                           {'os-extend': {'new_size': 2}},
                           headers=self.headers)
        self.wait_status('volumes', self.volume_id, 'available')
        self.assertEqual(
            "Can't revert volume %s to its latest snapshot %s. The volume "
            'size must be equal to the snapshot size.'
            % (self.volume_id, snapshot_id),
            self.fault(self.revert(snapshot_id, status=400), 400))

    def test_a_failing_backend_leaves_the_volume_in_error(self):
        snapshot_id = self.snapshot()

        def fail(driver, volume, snapshot):
            raise OSError('disk on fire')

        self.useFixture(fixtures.MonkeyPatch(
            'volapi.volume.drivers.file.FileDriver.revert_to_snapshot',
            fail))
        self.revert(snapshot_id)
        self.wait_status('volumes', self.volume_id, 'error')
        self.wait_status('snapshots', snapshot_id, 'available')

    def test_a_snapshot_made_after_the_read(self):
        """A snapshot made between the API's read of the volume's latest
        snapshot and its compare-and-swap: the swap's criterion (or the
        read of the retried transaction) refuses the revert and nothing
        changes."""
        if self.backend == 'sqlite':
            self.skipTest("SQLite's writers hold the write lock from BEGIN: "
                          'no snapshot can come between the read and the '
                          'swap')
        first = self.snapshot()
        read = objects.Snapshot.get_all_of_held_volume
        made = []

        def make():
            # Another API process, in a transaction of its own.
            try:
                made.append(snapshot_api.create(
                    self.make_context(self.project), self.volume_id).id)
            except Exception as refused:
                made.append(refused)

        def read_then_snapshot(cls, context, volume_id):
            found = read(context, volume_id)
            if not made:
                other = threading.Thread(target=make)
                other.start()
                other.join(30)
            return found

        self.useFixture(fixtures.MonkeyPatch(
            'objects.snapshot.Snapshot.get_all_of_held_volume',
            classmethod(read_then_snapshot)))
        response = self.revert(first, status='*')
        self.assertIn(response.status_int, (400, 409), response.body)
        self.wait_status('snapshots', made[0], 'available')
        self.wait_status('volumes', self.volume_id, 'available')
        self.wait_status('snapshots', first, 'available')


class RevertCriterionTest(api_fixtures.APITestCase):
    """The volume's swap itself refuses a snapshot that is not its latest,
    or not of its size, whatever the caller checked before."""

    def refusal(self, volume, snapshot_id):
        error = self.assertRaises(
            engine.TransitionRefused, engine.run, self.context,
            engine.prepare(self.context, 'revert_to_snapshot', volume,
                           snapshot_id=snapshot_id))
        return str(error)

    def test_only_the_latest_of_its_size(self):
        volume = rows.volume(self.context, project_id=self.project)
        older = rows.snapshot(self.context, volume)
        latest = rows.snapshot(self.context, volume)
        expected = 'must have snapshot %s as its latest, of its size'
        self.assertIn(expected % older.id, self.refusal(volume, older.id))
        grown = rows.volume(self.context, project_id=self.project, size=2)
        small = rows.snapshot(self.context, grown, volume_size=1)
        self.assertIn(expected % small.id, self.refusal(grown, small.id))
        engine.run(self.context, engine.prepare(
            self.context, 'revert_to_snapshot', volume,
            snapshot_id=latest.id))
        self.assertEqual('reverting', rows.row(
            self.context, models.Volume, volume.id)['status'])
