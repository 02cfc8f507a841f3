"""The threaded HTTP server of ``volapi-api`` and ``volapi-all``.

The standard library's WSGI server, with a thread per connection and HTTP/1.1
keep-alive: a client's connection serves one request after another, as
Cinder's own server does, so a client polling a volume pays for neither a
TCP handshake nor a new thread per request. A connection closes after a
response that says so (``Connection: close``): when the client asks for
it or speaks HTTP/1.0 without keep-alive; when its request is chunked
(its body is decoded for the application) or its Content-Length is not a
number of bytes (the server could not tell where the next request
starts), or the application left more of the body unread than
MAX_DRAINED; when the response has no Content-Length or the application
failed; when the server stops. An idle connection closes
after ``[api] keepalive_timeout`` seconds without a request (0 turns
keep-alive off); a request whose line, headers or body stop coming for as
long (REQUEST_READ_TIMEOUT without keep-alive) closes too, after a 408 if
the application was reading its body.
"""
import socket
import socketserver
import sys
import threading
from wsgiref import simple_server

from oslo_log import log as logging

from volapi import request_text

LOG = logging.getLogger(__name__)

# Unread request body the server reads and discards to keep the connection
# open; more than this and the connection closes instead.
MAX_DRAINED = 64 * 1024
# The longest request line (the standard library's limit).
MAX_REQUEST_LINE = 65536
# Seconds a read of a request waits when keep-alive is off (Cinder's
# client_socket_timeout): a client that stops sending must not hold its
# thread forever. With keep-alive, its timeout bounds every read.
REQUEST_READ_TIMEOUT = 900


class _Body:
    """A request's body as the application reads it: at most its
    Content-Length from the connection, counting what is left, so the next
    request starts where this one ends."""

    def __init__(self, rfile, length):
        self._rfile = rfile
        self.left = length
        # A read that failed (timed out, connection reset): the socket's
        # file reads nothing more.
        self.broken = False

    def read(self, size=-1):
        return self._within(self._rfile.read, size)

    def readline(self, size=-1):
        return self._within(self._rfile.readline, size)

    def _within(self, read, size):
        if size is None or size < 0 or size > self.left:
            size = self.left
        try:
            data = read(size) if size else b''
        except OSError:
            self.broken = True
            raise
        self.left -= len(data)
        return data

    def readlines(self, hint=-1):
        return list(iter(self.readline, b''))

    def __iter__(self):
        return iter(self.readline, b'')

    def drain(self):
        """Read what the application left; False if that is too much (or
        the connection ended first)."""
        try:
            while self.left > 0 and self.left <= MAX_DRAINED and \
                    not self.broken:
                if not self.read(min(self.left, 8192)):
                    return False
        except OSError:
            return False
        return self.left == 0


class _ChunkedBody:
    """A chunked request body (``Transfer-Encoding: chunked``) as the
    application reads it: the data of its chunks, up to the last one.
    Framing that is not chunked encoding, or that ends before the last
    chunk, raises ValueError (a 400 for the body layer of each API)."""

    # A request that is chunked closes its connection: nothing is drained.
    left = 0

    def __init__(self, rfile):
        self._rfile = rfile
        self._in_chunk = 0
        self._done = False
        self.broken = False

    def read(self, size=-1):
        data = []
        wanted = size if size is not None and size >= 0 else None
        while not self._done and (wanted is None or wanted > 0):
            if not self._in_chunk:
                self._next_chunk()
                continue
            count = self._in_chunk if wanted is None else \
                min(self._in_chunk, wanted)
            part = self._read(count)
            if len(part) < count:
                raise self._malformed('the body ended inside a chunk')
            self._in_chunk -= count
            if not self._in_chunk and self._read(2) != b'\r\n':
                raise self._malformed('a chunk does not end with CRLF')
            data.append(part)
            if wanted is not None:
                wanted -= count
        return b''.join(data)

    def readline(self, size=-1):
        # Byte by byte: webob and the APIs read bodies with read().
        line = b''
        while not line.endswith(b'\n') and (size is None or size < 0 or
                                            len(line) < size):
            byte = self.read(1)
            if not byte:
                break
            line += byte
        return line

    def readlines(self, hint=-1):
        return list(iter(self.readline, b''))

    def __iter__(self):
        return iter(self.readline, b'')

    def drain(self):
        return False

    def _next_chunk(self):
        line = self._readline()
        if not line.endswith(b'\n'):
            raise self._malformed('the body ended before its last chunk')
        size = line.split(b';', 1)[0].strip()
        if not size or len(size) > 16 or any(
                c not in b'0123456789abcdefABCDEF' for c in size):
            raise self._malformed('%r is not a chunk size'
                                  % size[:20].decode('latin-1'))
        self._in_chunk = int(size, 16)
        if not self._in_chunk:
            # The last chunk: then trailers, up to an empty line.
            while self._readline().strip():
                pass
            self._done = True

    def _readline(self):
        try:
            return self._rfile.readline(MAX_REQUEST_LINE + 1)
        except OSError:
            self.broken = True
            raise

    def _read(self, count):
        try:
            return self._rfile.read(count)
        except OSError:
            self.broken = True
            raise

    def _malformed(self, problem):
        self.broken = True
        return ValueError('Malformed chunked body: %s.' % problem)


class _ResponseHandler(simple_server.ServerHandler):
    """One response, as HTTP/1.1. ``keep_alive``: the connection may serve
    another request once this one is sent; its headers say whether it
    does."""

    http_version = '1.1'

    def __init__(self, body, keep_alive, *args, **kwargs):
        super().__init__(body, *args, **kwargs)
        self.body = body
        self.keep_alive = keep_alive

    def cleanup_headers(self):
        super().cleanup_headers()
        # Without a length the body ends when the connection does; a body
        # the application left unread beyond what is drained cannot be
        # skipped.
        if 'Content-Length' not in self.headers or \
                self.body.left > MAX_DRAINED or self.body.broken or \
                self.request_handler.server.stopping:
            self.keep_alive = False
        if not self.keep_alive:
            self.headers['Connection'] = 'close'

    def handle_error(self):
        self.keep_alive = False
        super().handle_error()

    def log_exception(self, exc_info):
        # Into the service's log, not onto stderr.
        LOG.error('%s %s failed', self.environ.get('REQUEST_METHOD'),
                  self.environ.get('PATH_INFO'), exc_info=exc_info)


class _RequestHandler(simple_server.WSGIRequestHandler):
    """Serves the requests of one connection, one after another."""

    protocol_version = 'HTTP/1.1'
    # Buffered: a response's status line, headers and body leave in one
    # segment (flushed after each response).
    wbufsize = -1
    # Small responses are not held back waiting for the client's ACK.
    disable_nagle_algorithm = True

    def setup(self):
        self.timeout = self.server.keepalive_timeout or REQUEST_READ_TIMEOUT
        super().setup()

    def address_string(self):
        return self.client_address[0]  # no reverse DNS per request

    def handle_expect_100(self):
        # The interim response must not wait in the buffer with the final.
        answered = super().handle_expect_100()
        self.wfile.flush()
        return answered

    def log_message(self, format, *args):
        LOG.info('%s %s', self.address_string(), format % args)

    def handle(self):
        self.close_connection = True
        self._serve_one()
        while not self.close_connection:
            self._serve_one()

    def _serve_one(self):
        # A closed or idle connection ends here (the socket's timeout).
        try:
            if not self.server.await_request(self):
                self.close_connection = True
                return
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
        except (TimeoutError, ConnectionError):
            self.close_connection = True
            return
        finally:
            self.server.request_begins(self)
        if not self.raw_requestline:
            self.close_connection = True
            return
        if len(self.raw_requestline) > MAX_REQUEST_LINE:
            self.requestline = self.request_version = self.command = ''
            self.send_error(414)
            self.close_connection = True
            return
        # Sets close_connection from the version and Connection header;
        # answers a malformed request itself.
        try:
            parsed = self.parse_request()
        except (TimeoutError, ConnectionError):
            # Headers that stopped coming: nobody to answer.
            self.close_connection = True
            return
        if not parsed:
            return
        length = self._content_length()
        # Where the next request starts is known only from a valid length.
        keep_alive = (not self.close_connection and
                      bool(self.server.keepalive_timeout) and
                      length is not None and
                      'transfer-encoding' not in self.headers and
                      not self.server.stopping)
        if self.headers.get('transfer-encoding', '').strip().lower() == \
                'chunked':
            body = _ChunkedBody(self.rfile)
        else:
            body = _Body(self.rfile, length or 0)
        response = _ResponseHandler(
            body, keep_alive, self.wfile, sys.stderr, self.get_environ(),
            multithread=True)
        response.request_handler = self  # for the access log line
        response.run(self.server.get_app())
        try:
            self.wfile.flush()
        except OSError:
            # The client went away; nothing more to say on this connection.
            self.close_connection = True
            return
        self.close_connection = not (response.keep_alive and body.drain())

    def _content_length(self):
        """The request's Content-Length (0 without one); None if it is
        not a number of bytes or has more digits than any body."""
        length = request_text.byte_count(
            (self.headers.get('content-length') or '0').strip())
        return None if length == request_text.OVERSIZED else length


class ThreadedWSGIServer(socketserver.ThreadingMixIn,
                         simple_server.WSGIServer):
    """The standard library's WSGI server with a thread per connection.
    Closing it closes the connections waiting for a request and waits for
    the requests in progress (graceful shutdown)."""

    daemon_threads = False
    block_on_close = True
    allow_reuse_address = True
    # The listen backlog. socketserver's 5 overflows as soon as a few dozen
    # clients connect at once, and the kernel then drops their SYNs: each
    # such client waits a second for its retransmission.
    request_queue_size = socket.SOMAXCONN
    # Seconds a connection waits for its next request (0: one request per
    # connection).
    keepalive_timeout = 0

    def __init__(self, *args, **kwargs):
        # Set before binding: a failed bind closes the server at once.
        self.stopping = False
        self._lock = threading.Lock()
        self._waiting = set()  # handlers waiting for their next request
        super().__init__(*args, **kwargs)

    def get_request(self):
        request, address = super().get_request()
        # The listening socket is non-blocking when several processes
        # share it (volapi.wsgi.workers); a connection never is.
        request.setblocking(True)
        return request, address

    def await_request(self, handler):
        """Whether ``handler`` may wait for its connection's next request
        (not once the server stops)."""
        with self._lock:
            if self.stopping:
                return False
            self._waiting.add(handler)
            return True

    def request_begins(self, handler):
        with self._lock:
            self._waiting.discard(handler)

    def server_close(self):
        # Connections waiting for a request end now (their read returns
        # nothing); those serving one close after their response.
        with self._lock:
            self.stopping = True
            for handler in self._waiting:
                try:
                    handler.connection.shutdown(socket.SHUT_RD)
                except OSError:
                    pass  # already closed by the client
        super().server_close()


class CannotListen(Exception):
    """The address to serve on cannot be had (taken, not local, ...)."""


def parse_bind(bind):
    """'host:port' -> (host, port)."""
    host, sep, port = bind.rpartition(':')
    if not sep or not port.isdigit() or not port.isascii() or not host:
        raise CannotListen('--bind must be HOST:PORT, not %r' % bind)
    return host.strip('[]'), int(port)


def bind_address(conf, bind=None):
    """(host, port) to serve on: ``bind`` ('HOST:PORT', from --bind) or
    [api] bind_host and bind_port."""
    if bind:
        return parse_bind(bind)
    return conf.api.bind_host, conf.api.bind_port


def make_server(app, address, keepalive_timeout=0):
    """A threaded server bound to ``address`` (host, port): the socket is
    bound here, so a caller can bind before anything else and set the
    application afterwards (``server.set_app``)."""
    host, port = address
    try:
        server = simple_server.make_server(
            host, port, app, server_class=ThreadedWSGIServer,
            handler_class=_RequestHandler)
    except OSError as e:
        raise CannotListen(
            'cannot serve HTTP on %s:%d: %s. Set another address with '
            '[api] bind_host and [api] bind_port in the configuration file '
            '(or --bind HOST:PORT).' % (host, port, e.strerror or e)
        ) from None
    server.keepalive_timeout = keepalive_timeout
    return server


class Serving:
    """A server's serve_forever loop in a thread of its own."""

    def __init__(self, server):
        self.server = server
        self._thread = threading.Thread(target=server.serve_forever,
                                        name='wsgi', daemon=True)

    def start(self):
        self._thread.start()
        host, port = self.server.server_address[:2]
        LOG.info('serving HTTP on http://%s:%d/', host, port)
        return self

    def stop(self):
        """Stop accepting, then wait for the requests in progress."""
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()
