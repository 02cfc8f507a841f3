"""What volapi's long-running commands share: their command line and how
they wait for SIGTERM (or SIGINT) to shut down gracefully."""
import argparse
import signal
import threading

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

DEFAULT_BIND = '127.0.0.1:8776'


def parser(prog, description, bind=False):
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument('--config-file', action='append', default=[],
                   help='configuration file (may be repeated)')
    p.add_argument('--config-dir', default=None,
                   help='directory of *.conf files read after the files')
    if bind:
        p.add_argument('--bind', default=DEFAULT_BIND,
                       help='HOST:PORT to serve HTTP on (default %(default)s)')
    return p


def wait_for_termination():
    """Block until SIGTERM or SIGINT arrives."""
    stopping = threading.Event()

    def handler(signum, frame):
        LOG.info('%s received: shutting down', signal.Signals(signum).name)
        stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
    stopping.wait()
