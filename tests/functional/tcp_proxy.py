"""A TCP proxy in front of a server (a database, the broker), to take it away
from the code under test and give it back, as a restart or a network cut
would, without touching the shared server.

``TcpProxy(host, port)`` listens on an ephemeral loopback port
(``proxy.port``) and forwards each connection to ``host:port``:

- ``cut()`` drops every open connection and refuses new ones (each is
  accepted and closed at once, as a server going down does);
  ``cut(heal_after=N)`` lets the (N+1)th new connection through again;
- ``restore()`` forwards again;
- ``cut_after_commit(after)``: the next COMMIT a client sends on a
  connection that has sent ``after`` (bytes of a statement) is forwarded,
  and once the server has answered it the connection is dropped instead of
  passing the answer on (a commit whose outcome the client cannot know).
"""
import socket
import threading

import fixtures

_COMMIT = b'COMMIT'


class _Pair:
    """One client connection and its upstream connection."""

    def __init__(self, proxy, client, upstream):
        self.proxy = proxy
        self.client = client
        self.upstream = upstream
        self._closed = threading.Event()
        self._swallow_answer = False
        self._armed = False

    def start(self):
        for source, sink, outbound in ((self.client, self.upstream, True),
                                       (self.upstream, self.client, False)):
            threading.Thread(target=self._pump, args=(source, sink, outbound),
                             daemon=True).start()

    def _pump(self, source, sink, outbound):
        try:
            while not self._closed.is_set():
                data = source.recv(65536)
                if not data:
                    break
                if not outbound and self._swallow_answer:
                    break  # the server answered the trapped COMMIT
                if outbound:
                    # Before sending: the answer may come back at once.
                    self._watch(data.upper())
                sink.sendall(data)
        except OSError:
            pass
        self.close()

    def _watch(self, sent):
        after = self.proxy.commit_trap
        if after is None:
            return
        if after in sent:
            self._armed = True
        if self._armed and _COMMIT in sent and \
                self.proxy.take_commit_trap():
            self._swallow_answer = True

    def close(self):
        if self._closed.is_set():
            return
        self._closed.set()
        for sock in (self.client, self.upstream):
            try:
                # An RST, not a FIN: the peer sees the connection lost.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                b'\x01\x00\x00\x00\x00\x00\x00\x00')
                # shutdown() wakes the other pump's recv(); close() alone
                # would wait for it.
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                sock.close()
            except OSError:
                pass
        self.proxy.forget(self)


class TcpProxy(fixtures.Fixture):

    def __init__(self, host, port):
        super().__init__()
        self.target = (host, port)
        self._lock = threading.Lock()
        self._pairs = set()
        self._refusing = False
        self._heal_after = None
        self.commit_trap = None
        self.refused = 0

    def _setUp(self):
        self._listener = socket.create_server(('127.0.0.1', 0))
        self.port = self._listener.getsockname()[1]
        self._running = True
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()
        self.addCleanup(self._stop)

    def _stop(self):
        self._running = False
        # Wake accept() with a connection of our own, then close.
        try:
            socket.create_connection(('127.0.0.1', self.port), 1).close()
        except OSError:
            pass
        self._thread.join(5)
        self._listener.close()
        self._drop_all()

    def _accept(self):
        while self._running:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._running:
                client.close()
                return
            if self._refuse_now():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, 5)
            except OSError:
                client.close()
                continue
            pair = _Pair(self, client, upstream)
            with self._lock:
                self._pairs.add(pair)
            pair.start()

    def _refuse_now(self):
        with self._lock:
            if not self._refusing:
                return False
            if self._heal_after is not None and \
                    self.refused >= self._heal_after:
                self._refusing = False
                return False
            self.refused += 1
            return True

    def _drop_all(self):
        with self._lock:
            pairs = list(self._pairs)
        for pair in pairs:
            pair.close()

    def forget(self, pair):
        with self._lock:
            self._pairs.discard(pair)

    def take_commit_trap(self):
        with self._lock:
            trapped, self.commit_trap = self.commit_trap, None
            return trapped is not None

    def cut(self, heal_after=None):
        with self._lock:
            self._refusing = True
            self._heal_after = heal_after
            self.refused = 0
        self._drop_all()

    def restore(self):
        with self._lock:
            self._refusing = False

    def cut_after_commit(self, after):
        with self._lock:
            self.commit_trap = after.upper()

    def url_for(self, url):
        """``url`` (an SQLAlchemy URL) through this proxy."""
        import sqlalchemy as sa
        return sa.engine.make_url(url).set(
            host='127.0.0.1', port=self.port).render_as_string(
            hide_password=False)
