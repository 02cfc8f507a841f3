"""The request benches' HTTP client (bench/keepalive_client.py) and the
two benches that use it, against real servers: a standard-library HTTP/1.1
server that closes keep-alive connections without notice (as gunicorn does
when its keepalive timeout expires), and volapi under gunicorn."""
import contextlib
import http.server
import io
import json
import os
import sys
import threading

import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from tests import volume_rows as rows
from tests.functional import http_server_fixture

sys.path.append(os.path.join(os.path.dirname(__file__), '..', '..', 'bench'))
import allocations  # noqa: E402
import keepalive_client  # noqa: E402
import volume_actions  # noqa: E402


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'   # keep-alive unless the server closes

    def setup(self):
        super().setup()
        self.answered = 0
        with self.server.lock:
            self.server.connections += 1

    def do_GET(self):
        self._answer()

    do_POST = do_PUT = do_DELETE = do_GET

    def _answer(self):
        body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
        with self.server.lock:
            self.server.seen.append((self.command, self.path))
        if self.path.endswith('/drop'):
            self.close_connection = True   # no answer at all
            return
        status, reply = self.server.reply(self.command, self.path, body,
                                          self.headers)
        content = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(content)))
        self.end_headers()
        self.wfile.write(content)
        self.answered += 1
        # Close after this many answers, without a "Connection: close":
        # the client finds out on its next request.
        self.close_connection = self.answered == self.server.close_after

    def log_message(self, format, *args):
        pass


def _echo(method, path, body, headers):
    return 200, {'method': method, 'path': path, 'body': body.decode(),
                 'token': headers.get('X-Auth-Token')}


class DroppingServer:
    """A threaded HTTP/1.1 server on 127.0.0.1 that closes each connection
    after ``close_after`` answers (never if 0); ``reply(method, path, body,
    headers)`` gives (status, JSON-able body)."""

    def __init__(self, test, close_after=0, reply=_echo):
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      _Handler)
        self.server.daemon_threads = True
        self.server.lock = threading.Lock()
        self.server.connections = 0
        self.server.seen = []
        self.server.close_after = close_after
        self.server.reply = reply
        self.url = 'http://127.0.0.1:%d' % self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever,
                                  kwargs={'poll_interval': 0.05},
                                  daemon=True)
        thread.start()
        test.addCleanup(thread.join)
        test.addCleanup(self.server.server_close)
        test.addCleanup(self.server.shutdown)

    @property
    def connections(self):
        return self.server.connections

    @property
    def seen(self):
        return self.server.seen


class KeepAliveConnectionTest(base.TestCase):

    def connect(self, url):
        connection = keepalive_client.Connection(url, timeout=10)
        self.addCleanup(connection.close)
        return connection

    def test_requests_share_one_connection_under_the_url_path(self):
        server = DroppingServer(self)
        connection = self.connect(server.url + '/placement/')
        for n in range(5):
            status, body = connection.request(
                'PUT', '/allocations/%d' % n, b'{"n": %d}' % n,
                {'X-Auth-Token': 'admin'})
            self.assertEqual(200, status)
            self.assertEqual({'method': 'PUT', 'path': '/placement/'
                              'allocations/%d' % n, 'body': '{"n": %d}' % n,
                              'token': 'admin'}, json.loads(body))
        self.assertEqual(1, server.connections)
        self.assertEqual(0, connection.reconnects)

    def test_request_on_a_dropped_connection_is_sent_again_once(self):
        server = DroppingServer(self, close_after=2)
        connection = self.connect(server.url)
        for n in range(7):
            status, body = connection.request('POST', '/r/%d' % n, b'x')
            self.assertEqual((200, '/r/%d' % n),
                             (status, json.loads(body)['path']))
        # Requests 3, 5 and 7 found their connection closed under them.
        self.assertEqual(3, connection.reconnects)
        self.assertEqual(4, server.connections)
        self.assertEqual(['/r/%d' % n for n in range(7)],
                         [path for _, path in server.seen])

    def test_a_second_drop_fails_the_request_and_the_next_one_reconnects(
            self):
        server = DroppingServer(self)
        connection = self.connect(server.url)
        self.assertRaises(keepalive_client.DROPPED, connection.request,
                          'POST', '/drop', b'x')
        self.assertEqual([('POST', '/drop')] * 2, server.seen)
        self.assertEqual(1, connection.reconnects)
        self.assertEqual(200, connection.request('GET', '/ok')[0])
        self.assertEqual(1, connection.reconnects)


def _run(main, argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue()


def _volume_api(method, path, body, headers):
    if method == 'GET':
        return 200, {'volume': {'status': 'available'}}
    return 202, {}


class VolumeActionsReconnectTest(base.TestCase):

    def test_reconnects_are_counted_and_every_request_answered(self):
        # Every third request finds its connection closed by the server.
        server = DroppingServer(self, close_after=2, reply=_volume_api)
        code, out = _run(volume_actions.main, [
            server.url, '--volume-id', 'v1,v2', '--clients', '2',
            '--duration', '0.3'])
        self.assertEqual(0, code)
        header, row = out.splitlines()[1:3]
        self.assertEqual(['clients', 'req/s', 'p50', 'ms', 'p99', 'ms',
                          'client', 'ms', 'statuses'], header.split())
        fields = row.split()
        answered = int(fields[5].split(':')[1])
        reconnects = int(fields[6].split(':')[1])
        self.assertEqual('202', fields[5].split(':')[0])
        self.assertEqual('reconnects', fields[6].split(':')[0])
        self.assertGreater(reconnects, 0)
        # The set-up connection (it waited for 'available') and one per
        # client, then one more per reconnect.
        self.assertEqual(1 + 2 + reconnects, server.connections)
        # Every request sent reached the server once; besides the measured
        # ones, each client may have sent a last unreserve.
        posts = [p for m, p in server.seen if m == 'POST']
        self.assertTrue(answered <= len(posts) <= answered + 2,
                        (answered, len(posts)))
        self.assertGreater(float(fields[4]), 0)   # client ms


@testtools.skipIf(volapi_fixtures.backend_name() != 'sqlite',
                  'the benches speak HTTP and do not depend on the '
                  'database: they run once, in the SQLite run')
class BenchScriptsTest(base.DatabaseTestCase):
    """Both benches end to end, briefly, against volapi under gunicorn."""

    def setUp(self):
        super().setUp()
        self.server = self.useFixture(http_server_fixture.GunicornServer(
            workers=1, threads=4))

    def test_volume_actions(self):
        volumes = [rows.volume(self.context, project_id='bench')
                   for _ in range(2)]
        code, out = _run(volume_actions.main, [
            self.server.url, '--volume-id', ','.join(v.id for v in volumes),
            '--clients', '1,2', '--duration', '0.3'])
        self.assertEqual(0, code)
        lines = out.splitlines()
        for level, line in zip((1, 2), lines[2:4]):
            clients, rate, p50, p99, client_ms, statuses = line.split()
            self.assertEqual(str(level), clients)
            self.assertGreater(float(rate), 0)
            self.assertGreater(float(client_ms), 0)
            self.assertRegex(statuses, r'^202:\d+$')
        for volume in volumes:
            volume.refresh()
            self.assertEqual('available', volume.status)

    def test_allocations(self):
        code, out = _run(allocations.main, [
            self.server.url + '/placement', '--clients', '1,2',
            '--duration', '0.3', '--contention-clients', '2',
            '--contention-duration', '0.3'])
        self.assertEqual(0, code, out)
        rows_printed = [line.split() for line in out.splitlines()
                        if line.startswith(self.server.url)]
        # Two levels, the contention case, the invariant.
        self.assertEqual(4, len(rows_printed), out)
        for fields in rows_printed[:3]:
            ok, other, client_ms, codes = (fields[2], fields[7], fields[8],
                                           fields[9:])
            self.assertGreater(int(ok), 0)
            self.assertEqual('0', other)
            self.assertGreater(float(client_ms), 0)
            self.assertEqual(['-'], codes)
        self.assertEqual(['OK', '(21', 'providers)'], rows_printed[3][1:])
