"""SIGTERM to a volapi-volume busy in its driver: it stops taking messages,
lets the operation finish and end its transition, then exits 0. Real
process, real RabbitMQ, the backend under test."""
import os
import signal
import time

import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf
from volapi.volume.drivers import file as file_driver

RABBIT_URL = volapi_fixtures.rabbit_url()


class SlowDriver(file_driver.FileDriver):
    """Announces the extend (a marker file), takes two seconds, does it."""

    def extend_volume(self, volume, new_size):
        open(os.path.join(self.volumes_dir, 'extending'), 'w').close()
        time.sleep(2)
        super().extend_volume(volume, new_size)


@testtools.skipIf(RABBIT_URL is None,
                  'VOLAPI_TEST_RABBIT_URL is not set: the worker process '
                  'gets its message over RabbitMQ')
class GracefulShutdownTest(base.DatabaseTestCase):

    def test_sigterm_lets_the_operation_in_progress_finish(self):
        rabbit = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        rabbit.server('draining@file')
        volumes_dir = self.useFixture(wf.fixtures.TempDir()).path
        worker = self.useFixture(wf.Process('volume', {
            None: {'host': 'draining', 'state_path': volumes_dir,
                   'transport_url': RABBIT_URL,
                   'volume_topic': rabbit.topic},
            'database': {'connection': volapi_fixtures.prepared_url()},
            'volume': {'volume_driver': '%s.SlowDriver' % __name__,
                       'volumes_dir': volumes_dir},
        }))
        worker.wait_for_log('RPC server listening')
        volume = wf.make_volume(self.context, status='available',
                                host='draining@file#file')
        path = os.path.join(volumes_dir, 'volume-%s' % volume.id)
        with open(path, 'wb') as f:
            f.truncate(1024 ** 3)
        wf.extend(self.context, volume, 2)
        deadline = time.time() + 30
        while not os.path.exists(os.path.join(volumes_dir, 'extending')):
            self.assertLess(time.time(), deadline, worker.log())
            time.sleep(0.05)
        worker.process.send_signal(signal.SIGTERM)
        self.assertEqual(0, worker.process.wait(60), worker.log())
        volume.refresh()
        self.assertEqual(('available', 2), (volume.status, volume.size))
        self.assertEqual(2 * 1024 ** 3, os.path.getsize(path))
        self.assertIsNone(wf.worker_row(self.context, 'volume', volume.id))

    def test_sigusr2_prints_a_guru_meditation_report(self):
        rabbit = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        state = self.useFixture(wf.fixtures.TempDir()).path
        worker = self.useFixture(wf.Process('volume', {
            None: {'host': 'reporting', 'state_path': state,
                   'transport_url': RABBIT_URL,
                   'volume_topic': rabbit.topic},
            'database': {'connection': volapi_fixtures.prepared_url()},
            'volume': {'volumes_dir': state},
        }))
        worker.wait_for_log('RPC server listening')
        worker.process.send_signal(signal.SIGUSR2)
        worker.wait_for_log('Guru Meditation')
        worker.wait_for_log('Threads')
        self.assertIn('reporting', worker.log())  # the configuration
        worker.process.send_signal(signal.SIGTERM)
        self.assertEqual(0, worker.process.wait(60), worker.log())
