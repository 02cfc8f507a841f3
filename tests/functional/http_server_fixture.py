"""The composed WSGI application (``volapi.wsgi.api:application``) served by
gunicorn in a separate process on 127.0.0.1, on this test process's
database: real HTTP, real concurrency, connections of its own."""
import os
import subprocess
import sys
import tempfile
import time

import fixtures
import requests
from testtools import content
from testtools import content_type

from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures


class GunicornServer(fixtures.Fixture):

    def __init__(self, workers=2, threads=16, timeout=30,
                 max_pool_size=None):
        super().__init__()
        self.workers, self.threads, self.timeout = workers, threads, timeout
        self.max_pool_size = max_pool_size

    def _setUp(self):
        state = self.useFixture(fixtures.TempDir()).path
        conf = os.path.join(state, 'volapi.conf')
        database = {'connection': volapi_fixtures.prepared_url()}
        if self.max_pool_size is not None:
            database['max_pool_size'] = self.max_pool_size
        volapi_fixtures.write_config(conf, {
            None: {'state_path': state, 'transport_url': 'fake://'},
            'database': database})
        port = worker_fixtures.free_port()
        self.url = 'http://127.0.0.1:%d' % port
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, '-m', 'gunicorn', '-k', 'gthread',
             '-w', str(self.workers), '--threads', str(self.threads),
             # Clients keep their connections between rounds; gunicorn's
             # 2 s default would close them under a client's request.
             '--keep-alive', '300',
             '-b', '127.0.0.1:%d' % port, 'volapi.wsgi.api:application'],
            env=dict(os.environ, VOLAPI_CONFIG_FILE=conf),
            stdout=self.log, stderr=subprocess.STDOUT)
        self.addCleanup(self._stop)
        # Shown with a failing test (testtools gathers fixture details).
        self.addDetail('gunicorn-log', content.Content(
            content_type.UTF8_TEXT, lambda: [self.output().encode()]))
        self._wait_until_serving()

    def _wait_until_serving(self):
        deadline = time.monotonic() + self.timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError('gunicorn exited:\n%s' % self.output())
            try:
                requests.get(self.url + '/', timeout=5)
                return
            except requests.RequestException:
                if time.monotonic() > deadline:
                    raise RuntimeError('gunicorn did not start:\n%s'
                                       % self.output())
                time.sleep(0.1)

    def output(self):
        if self.log.closed:
            return ''
        self.log.seek(0)
        return self.log.read().decode(errors='replace')

    def _stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
