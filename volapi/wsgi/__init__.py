"""volapi over HTTP: the composed WSGI application and the server that
``volapi-api`` and ``volapi-all`` run.

One application answers both APIs: Cinder's v3 volume API at ``/`` and the
Placement API under ``/placement``. WSGI servers load it from
:mod:`volapi.wsgi.api` (placement alone: :mod:`volapi.wsgi.placement`),
which build it when imported; importing this package reads no
configuration.
"""
import os
import socket
import socketserver
import threading
from wsgiref import simple_server

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

PLACEMENT_PREFIX = '/placement'


def init_application(conf):
    """The volume API with placement mounted at /placement; ``conf`` is
    parsed and the database set up (volapi.config.setup)."""
    from volapi.api import app as volume_app
    from volapi.placement import wsgi as placement_wsgi
    return PrefixDispatcher(volume_app.setup_app(conf),
                            {PLACEMENT_PREFIX: placement_wsgi.setup_app(conf)})


class PrefixDispatcher:
    """Sends a request whose path is under a prefix to that prefix's
    application (the prefix moves from PATH_INFO to SCRIPT_NAME, so the
    application sees its own paths and builds right links), every other
    request to ``default``."""

    def __init__(self, default, mounts):
        self.default = default
        self.mounts = sorted(mounts.items(), key=lambda m: -len(m[0]))

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        for prefix, app in self.mounts:
            if path == prefix or path.startswith(prefix + '/'):
                environ['SCRIPT_NAME'] = environ.get('SCRIPT_NAME', '') + \
                    prefix
                environ['PATH_INFO'] = path[len(prefix):]
                return app(environ, start_response)
        return self.default(environ, start_response)


def load_conf(prog):
    """volapi's configuration for a WSGI server's process: the files named
    by ``VOLAPI_CONFIG_FILE`` (comma separated), else oslo.config's default
    locations; logging and the database are set up from it."""
    from volapi import config
    files = [f for f in os.environ.get('VOLAPI_CONFIG_FILE', '').split(',')
             if f]
    return config.setup(files, prog=prog)


# -- the threaded server of volapi-api / volapi-all ------------------------

class _RequestHandler(simple_server.WSGIRequestHandler):

    def address_string(self):
        return self.client_address[0]  # no reverse DNS per request

    def log_message(self, format, *args):
        LOG.info('%s %s', self.address_string(), format % args)


class ThreadedWSGIServer(socketserver.ThreadingMixIn,
                         simple_server.WSGIServer):
    """The standard library's WSGI server with a thread per request.
    Closing it waits for the requests in progress (graceful shutdown)."""

    daemon_threads = False
    block_on_close = True
    allow_reuse_address = True
    # The listen backlog. socketserver's 5 overflows as soon as a few dozen
    # clients connect at once, and the kernel then drops their SYNs: each
    # such client waits a second for its retransmission.
    request_queue_size = socket.SOMAXCONN

    def get_request(self):
        request, address = super().get_request()
        # The listening socket is non-blocking when several processes
        # share it (volapi.wsgi.workers); a connection never is.
        request.setblocking(True)
        return request, address


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


def make_server(app, address):
    """A threaded server bound to ``address`` (host, port): the socket is
    bound here, so a caller can bind before anything else and set the
    application afterwards (``server.set_app``)."""
    host, port = address
    try:
        return simple_server.make_server(
            host, port, app, server_class=ThreadedWSGIServer,
            handler_class=_RequestHandler)
    except OSError as e:
        raise CannotListen(
            'cannot serve HTTP on %s:%d: %s. Set another address with '
            '[api] bind_host and [api] bind_port in the configuration file '
            '(or --bind HOST:PORT).' % (host, port, e.strerror or e)
        ) from None


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
