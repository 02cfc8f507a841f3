"""volapi-api with [api] workers = 2: two processes serve one port, a
dead one is replaced, SIGTERM stops them all, and so does the parent's
death.

Real processes (volapi.cmd.api) on this lane's database; each request on a
new connection (``requests.get`` opens one per call), so the kernel hands
each one to whichever process accepts first.
"""
import concurrent.futures
import re
import signal
import time

import psutil
import requests

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf

PROJECT = 'workers-project'
SERVED_BY = re.compile(r'^\S+ \S+ (\d+) INFO volapi.wsgi.server .* "GET /v3/',
                       re.MULTILINE)


def _dead(process):
    """Ended (a zombie until its parent reaps it, or gone)."""
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


class ApiWorkersTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        state = self.useFixture(wf.fixtures.TempDir()).path
        port = wf.free_port()
        self.api = self.useFixture(wf.Process('api', {
            None: {'state_path': state, 'transport_url': 'fake:/'},
            'database': {'connection': volapi_fixtures.prepared_url()},
            'api': {'workers': 2},
        }, args=['--bind', '127.0.0.1:%d' % port]))
        self.url = 'http://127.0.0.1:%d/v3/%s/volumes' % (port, PROJECT)
        self.parent = psutil.Process(self.api.process.pid)
        self.addCleanup(self._kill_children)
        self.wait_until(lambda: self.api.log().count('serving HTTP on') == 2)

    def _kill_children(self):
        for child in self._children():
            child.kill()

    def _children(self):
        try:
            return self.parent.children()
        except psutil.NoSuchProcess:
            return []

    def wait_until(self, condition, timeout=60):
        deadline = time.monotonic() + timeout
        while not condition():
            if self.api.process.poll() is not None or \
                    time.monotonic() > deadline:
                self.fail('not reached (exit code %s):\n%s'
                          % (self.api.process.poll(), self.api.log()))
            time.sleep(0.1)

    def get(self):
        return requests.get(self.url, timeout=30, headers={
            'X-Auth-Token': 'user:%s' % PROJECT}).status_code

    def served_by(self):
        return {int(pid) for pid in SERVED_BY.findall(self.api.log())}

    def test_both_processes_serve_the_port(self):
        children = {c.pid for c in self._children()}
        self.assertEqual(2, len(children))
        self.assertNotIn(self.parent.pid, children)
        # Nothing is connected before the fork, or the children would
        # share the parent's connection: the parent has its listening
        # socket only, and no thread that could hold a lock a child would
        # inherit held.
        self.assertEqual(['LISTEN'], [
            c.status for c in self.parent.connections('inet')])
        self.assertEqual(1, self.parent.num_threads())
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for _ in range(10):
                self.assertEqual({200}, set(pool.map(
                    lambda _: self.get(), range(40))))
                if self.served_by() == children:
                    break
        self.assertEqual(children, self.served_by())

    def test_a_dead_process_is_replaced(self):
        first, second = self._children()
        first.send_signal(signal.SIGKILL)
        self.wait_until(lambda: _dead(first))
        # The other one serves meanwhile.
        self.assertEqual(200, self.get())
        self.wait_until(lambda: len(self._children()) == 2 and
                        first.pid not in {c.pid for c in self._children()})
        self.assertIn('API worker process %d ended (signal SIGKILL); '
                      'replacing it' % first.pid, self.api.log())
        self.wait_until(lambda: self.api.log().count('serving HTTP on') == 3)
        second.send_signal(signal.SIGKILL)
        self.wait_until(lambda: _dead(second))
        # Neither of the first two is left: a replacement answers.
        answered = len(SERVED_BY.findall(self.api.log()))
        self.assertEqual(200, self.get())
        # Its log line may follow the response it logs.
        self.wait_until(lambda: len(SERVED_BY.findall(self.api.log())) >
                        answered)
        last = int(SERVED_BY.findall(self.api.log())[-1])
        self.assertNotIn(last, (first.pid, second.pid))
        self.assertIn(last, {c.pid for c in self._children()})

    def test_processes_stop_when_the_parent_is_killed(self):
        children = self._children()
        self.api.process.kill()
        self.api.process.wait()
        gone, alive = psutil.wait_procs(children, timeout=30)
        self.assertEqual([], alive)

    def test_sigterm_stops_every_process(self):
        children = self._children()
        self.assertEqual(0, self.api.terminate())
        gone, alive = psutil.wait_procs(children, timeout=30)
        self.assertEqual([], alive)
        self.assertNotIn('Traceback', self.api.log())
