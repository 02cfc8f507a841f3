"""A volume worker killed with SIGKILL in the middle of an extend leaves the
volume 'extending'; another worker (at its start-up) re-drives the extend
and completes it: the file and the database agree on the new size. Real
processes (volapi-volume), real RabbitMQ, the backend under test."""
import os
import signal
import time

import testtools

import objects
from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf
from volapi.volume.drivers import file as file_driver

RABBIT_URL = volapi_fixtures.rabbit_url()


class BlockingDriver(file_driver.FileDriver):
    """Says it has started extending (a marker file), then never ends:
    the worker is busy in the driver when it is killed."""

    def extend_volume(self, volume, new_size):
        open(marker(self.volumes_dir, volume), 'w').close()
        while True:
            time.sleep(1)


def marker(volumes_dir, volume):
    return os.path.join(volumes_dir, 'extending-%s' % volume.id)


@testtools.skipIf(RABBIT_URL is None,
                  'VOLAPI_TEST_RABBIT_URL is not set: killing a worker '
                  'mid-operation needs RabbitMQ between processes')
class KilledWorkerTest(base.DatabaseTestCase):

    DOWN_TIME = 3

    def setUp(self):
        super().setUp()
        self.rabbit = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        self.config.set(service_down_time=self.DOWN_TIME)
        self.volumes_dir = self.useFixture(wf.fixtures.TempDir()).path

    def start_worker(self, host, driver):
        self.rabbit.server('%s@file' % host)
        self.rabbit.server('shared@file')
        worker = self.useFixture(wf.Process('volume', {
            None: {'host': host,
                   'cluster': 'shared',
                   'state_path': self.volumes_dir,
                   'transport_url': RABBIT_URL,
                   'volume_topic': self.rabbit.topic,
                   'report_interval': 1,
                   'service_down_time': self.DOWN_TIME},
            'database': {'connection': volapi_fixtures.prepared_url()},
            'volume': {'volume_driver': driver,
                       'volumes_dir': self.volumes_dir},
        }))
        # Listening as its cluster is the last step of its start-up.
        worker.wait_for_log('as shared@file')
        return worker

    def extend_on_a_worker_that_dies(self, host):
        """A volume on ``host``, extended there, the worker killed while
        its driver works; returns the volume."""
        doomed = self.start_worker(
            host, '%s.BlockingDriver' % __name__)
        volume = wf.make_volume(self.context, status='available',
                                host='%s@file#file' % host,
                                cluster_name='shared@file#file')
        with open(os.path.join(self.volumes_dir, 'volume-%s' % volume.id),
                  'wb') as f:
            f.truncate(1024 ** 3)
        wf.extend(self.context, volume, 2)
        self.wait(lambda: os.path.exists(marker(self.volumes_dir, volume)),
                  'the driver to start extending')
        service = objects.Service.get_by_host_and_binary(
            self.context, '%s@file' % host, 'volapi-volume')
        row = wf.worker_row(self.context, 'volume', volume.id)
        self.assertEqual(('extending', service.id),
                         (row.status, row.service_id))
        os.kill(doomed.process.pid, signal.SIGKILL)
        doomed.process.wait()
        volume.refresh()
        self.assertEqual('extending', volume.status)
        return volume, service

    def wait(self, predicate, what, timeout=30):
        deadline = time.time() + timeout
        while not predicate():
            if time.time() > deadline:
                self.fail('timed out waiting for %s' % what)
            time.sleep(0.1)

    def assertCompleted(self, volume):
        volume.refresh()
        self.assertEqual(('available', 2), (volume.status, volume.size))
        self.assertEqual(2 * 1024 ** 3, os.path.getsize(
            os.path.join(self.volumes_dir, 'volume-%s' % volume.id)))
        self.assertIsNone(wf.worker_row(self.context, 'volume', volume.id))

    def test_another_worker_completes_it_at_start_up(self):
        volume, dead = self.extend_on_a_worker_that_dies('doomed')

        def is_down():
            dead.refresh()
            return not dead.is_up(self.DOWN_TIME)

        self.wait(is_down, 'the killed worker to be down')
        rescuer = self.start_worker('rescuer',
                                    'volapi.volume.drivers.file.FileDriver')
        rescuer.wait_for_log(
            'start-up reconciliation re-drove 1 operation(s)')
        self.assertCompleted(volume)
        self.assertEqual(0, rescuer.terminate())

    def test_restarted_worker_takes_back_its_own_work(self):
        # Same host: the new process reuses the services row, so it knows
        # at once that the row's operations are from its previous life,
        # without waiting for service_down_time.
        volume, _ = self.extend_on_a_worker_that_dies('phoenix')
        again = self.start_worker('phoenix',
                                  'volapi.volume.drivers.file.FileDriver')
        again.wait_for_log(
            'start-up reconciliation re-drove 1 operation(s)')
        self.assertCompleted(volume)
        self.assertEqual(0, again.terminate())
