"""What volapi's long-running commands share: their command line, how
they wait for SIGTERM (or SIGINT) to shut down gracefully, and what they
built at start-up kept out of the garbage collector's sight."""
import argparse
import gc
import signal
import sys
import threading

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


def parser(prog, description, bind=False):
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument('--config-file', action='append', default=[],
                   help='configuration file (may be repeated)')
    p.add_argument('--config-dir', default=None,
                   help='directory of *.conf files read after the files')
    if bind:
        p.add_argument('--bind', default=None,
                       help='HOST:PORT to serve HTTP on (default: [api] '
                            'bind_host and bind_port, 127.0.0.1:8776)')
    return p


def listen(prog, conf, bind):
    """The HTTP server of ``prog``, bound to ``--bind`` or the configured
    address, its application not set yet; when the address cannot be had,
    say which and how to change it, and exit 1 (no traceback: it is the
    operator's to fix, not a bug)."""
    from volapi.wsgi import server
    try:
        return server.make_server(None, server.bind_address(conf, bind),
                                  conf.api.keepalive_timeout)
    except server.CannotListen as e:
        problem = str(e)
    # Logged out of the except block: the log line carries no exception.
    LOG.error('%s', problem)
    sys.stderr.write('%s: %s\n' % (prog, problem))
    raise SystemExit(1)


def termination_requested():
    """Handle SIGTERM and SIGINT from now on; returns the event they set.
    Called before a slow start-up, so a signal during it still ends the
    process gracefully once it is up."""
    stopping = threading.Event()

    def handler(signum, frame):
        LOG.info('%s received: shutting down', signal.Signals(signum).name)
        stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
    return stopping


def freeze_startup_heap():
    """Once a process has built what it serves with (application,
    configuration, connections, caches): move every object alive to the
    collector's permanent generation. They live as long as the process, and
    a full collection would otherwise walk all of them, tens of ms that
    stop every thread, whichever holds a row lock in the database; after
    this it walks only what was made since."""
    gc.freeze()


def wait_for_termination(stopping=None):
    """Serve until SIGTERM or SIGINT arrives (or has arrived, for the
    event of :func:`termination_requested`), what was built so far frozen
    (:func:`freeze_startup_heap`)."""
    freeze_startup_heap()
    (stopping or termination_requested()).wait()
