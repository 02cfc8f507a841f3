"""A volapi service's presence in the ``services`` table, and the periodic
threads it runs.

A service registers (host, binary) once and then heartbeats: every
``report_interval`` seconds one compare-and-swap bumps ``report_count`` and
``heartbeat_at``. Others judge it by ``heartbeat_at``: older than
``service_down_time`` means down, and its operations in flight are repaired
by the cleanup (volapi.volume.cleanup).
"""
import threading

from oslo_log import log as logging

from db import exceptions as db_exc
import objects

LOG = logging.getLogger(__name__)


class Periodic:
    """Runs ``fn()`` every ``interval`` seconds in a daemon thread until
    stopped; an exception is logged and the next run happens on time."""

    def __init__(self, name, interval, fn, run_now=False):
        self.name, self.interval, self.fn = name, interval, fn
        self._run_now = run_now
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=name,
                                        daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _loop(self):
        if self._run_now:
            self._run()
        while not self._stopped.wait(self.interval):
            self._run()

    def _run(self):
        try:
            self.fn()
        except Exception:
            LOG.exception('%s failed; retrying in %ss', self.name,
                          self.interval)

    def stop(self):
        self._stopped.set()
        if self._thread.is_alive() and \
                self._thread is not threading.current_thread():
            self._thread.join()


class ServiceHeartbeat:
    """Registers this process in ``services`` and keeps it alive there."""

    def __init__(self, context, host, binary, topic, report_interval,
                 cluster_name=None):
        self.context = context
        self.host, self.binary, self.topic = host, binary, topic
        self.cluster_name = cluster_name
        self.report_interval = report_interval
        self.service = None
        self._periodic = None

    @property
    def service_id(self):
        return self.service.id

    def start(self):
        self.service = objects.Service.register(
            self.context, self.host, self.binary, self.topic,
            cluster_name=self.cluster_name)
        self.beat()
        LOG.info('service %s %s registered as id %d', self.binary,
                 self.host, self.service.id)
        self._periodic = Periodic('heartbeat', self.report_interval,
                                  self.beat).start()
        return self

    def beat(self):
        if self.service.heartbeat():
            return
        # Our compare-and-swap missed: someone else reported as us, or an
        # operator deleted our row. Take the row as it is now and go on.
        try:
            self.service.refresh()
        except db_exc.NotFound:
            self.service = None
        if self.service is None or self.service.deleted:
            LOG.warning('service %s %s: its row was deleted; registering '
                        'again', self.binary, self.host)
            self.service = objects.Service.register(
                self.context, self.host, self.binary, self.topic,
                cluster_name=self.cluster_name)
        else:
            LOG.warning('service %s %s: another process reports under the '
                        'same host and binary (report_count moved to %d)',
                        self.binary, self.host, self.service.report_count)
        self.service.heartbeat()

    def stop(self):
        if self._periodic is not None:
            self._periodic.stop()
