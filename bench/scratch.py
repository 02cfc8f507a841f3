"""Throw-away pieces of a side-by-side bench: a PostgreSQL database of its
own on a server the caller names, free ports, background processes stopped
by their own PIDs, RabbitMQ queues deleted by name. Each class undoes only
what it made, so shared servers keep running untouched.

Used by bench/cinder_reference.py and bench/compare_creates.py.
"""
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import sqlalchemy
from sqlalchemy.engine import make_url


def servers_from_environment():
    """(PostgreSQL URL, RabbitMQ URL) of the servers to use, from
    VOLAPI_TEST_PG_URL and VOLAPI_TEST_RABBIT_URL; exit 2 naming the
    missing one."""
    urls = []
    for name in ('VOLAPI_TEST_PG_URL', 'VOLAPI_TEST_RABBIT_URL'):
        if not os.environ.get(name):
            raise SystemExit('%s is not set: the bench needs a PostgreSQL '
                             'server (a user allowed to CREATE DATABASE) '
                             'and a RabbitMQ' % name)
        urls.append(os.environ[name])
    return tuple(urls)


def token():
    """A short random suffix for names that must not collide with others'
    on shared servers."""
    return secrets.token_hex(4)


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Database:
    """Database ``name`` created on the server of ``admin_url`` (any
    SQLAlchemy PostgreSQL URL of a user allowed to CREATE DATABASE)."""

    def __init__(self, admin_url, name):
        self.admin_url = make_url(admin_url)
        self.name = name
        self.created = False

    def _admin(self):
        return sqlalchemy.create_engine(self.admin_url,
                                        isolation_level='AUTOCOMMIT',
                                        poolclass=sqlalchemy.pool.NullPool)

    def create(self):
        engine = self._admin()
        with engine.connect() as conn:
            conn.exec_driver_sql('CREATE DATABASE "%s"' % self.name)
        engine.dispose()
        self.created = True
        return self

    def url(self, driver):
        """This database's URL with ``driver`` (psycopg, psycopg2)."""
        return self.admin_url.set(
            drivername='postgresql+%s' % driver,
            database=self.name).render_as_string(hide_password=False)

    def launch_ms(self, volume_ids):
        """Milliseconds from ``created_at`` (the API wrote the volume row)
        to ``launched_at`` (the worker made it available) of each volume of
        ``volume_ids`` that has both: a latency of the service alone,
        without the client's polling. Cinder and volapi set both columns
        at those two points."""
        if not volume_ids:
            return []
        engine = sqlalchemy.create_engine(self.url('psycopg'),
                                          poolclass=sqlalchemy.pool.NullPool)
        try:
            with engine.connect() as conn:
                return conn.execute(sqlalchemy.text(
                    'SELECT EXTRACT(EPOCH FROM launched_at - created_at) '
                    '* 1000 FROM volumes WHERE id = ANY(:ids) AND '
                    'launched_at IS NOT NULL'),
                    {'ids': list(volume_ids)}).scalars().all()
        finally:
            engine.dispose()

    def drop(self):
        if not self.created:
            return
        engine = self._admin()
        with engine.connect() as conn:
            conn.exec_driver_sql('DROP DATABASE IF EXISTS "%s" WITH (FORCE)'
                                 % self.name)
        engine.dispose()
        self.created = False


def run_logged(argv, log_path, env=None, cwd=None):
    """Run a command to its end with its output in ``log_path``; raise
    with the end of that output if it fails."""
    with open(log_path, 'ab') as log:
        done = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=env, cwd=cwd)
    if done.returncode:
        raise RuntimeError('%s failed (status %d); end of %s:\n%s' % (
            ' '.join(argv), done.returncode, log_path, tail(log_path)))


class Service:
    """A set of servers a bench starts and stops: ``with`` starts it
    (stopping what did start if the start fails) and stops it."""

    def start(self):
        raise NotImplementedError

    def stop(self):
        raise NotImplementedError

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()


class Processes:
    """Commands run in the background, each in a session of its own (so a
    terminal's Ctrl-C reaches only this script, which then stops them in
    order) with its output in a log file."""

    def __init__(self):
        self.started = []   # (name, Popen, log path)

    def start(self, name, argv, log_path, env=None, cwd=None):
        log = open(log_path, 'ab')
        try:
            proc = subprocess.Popen(
                argv, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                start_new_session=True)
        finally:
            log.close()
        self.started.append((name, proc, log_path))
        return proc

    def check_running(self):
        """Raise, with the end of its log, if a process already exited."""
        for name, proc, log_path in self.started:
            if proc.poll() is not None:
                raise RuntimeError('%s exited with status %s; end of %s:\n%s'
                                   % (name, proc.returncode, log_path,
                                      tail(log_path)))

    def pids(self, name):
        """The PID of process ``name`` and of its children (the API's
        worker processes)."""
        for started, proc, _ in self.started:
            if started == name:
                return [proc.pid] + children(proc.pid)
        raise KeyError(name)

    def stop_all(self, grace=20):
        """SIGTERM to each process group started here (the process and
        the workers it forked), newest first; SIGKILL after ``grace``
        seconds to what is left."""
        for _, proc, _ in reversed(self.started):
            if proc.poll() is None:
                _signal_group(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for name, proc, _ in reversed(self.started):
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print('%s (pid %d) still running after %ds: killed'
                      % (name, proc.pid, grace))
                proc.kill()
                proc.wait()
            # Forked workers share the group; none may outlive it.
            _signal_group(proc.pid, signal.SIGKILL)
        self.started = []


def _signal_group(pgid, signum):
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


def each_step(*steps):
    """Run every (description, callable) of a clean-up even when one
    fails (a server gone, say), then raise the first failure."""
    failures = []
    for what, step in steps:
        try:
            step()
        except Exception as e:
            print('could not %s: %s' % (what, e))
            failures.append(e)
    if failures:
        raise failures[0]


def remove_run_dir(path, keep):
    if keep:
        print('kept the configuration and logs in %s' % path)
    else:
        shutil.rmtree(path, ignore_errors=True)


def children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except FileNotFoundError:
        return []


def tail(path, lines=30):
    try:
        with open(path, errors='replace') as f:
            return ''.join(f.readlines()[-lines:])
    except FileNotFoundError:
        return '(no log)'


def wait_http(url, processes, timeout=120):
    """Wait until ``url`` answers HTTP at all (any status)."""
    deadline = time.monotonic() + timeout
    while True:
        processes.check_running()
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError('%s does not answer after %ds'
                                   % (url, timeout))
            time.sleep(0.5)


def delete_queues(rabbit_url, names):
    """Delete RabbitMQ queues by name (absent ones are no error). Queues
    whose names carry a random part (fanout, reply) expire by themselves:
    the services run with a short rabbit_transient_queues_ttl."""
    import kombu
    amqp_url = rabbit_url.replace('rabbit://', 'amqp://', 1)
    with kombu.Connection(amqp_url, connect_timeout=5) as conn:
        channel = conn.channel()
        for name in names:
            channel.queue_delete(name)
