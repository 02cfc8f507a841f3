"""A volume worker SIGKILLed in the middle of a migration's copy leaves the
volume 'migrating' with both pools reserved; the worker, restarted,
re-drives the copy from the start and ends the move: the volume on its
destination, one file where the data is, the source's file and the
migration's allocation gone, the pool invariant whole. Real processes
(volapi-volume), real RabbitMQ, the backend under test."""
import os
import signal
import time

import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import volume_worker_fixture as vwf
from tests.functional import worker_fixtures as wf
from volapi.volume import api as volume_api
from volapi.volume import create as volume_create
from volapi.volume import migrations
from volapi.volume.drivers import file as file_driver

RABBIT_URL = volapi_fixtures.rabbit_url()
POOLS = ['a:10', 'b:10']


class BlockingMigrationDriver(file_driver.FileDriver):
    """Leaves half a copy in the destination pool and a marker, then never
    ends: the worker is busy copying when it is killed."""

    def migrate_volume(self, volume, target_host, name_id):
        pool_dir = self.pool_dir(target_host.partition('#')[2])
        with open(os.path.join(pool_dir, '.volume-%s.partial' % name_id),
                  'wb') as f:
            f.write(b'half a copy')
        open(os.path.join(self.volumes_dir, 'migrating'), 'w').close()
        while True:
            time.sleep(1)


@testtools.skipIf(RABBIT_URL is None,
                  'VOLAPI_TEST_RABBIT_URL is not set: killing a worker '
                  'mid-operation needs RabbitMQ between processes')
class KilledMigrationTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.rabbit = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        self.volumes_dir = self.useFixture(wf.fixtures.TempDir()).path
        self.config.set('quota', volumes=-1, gigabytes=-1)
        self.config.set('volume', file_pools=POOLS, volumes_dir=self.volumes_dir,
                        max_over_subscription_ratio=1.0)
        self.tenant = self.make_context()
        self.useFixture(invariant.PoolInvariant(self))

    def start_worker(self, driver):
        self.rabbit.server('phoenix@file')
        worker = self.useFixture(wf.Process('volume', {
            None: {'host': 'phoenix', 'state_path': self.volumes_dir,
                   'transport_url': RABBIT_URL,
                   'volume_topic': self.rabbit.topic,
                   'report_interval': 1},
            'database': {'connection': volapi_fixtures.prepared_url()},
            'volume': {'volume_driver': driver,
                       'volumes_dir': self.volumes_dir,
                       'file_pools': ','.join(POOLS),
                       'max_over_subscription_ratio': 1.0},
        }))
        worker.wait_for_log('RPC server listening')
        return worker

    @staticmethod
    def wait(predicate, timeout=30):
        vwf.wait_for(predicate, bool, timeout=timeout, interval=0.1)

    def volume(self, volume_id):
        return volume_api.get_volume(self.context, volume_id)

    def test_restarted_worker_finishes_the_move(self):
        doomed = self.start_worker('%s.BlockingMigrationDriver' % __name__)
        volume = volume_create.create(self.tenant, size=2)
        self.wait(lambda: self.volume(volume.id).status == 'available')
        source = self.volume(volume.id)
        with open(source.provider_location, 'r+b') as f:
            f.write(b'moved intact')
        dest = 'phoenix@file#' + ('b' if source.host.endswith('#a') else 'a')
        migrations.migrate(self.context, volume.id, host=dest)
        self.wait(lambda: os.path.exists(
            os.path.join(self.volumes_dir, 'migrating')))
        os.kill(doomed.process.pid, signal.SIGKILL)
        doomed.process.wait()
        moving = self.volume(volume.id)
        self.assertEqual(('migrating', source.host),
                         (moving.migration_status, moving.host))
        self.assertEqual([], invariant.violations(self.context))

        again = self.start_worker('volapi.volume.drivers.file.FileDriver')
        again.wait_for_log('start-up reconciliation re-drove 1 operation(s)')
        self.wait(lambda: self.volume(volume.id).migration_status == 'success')
        moved = self.volume(volume.id)
        self.assertEqual((dest, moved.migration_id),
                         (moved.host, moved.name_id))
        with open(moved.provider_location, 'rb') as f:
            self.assertEqual(b'moved intact', f.read(12))
        self.wait(lambda: not os.path.exists(source.provider_location))
        self.assertEqual(['volume-%s' % moved.name_id],
                         os.listdir(os.path.dirname(moved.provider_location)))
        self.assertIsNone(wf.worker_row(self.context, 'volume', volume.id))
        self.assertEqual(0, again.terminate())
