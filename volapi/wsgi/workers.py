"""volapi-api's worker processes: several processes serving one socket.

One Python process runs one thread of Python at a time, so one API process
uses one core however many requests it serves at once. With ``[api]
workers`` above 1 (Cinder's ``osapi_volume_workers``), the parent binds the
socket, then forks that many children that each build the application and
serve the shared socket; the parent serves nothing. API processes share
nothing but the database and the message broker (every change is a
compare-and-swap there), so the children need no coordination.

The parent supervises: a child that dies is replaced (at most one a second,
so a child that cannot start does not spin), and SIGTERM or SIGINT is passed
on to every child, each of which finishes the requests it has begun.
"""
import errno
import logging as std_logging
import os
import signal
import time

from oslo_log import log as logging

from volapi.cmd import process
from volapi.wsgi import server as http_server

LOG = logging.getLogger(__name__)

RESPAWN_PAUSE = 1.0  # seconds between two replacements of a dead child
STOP_TIMEOUT = 60.0  # seconds the children get to finish, then SIGKILL
ORPHAN_CHECK = 1.0  # seconds between a child's checks that its parent lives


def serve(server, build_app, workers):
    """Serve ``server`` (a bound ThreadedWSGIServer without application)
    with ``build_app()`` in ``workers`` processes until SIGTERM or
    SIGINT; returns the exit status."""
    stopping = process.termination_requested()
    if workers <= 1:
        return _serve_here(server, build_app, stopping)
    # Every child waits on the socket; one accept() wins a connection and
    # the others must not block in theirs.
    server.socket.setblocking(False)
    children = set()
    for _ in range(workers):
        children.add(_spawn(server, build_app, stopping))
    while not stopping.wait(RESPAWN_PAUSE):
        _reap(children, log_deaths=True)
        if len(children) < workers:
            children.add(_spawn(server, build_app, stopping))
    _stop(children)
    server.server_close()
    return 0


def _serve_here(server, build_app, stopping, parent=None):
    server.set_app(build_app())
    process.freeze_startup_heap()
    serving = http_server.Serving(server).start()
    if parent is None:
        stopping.wait()
    else:
        # A parent gone without passing SIGTERM on (SIGKILL) leaves no one
        # to supervise or stop this process: it stops too.
        while not stopping.wait(ORPHAN_CHECK) and os.getppid() == parent:
            pass
    serving.stop()
    return 0


def _spawn(server, build_app, stopping):
    parent = os.getpid()
    pid = os.fork()
    if pid:
        LOG.info('API worker process %d started', pid)
        return pid
    status = 1
    try:
        # The SIGTERM and SIGINT handlers, inherited, set this process's
        # copy of ``stopping``: a signal that arrives between the fork and
        # anything the child runs still stops it.
        status = _serve_here(server, build_app, stopping, parent)
    except BaseException:
        LOG.exception('API worker process %d failed', os.getpid())
    finally:
        std_logging.shutdown()
        # Not sys.exit: the parent's exit handlers are not the child's.
        os._exit(status)


def _reap(children, log_deaths):
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        if pid in children and log_deaths:
            LOG.error('API worker process %d ended (%s); replacing it', pid,
                      _describe(status))
        children.discard(pid)


def _describe(status):
    if os.WIFSIGNALED(status):
        return 'signal %s' % signal.Signals(os.WTERMSIG(status)).name
    return 'exit status %d' % os.waitstatus_to_exitcode(status)


def _stop(children):
    for pid in list(children):
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while children and time.monotonic() < deadline:
        _reap(children, log_deaths=False)
        time.sleep(0.05)
    for pid in list(children):
        LOG.warning('API worker process %d still running after %ds: '
                    'killing it', pid, STOP_TIMEOUT)
        _signal(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _signal(pid, signum):
    try:
        os.kill(pid, signum)
    except OSError as exc:
        if exc.errno != errno.ESRCH:
            raise
