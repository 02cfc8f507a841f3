"""A whole volume worker (VolumeWorker: file driver, services
row, RPC server) running in this process on the test's private in-memory
transport, so API requests complete end to end."""
import datetime
import time

import fixtures
from oslo_utils import timeutils

import objects

from volapi.volume import worker as volume_worker


class RunningWorker(fixtures.Fixture):

    def __init__(self, test, host='worker-1', backup_path=None):
        super().__init__()
        self.test, self.host = test, host
        self.backup_path = backup_path

    def _setUp(self):
        volumes_dir = self.useFixture(fixtures.TempDir()).path
        self.test.config.set('volume', volumes_dir=volumes_dir)
        self.test.config.set('backup', backup_path=self.backup_path or
                             self.useFixture(fixtures.TempDir()).path)
        self.test.config.set(host=self.host)
        self.worker = volume_worker.VolumeWorker(self.test.config.conf)
        self.worker.start(unclaimed_timeout=0)
        self.addCleanup(self.worker.stop)

    def mark_down(self):
        """Stop the heartbeat and date the last one older than
        service_down_time: the worker counts as down."""
        self.worker.heartbeat.stop()
        service = objects.Service.get_by_id(
            self.test.context, self.worker.heartbeat.service_id)
        service.heartbeat(now=timeutils.utcnow() - datetime.timedelta(
            seconds=self.test.config.conf.service_down_time + 1))


def wait_for(fetch, done, timeout=15.0, interval=0.02):
    """Poll ``fetch()`` until ``done(value)``; the last value, or fail."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError('still not done after %ss: %r'
                                 % (timeout, value))
        time.sleep(interval)
