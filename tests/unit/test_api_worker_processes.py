"""volapi.wsgi.workers: a worker process stops on a termination its parent
had already been asked for when it forked (its copy of the parent's event,
set by the inherited SIGTERM/SIGINT handlers, is the one it waits on)."""
import os
import threading
import time

from tests import base
from volapi.wsgi import server as http_server
from volapi.wsgi import workers


def _app(environ, start_response):
    start_response('204 No Content', [])
    return []


class WorkerProcessTest(base.TestCase):

    def test_a_stop_requested_before_the_fork_stops_the_worker(self):
        server = http_server.make_server(None, ('127.0.0.1', 0))
        self.addCleanup(server.server_close)
        stopping = threading.Event()
        stopping.set()
        pid = workers._spawn(server, lambda: _app, stopping)
        deadline = time.monotonic() + 30
        while True:
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                self.fail('the worker process did not stop')
            time.sleep(0.05)
        self.assertEqual(0, os.waitstatus_to_exitcode(status))
