"""The HTTP client of the request benches: one keep-alive connection per
client thread, on the standard library's ``http.client``.

The benches run on the machine of the server they measure. ``requests``
cost the client 0.9-1.5 ms of CPU per request here, about what volapi's
server spends, and that CPU was taken from the server; a keep-alive
``http.client`` exchange costs about 0.2 ms. (``http.client`` sets
TCP_NODELAY on every connection it opens, so a small request is not held
back waiting for the previous response's ACK.)
"""
import http.client
import urllib.parse

# How a request fails when the server has closed the idle keep-alive
# connection under it (gunicorn's keepalive timeout, a restarted worker):
# nothing of the request was processed, so it is sent again on a new
# connection, once.
DROPPED = (http.client.RemoteDisconnected, ConnectionResetError,
           BrokenPipeError)


class Connection:
    """One persistent connection to ``base_url`` (scheme, host, port and a
    path prefix); not for sharing between threads."""

    def __init__(self, base_url, timeout=60):
        parts = urllib.parse.urlsplit(base_url)
        connection_class = (http.client.HTTPSConnection
                            if parts.scheme == 'https'
                            else http.client.HTTPConnection)
        self._connection = connection_class(parts.hostname, parts.port,
                                            timeout=timeout)
        self.prefix = parts.path.rstrip('/')
        self.reconnects = 0   # requests sent again after a dropped connection

    def open(self):
        """Connect now rather than on the first request, so that many
        clients' connections need not all arrive at once (a server's
        listen backlog may be short)."""
        self._connection.connect()

    def request(self, method, path, body=None, headers=None):
        """Send ``body`` (bytes or None) to prefix + ``path``; returns
        (status, response body bytes). The whole body is read, so the
        connection can carry the next request."""
        try:
            try:
                return self._exchange(method, path, body, headers)
            except DROPPED:
                self._connection.close()
                self.reconnects += 1
                return self._exchange(method, path, body, headers)
        except BaseException:
            # A half-finished exchange leaves the connection unusable for
            # the next request: start that one on a new connection.
            self._connection.close()
            raise

    def _exchange(self, method, path, body, headers):
        self._connection.request(method, self.prefix + path, body,
                                 headers or {})
        response = self._connection.getresponse()
        return response.status, response.read()

    def close(self):
        self._connection.close()
