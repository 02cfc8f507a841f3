"""What a long-running process built before it serves is frozen out of the
garbage collector's sight (volapi.cmd.process.freeze_startup_heap): in the
API's worker processes once their application is built, and in the
commands that wait for SIGTERM (volapi-volume, volapi-all)."""
import gc
import http.client
import os
import signal
import threading

from tests import base
from volapi.cmd import process
from volapi.wsgi import server as http_server
from volapi.wsgi import workers


def _frozen_count(environ, start_response):
    body = str(gc.get_freeze_count()).encode()
    start_response('200 OK', [('Content-Length', str(len(body)))])
    return [body]


class StartupHeapTest(base.TestCase):

    def test_an_api_worker_process_serves_with_its_heap_frozen(self):
        server = http_server.make_server(None, ('127.0.0.1', 0))
        self.addCleanup(server.server_close)
        self.assertEqual(0, gc.get_freeze_count())
        pid = workers._spawn(server, lambda: _frozen_count,
                             threading.Event())

        def stop():
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
        self.addCleanup(stop)
        conn = http.client.HTTPConnection(*server.server_address, timeout=30)
        self.addCleanup(conn.close)
        conn.request('GET', '/')
        frozen = int(conn.getresponse().read())
        # The application and everything imported before it.
        self.assertGreater(frozen, 10000)

    def test_waiting_for_termination_freezes_the_heap(self):
        self.addCleanup(gc.unfreeze)
        stopping = threading.Event()
        stopping.set()
        process.wait_for_termination(stopping)
        self.assertGreater(gc.get_freeze_count(), 10000)
