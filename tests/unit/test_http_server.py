"""volapi.wsgi.server: the HTTP server of volapi-api and volapi-all, with
HTTP/1.1 keep-alive, over real sockets."""
import http.client
import socket
import threading
import time

import fixtures

from tests import base
from volapi.wsgi import server as http_server


def app(environ, start_response):
    """/read: reads the body; /ignore: does not; /chunks: a body of two
    chunks and no length; /fail: raises; else 'ok'."""
    path = environ['PATH_INFO']
    if path == '/fail':
        raise RuntimeError('failed on purpose')
    body = b'ok'
    if path == '/read':
        body = environ['wsgi.input'].read(
            int(environ.get('CONTENT_LENGTH') or 0))
    start_response('200 OK', [('Content-Type', 'text/plain')])
    if path == '/chunks':
        return [b'one', b'two']
    return [body]


class ServerTestCase(base.TestCase):

    def serve(self, keepalive_timeout=60):
        server = http_server.make_server(app, ('127.0.0.1', 0),
                                         keepalive_timeout)
        serving = http_server.Serving(server).start()
        self.stopped = False

        def stop():
            if not self.stopped:
                serving.stop()
        self.addCleanup(stop)
        self.serving = serving
        return server.server_address

    def connection(self, address):
        conn = http.client.HTTPConnection(*address, timeout=10)
        self.addCleanup(conn.close)
        return conn

    def get(self, conn, path='/', body=None, headers=None, method='GET'):
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response, response.read()

    @staticmethod
    def exchange(address, request):
        """Send ``request``; what the server answers until it closes the
        connection (a socket timeout if it does not)."""
        with socket.create_connection(address, timeout=10) as sock:
            sock.sendall(request)
            answer = b''
            while True:
                data = sock.recv(65536)
                if not data:
                    return answer
                answer += data

    @staticmethod
    def closed_by_server(sock, within=1.0):
        """Whether the server closed ``sock`` (EOF ``within`` seconds)."""
        sock.settimeout(within)
        try:
            return sock.recv(1) == b''
        except socket.timeout:
            return False


class KeepAliveTest(ServerTestCase):

    def test_requests_follow_each_other_on_one_connection(self):
        conn = self.connection(self.serve())
        response, body = self.get(conn)
        sock = conn.sock
        self.assertEqual((200, b'ok'), (response.status, body))
        self.assertIsNone(response.getheader('Connection'))
        for _ in range(3):
            response, body = self.get(conn, '/read', b'x' * 100,
                                      {'Content-Type': 'text/plain'})
            self.assertEqual((200, b'x' * 100), (response.status, body))
        self.assertIs(sock, conn.sock)

    def test_a_body_left_unread_is_skipped(self):
        conn = self.connection(self.serve())
        response, _ = self.get(conn, '/ignore', b'y' * 10000, method='POST')
        sock = conn.sock
        self.assertIsNone(response.getheader('Connection'))
        response, body = self.get(conn, '/read', b'next', method='POST')
        self.assertEqual((200, b'next'), (response.status, body))
        self.assertIs(sock, conn.sock)

    def test_a_large_body_left_unread_closes_the_connection(self):
        # The body is announced, not sent: a server closing with unread
        # bytes would reset the connection, and the test would race it.
        answer = self.exchange(
            self.serve(), b'POST /ignore HTTP/1.1\r\nHost: x\r\n'
            b'Content-Length: %d\r\n\r\n' % (http_server.MAX_DRAINED + 1))
        self.assertIn(b'Connection: close', answer)
        self.assertTrue(answer.endswith(b'ok'))

    def test_a_response_without_length_closes_the_connection(self):
        conn = self.connection(self.serve())
        response, body = self.get(conn, '/chunks')
        self.assertEqual(b'onetwo', body)
        self.assertEqual('close', response.getheader('Connection'))
        self.assertIsNone(response.getheader('Content-Length'))

    def test_the_client_may_ask_to_close(self):
        conn = self.connection(self.serve())
        response, _ = self.get(conn, headers={'Connection': 'close'})
        self.assertEqual('close', response.getheader('Connection'))

    def test_http_1_0_gets_one_request_per_connection(self):
        answer = self.exchange(self.serve(), b'GET / HTTP/1.0\r\n\r\n')
        self.assertIn(b'Connection: close', answer)
        self.assertTrue(answer.endswith(b'ok'))

    def test_a_chunked_request_closes_the_connection(self):
        conn = self.connection(self.serve())
        conn.putrequest('POST', '/ignore')
        conn.putheader('Transfer-Encoding', 'chunked')
        conn.endheaders(b'3\r\nabc\r\n0\r\n\r\n')
        response = conn.getresponse()
        response.read()
        self.assertEqual('close', response.getheader('Connection'))

    def test_an_invalid_length_closes_the_connection(self):
        # Thousands of digits: more than int() converts.
        for length in (b'1x', b'\xc2\xb2', b'9' * 5000):
            answer = self.exchange(
                self.serve(), b'POST /ignore HTTP/1.1\r\nHost: x\r\n'
                b'Content-Length: %s\r\n\r\n' % length)
            self.assertIn(b'Connection: close', answer)

    def test_a_failure_answers_500_and_closes(self):
        conn = self.connection(self.serve())
        logged = self.useFixture(fixtures.FakeLogger())
        response, _ = self.get(conn, '/fail')
        self.assertEqual(500, response.status)
        self.assertIn('GET /fail failed', logged.output)
        self.assertIn('failed on purpose', logged.output)
        self.assertEqual('close', response.getheader('Connection'))

    def test_expect_100_continue_is_answered_before_the_body(self):
        address = self.serve()
        with socket.create_connection(address, timeout=10) as sock:
            sock.sendall(b'POST /read HTTP/1.1\r\nHost: x\r\n'
                         b'Content-Length: 4\r\nExpect: 100-continue\r\n\r\n')
            self.assertTrue(sock.recv(100).startswith(
                b'HTTP/1.1 100 Continue'))
            sock.sendall(b'body')
            self.assertTrue(sock.recv(1000).endswith(b'body'))

    def test_no_keep_alive_when_its_timeout_is_0(self):
        conn = self.connection(self.serve(keepalive_timeout=0))
        response, body = self.get(conn)
        self.assertEqual(b'ok', body)
        self.assertEqual('close', response.getheader('Connection'))


class IdleConnectionTest(ServerTestCase):

    def test_an_idle_connection_is_closed_after_the_timeout(self):
        conn = self.connection(self.serve(keepalive_timeout=2))
        self.get(conn)
        self.assertFalse(self.closed_by_server(conn.sock, within=1))
        self.assertTrue(self.closed_by_server(conn.sock, within=5))

    def test_stopping_closes_idle_connections_at_once(self):
        conn = self.connection(self.serve(keepalive_timeout=60))
        self.get(conn)
        started = time.monotonic()
        self.serving.stop()
        self.stopped = True
        self.assertLess(time.monotonic() - started, 5)
        self.assertTrue(self.closed_by_server(conn.sock))

    def test_a_request_in_progress_is_answered_when_stopping(self):
        release = threading.Event()
        entered = threading.Event()

        def slow(environ, start_response):
            entered.set()
            release.wait(10)
            start_response('200 OK', [])
            return [b'done']
        address = self.serve()
        self.serving.server.set_app(slow)
        conn = self.connection(address)
        conn.request('GET', '/')
        self.assertTrue(entered.wait(10))
        stopper = threading.Thread(target=self.serving.stop)
        stopper.start()
        self.stopped = True
        deadline = time.monotonic() + 10
        while not self.serving.server.stopping and \
                time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()
        response = conn.getresponse()
        self.assertEqual((200, b'done'), (response.status, response.read()))
        self.assertEqual('close', response.getheader('Connection'))
        stopper.join(10)
        self.assertFalse(stopper.is_alive())


class StalledClientTest(ServerTestCase):
    """A client that stops sending part-way through a request: its thread
    is freed after the timeout, with no traceback."""

    def stalled(self, request, keepalive_timeout):
        address = self.serve(keepalive_timeout=keepalive_timeout)
        stderr = self.useFixture(fixtures.StringStream('stderr')).stream
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', stderr))
        logged = self.useFixture(fixtures.FakeLogger())
        with socket.create_connection(address, timeout=10) as sock:
            sock.sendall(request)
            started = time.monotonic()
            self.assertTrue(self.closed_by_server(sock, within=8))
            self.assertLess(time.monotonic() - started, 8)
        stderr.seek(0)
        self.assertEqual('', stderr.read())
        self.assertNotIn('Traceback', logged.output)

    def test_headers_that_stop_coming(self):
        self.stalled(b'GET / HTTP/1.1\r\nHost: x\r\n', keepalive_timeout=1)

    def test_without_keep_alive_a_read_times_out_too(self):
        self.useFixture(fixtures.MonkeyPatch(
            'volapi.wsgi.server.REQUEST_READ_TIMEOUT', 1))
        self.stalled(b'GET / HTTP/1.1\r\nHost: x\r\n', keepalive_timeout=0)

    def test_a_body_that_stops_coming(self):
        # The application's read times out and it answers: the connection
        # then closes (a timed-out socket reads nothing more).
        def answering(environ, start_response):
            try:
                environ['wsgi.input'].read(10)
            except OSError:
                start_response('408 Request Timeout',
                               [('Content-Length', '0')])
                return [b'']
        address = self.serve(keepalive_timeout=1)
        self.serving.server.set_app(answering)
        stderr = self.useFixture(fixtures.StringStream('stderr')).stream
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', stderr))
        with socket.create_connection(address, timeout=10) as sock:
            sock.sendall(b'POST / HTTP/1.1\r\nHost: x\r\n'
                         b'Content-Length: 10\r\n\r\nabc')
            answer = sock.recv(1000)
            self.assertTrue(self.closed_by_server(sock, within=8))
        self.assertTrue(answer.startswith(b'HTTP/1.1 408'), answer)
        self.assertIn(b'Connection: close', answer)
        stderr.seek(0)
        self.assertEqual('', stderr.read())


class BacklogTest(base.TestCase):

    def test_a_burst_of_connections_is_queued_not_dropped(self):
        # Nothing accepts while the burst arrives, as when every thread is
        # busy: a connection beyond the listen backlog would have its SYN
        # dropped and wait a second for the retransmission.
        server = http_server.make_server(None, ('127.0.0.1', 0))
        self.addCleanup(server.server_close)
        clients = []
        for _ in range(64):
            client = socket.socket()
            self.addCleanup(client.close)
            client.settimeout(0.5)
            client.connect(server.server_address)
            clients.append(client)
        server.socket.settimeout(1)
        for _ in clients:
            server.socket.accept()[0].close()
