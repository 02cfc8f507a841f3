"""volapi.wsgi: one WSGI application serving the volume API at / and
Placement under /placement, in process and under gunicorn (production's
"N API processes under a WSGI server")."""
import json
import os
import socket
import subprocess
import sys

import webtest

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf
from volapi import wsgi
from volapi.wsgi import server as http_server

VOLUME_HEADERS = {'X-Auth-Token': 'user1:project1',
                  'OpenStack-API-Version': 'volume 3.59'}
PLACEMENT_HEADERS = {'X-Auth-Token': 'admin',
                     'OpenStack-API-Version': 'placement 1.39'}


class ComposedApplicationTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.app = webtest.TestApp(wsgi.init_application(self.config.conf))

    def test_volume_api_at_the_root(self):
        versions = self.app.get('/', status=300).json['versions']
        self.assertEqual(['v3.0'], [v['id'] for v in versions])
        self.app.get('/v3/project1/volumes', headers=VOLUME_HEADERS,
                     status=200)

    def test_placement_under_its_prefix(self):
        for path in ('/placement', '/placement/'):
            root = self.app.get(path, status=200).json
            self.assertEqual('1.0', root['versions'][0]['min_version'])
        body = self.app.post_json(
            '/placement/resource_providers', {'name': 'pool-1'},
            headers=PLACEMENT_HEADERS, status=200).json
        self.assertEqual('pool-1', body['name'])
        # Links are built from SCRIPT_NAME: they keep the prefix.
        self.assertTrue(all(link['href'].startswith('/placement/')
                            for link in body['links']))
        self.assertEqual(['pool-1'], [p['name'] for p in self.app.get(
            '/placement/resource_providers', headers=PLACEMENT_HEADERS,
            status=200).json['resource_providers']])

    def test_a_path_that_only_starts_like_the_prefix_is_the_volume_api(self):
        response = self.app.get('/placementx', headers=VOLUME_HEADERS,
                                status=404)
        self.assertIn('itemNotFound', response.text)


class BodyFramingTest(base.DatabaseTestCase):
    """Bodies shorter than their Content-Length (both APIs answered 500)
    and chunked bodies (read as empty), over volapi's own HTTP server:
    each API answers in its own format."""

    def setUp(self):
        super().setUp()
        self.useFixture(wf.PrivateFakeTransport(self))
        server = http_server.make_server(
            wsgi.init_application(self.config.conf), ('127.0.0.1', 0),
            keepalive_timeout=1)
        serving = http_server.Serving(server).start()
        self.addCleanup(serving.stop)
        self.address = server.server_address

    def answer(self, path, token, close,
               framing=b'Content-Length: 100\r\n\r\n{"name": 1'):
        """(status, JSON body) of a POST of ``framing`` (by default 10 of
        100 announced bytes); the client then closes its side or just
        stops sending."""
        with socket.create_connection(self.address, timeout=10) as sock:
            sock.sendall(b'POST %s HTTP/1.1\r\nHost: x\r\nX-Auth-Token: %s'
                         b'\r\nContent-Type: application/json\r\n%s'
                         % (path, token, framing))
            if close:
                sock.shutdown(socket.SHUT_WR)
            answer = b''
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        head, _, body = answer.partition(b'\r\n\r\n')
        return int(head.split()[1]), json.loads(body) if body else None

    def test_volume_api(self):
        status, body = self.answer(b'/v3/volumes', b'user1:project1', True)
        self.assertEqual(400, status)
        self.assertIn('ended after 10 of the 100 bytes',
                      body['badRequest']['message'])
        status, body = self.answer(b'/v3/volumes', b'user1:project1', False)
        self.assertEqual(408, status)
        self.assertIn('did not arrive', body['computeFault']['message'])

    def test_placement(self):
        path = b'/placement/resource_providers'
        status, body = self.answer(path, b'admin', True)
        self.assertEqual(400, status)
        self.assertIn('ended after 10 of the 100 bytes',
                      body['errors'][0]['detail'])
        status, body = self.answer(path, b'admin', False)
        self.assertEqual(408, status)
        self.assertIn('did not arrive', body['errors'][0]['detail'])

    def test_chunked_bodies(self):
        self.useFixture(wf.Pools(self))
        chunked = b'Transfer-Encoding: chunked\r\n\r\n'
        status, body = self.answer(
            b'/v3/volumes', b'user1:project1', False,
            chunked + b'5\r\n{"vol\r\n12;ext=1\r\nume": {"size": 1}}\r\n'
            b'0\r\nTrailer: x\r\n\r\n')
        self.assertEqual((202, 1), (status, body['volume']['size']))
        status, body = self.answer(
            b'/placement/resource_providers', b'admin', False,
            chunked + b'5\r\n{"nam\r\n8\r\ne": "x"}\r\n0\r\n\r\n')
        # Placement 1.0: created, no body.
        self.assertEqual(201, status)
        for framing, problem in (
                (b'ZZ\r\n{}\r\n0\r\n\r\n', "'ZZ' is not a chunk size"),
                (b'2\r\n{}XX0\r\n\r\n', 'does not end with CRLF'),
                (b'10\r\n{}', 'ended inside a chunk')):
            status, body = self.answer(b'/v3/volumes', b'user1:project1',
                                       True, chunked + framing)
            self.assertEqual(400, status)
            self.assertIn(problem, body['badRequest']['message'])


class EntryModulesTest(base.DatabaseTestCase):

    def test_application_is_in_the_module_namespace_once_imported(self):
        # uWSGI looks ``application`` up in the module's dict, so it must
        # be built by the import itself, not on first attribute access.
        directory = self.useFixture(wf.fixtures.TempDir()).path
        conf = os.path.join(directory, 'volapi.conf')
        volapi_fixtures.database_config(
            conf, volapi_fixtures.prepared_url(), directory)
        check = ('import volapi.wsgi.api as api, volapi.wsgi.placement as p\n'
                 'print(callable(vars(api)["application"]),'
                 ' callable(vars(p)["application"]))')
        result = subprocess.run(
            [sys.executable, '-c', check], capture_output=True, text=True,
            env=dict(os.environ, VOLAPI_CONFIG_FILE=conf), timeout=120)
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertEqual('True True', result.stdout.strip())


class GunicornTest(base.DatabaseTestCase):

    def test_gunicorn_serves_volapi_wsgi_application(self):
        port = wf.free_port()
        server = self.useFixture(wf.Process(
            None, {None: {'state_path': self.useFixture(
                       wf.fixtures.TempDir()).path},
                   'database': {
                       'connection': volapi_fixtures.prepared_url()}},
            argv=[wf.sys.executable, '-m', 'gunicorn', '--workers', '1',
                  '--bind', '127.0.0.1:%d' % port,
                  'volapi.wsgi.api:application']))
        base_url = 'http://127.0.0.1:%d' % port
        self.assertEqual(300, server.wait_for_http(base_url).status_code)
        # A worker's pool on placement, for the volume to be scheduled to.
        self.useFixture(wf.Pools(self))
        import requests
        response = requests.post(
            base_url + '/v3/project1/volumes', headers=VOLUME_HEADERS,
            json={'volume': {'size': 1}}, timeout=30)
        # No worker listens: the volume waits in 'creating' (its workers
        # row makes the cleanup repair it if nobody ever takes it).
        self.assertEqual(202, response.status_code, response.text)
        self.assertEqual('creating', response.json()['volume']['status'])
        self.assertEqual(200, requests.get(
            base_url + '/placement/', timeout=30).status_code)
        self.assertEqual(0, server.terminate())
