"""volapi-all as a user meets it: no configuration file, a fresh home
directory, one command. It makes its SQLite database and schema under
~/.local/state/volapi, serves HTTP on the address given, runs a worker over
the in-process transport, survives a restart and stops on SIGTERM."""
import os
import time

import requests
import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf

HEADERS = {'X-Auth-Token': 'user1:project1',
           'OpenStack-API-Version': 'volume 3.59'}


@testtools.skipIf(volapi_fixtures.backend_name() != 'sqlite',
                  'volapi-all is the embedded SQLite deployment; it is '
                  'tested once, in the SQLite run')
class EmbeddedDeploymentTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.home = self.useFixture(wf.fixtures.TempDir()).path
        self.state = os.path.join(self.home, '.local', 'state', 'volapi')
        self.port = wf.free_port()
        self.base = 'http://127.0.0.1:%d' % self.port

    def start(self):
        env = {'HOME': self.home, 'XDG_STATE_HOME': ''}
        process = self.useFixture(wf.Process(
            'all', None, args=['--bind', '127.0.0.1:%d' % self.port],
            env=env))
        process.wait_for_log('serving HTTP on')
        return process

    def wait_for_status(self, url, status, timeout=30):
        deadline = time.time() + timeout
        while True:
            volume = requests.get(url, headers=HEADERS, timeout=10).json()[
                'volume']
            if volume['status'] == status or time.time() > deadline:
                return volume
            time.sleep(0.1)

    def test_fresh_start_restart_and_sigterm(self):
        process = self.start()
        self.assertTrue(os.path.exists(os.path.join(self.state,
                                                    'volapi.sqlite')))
        self.assertEqual(300, requests.get(self.base, timeout=10).status_code)
        self.assertEqual(200, requests.get(self.base + '/placement/',
                                           timeout=10).status_code)
        response = requests.post(
            self.base + '/v3/project1/volumes', headers=HEADERS, timeout=10,
            json={'volume': {'size': 1, 'name': 'embedded'}})
        self.assertEqual(202, response.status_code, response.text)
        url = '%s/v3/project1/volumes/%s' % (self.base,
                                             response.json()['volume']['id'])
        volume = self.wait_for_status(url, 'available')
        self.assertEqual('available', volume['status'])
        volume_file = os.path.join(self.state, 'volumes',
                                   'volume-%s' % volume['id'])
        self.assertEqual(1024 ** 3, os.path.getsize(volume_file))
        self.assertEqual(0, process.terminate())
        self.assertIn('SIGTERM received', process.log())

        # Again, on the same state: the schema is already there, the volume
        # too, and the worker still serves it.
        process = self.start()
        response = requests.post(url + '/action', headers=HEADERS,
                                 json={'os-extend': {'new_size': 2}},
                                 timeout=10)
        self.assertEqual(202, response.status_code, response.text)
        volume = self.wait_for_status(url, 'available')
        self.assertEqual(2, volume['size'])
        self.assertEqual(2 * 1024 ** 3, os.path.getsize(volume_file))
        self.assertEqual(0, process.terminate())
