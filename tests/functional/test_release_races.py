"""Concurrent deletes on one pool: each worker's delete_done releases the
volume's allocation, a relative UPDATE of the pool's one inventory row and
of the project's usage rows. They queue on those rows and each commits on
its first attempt; none fails with a serialization error and starts over
(one that runs out of retries leaves its volume 'deleting' until the
reconciliation re-drives it)."""
import logging

import fixtures

import objects
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import test_claim_races as races
from tests.functional import worker_fixtures as wf

VOLUMES = 16


class ReleaseRaceTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=-1)
        self.useFixture(invariant.PoolInvariant(self))
        self.worker = self.useFixture(wf.Worker(self))
        # oslo.db says at DEBUG each time it runs a transaction again.
        self.retries = self.useFixture(fixtures.FakeLogger(
            name='oslo_db.api', level=logging.DEBUG,
            format='%(message)s'))

    def transactions_run_again(self):
        return self.retries.output.count('Performing DB retry')

    def available_volumes(self, count):
        volumes = []
        for _ in range(count):
            volume_id = self.create_volume().json['volume']['id']
            volume = objects.Volume.get_by_id(self.context, volume_id)
            self.worker.manager.create_volume(self.context, volume)
            volumes.append(volume_id)
        return volumes

    def test_concurrent_deletes_queue_instead_of_failing(self):
        volume_ids = self.available_volumes(VOLUMES)
        for volume_id in volume_ids:
            self.app.delete('/v3/volumes/%s' % volume_id,
                            headers=self.owner, status=202)
        deleting = [objects.Volume.get_by_id(self.context, volume_id)
                    for volume_id in volume_ids]
        self.assertEqual({'deleting'}, {v.status for v in deleting})
        before = self.transactions_run_again()

        races.concurrently(lambda i: self.worker.manager.delete_volume(
            self.context, deleting[i]), count=VOLUMES)

        self.assertEqual(before, self.transactions_run_again())
        for volume_id in volume_ids:
            volume = objects.Volume.get_by_id(self.context, volume_id,
                                              include_deleted=True)
            self.assertEqual('deleted', volume.status)
        self.assertEqual(0, invariant.disk_gb(
            self.context, self.worker.manager.host).allocated)
        usage = self.app.get(
            '/v3/os-quota-sets/%s?usage=True' % self.project,
            headers=api_fixtures.ADMIN).json['quota_set']
        self.assertEqual((0, 0), (usage['volumes']['in_use'],
                                  usage['gigabytes']['in_use']))
