"""The two applications under comparison, each served on 127.0.0.1 by
the standard library's WSGI server (the same server for both, so the
differences are the applications') on a database of its own."""
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

import sqlalchemy as sa

PLACEMENT_REQUIREMENTS = ['openstack-placement==16.0.0', 'psycopg2-binary']
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# Run by each server's Python: serve module:attribute on a port, quietly.
_SERVE = '''
import importlib, sys
from wsgiref import simple_server
module, _, name = sys.argv[1].partition(":")
app = getattr(importlib.import_module(module), name)
class Quiet(simple_server.WSGIRequestHandler):
    # Headers and body go out in two writes: without this, Nagle's
    # algorithm holds the body back until the client's delayed ACK.
    disable_nagle_algorithm = True
    def log_message(self, *args):
        pass
server = simple_server.make_server("127.0.0.1", int(sys.argv[2]), app,
                                   handler_class=Quiet)
server.serve_forever()
'''


def make_venv(path, log):
    """A virtualenv at ``path`` with Placement 16.0.0; its python."""
    python = os.path.join(path, 'bin', 'python')
    if not os.path.exists(os.path.join(path, '.placement-installed')):
        subprocess.run([sys.executable, '-m', 'venv', path], check=True,
                       stdout=log, stderr=subprocess.STDOUT)
        subprocess.run([python, '-m', 'pip', 'install', '-q',
                        '--disable-pip-version-check']
                       + PLACEMENT_REQUIREMENTS, check=True, stdout=log,
                       stderr=subprocess.STDOUT)
        open(os.path.join(path, '.placement-installed'), 'w').close()
    return python


@contextlib.contextmanager
def scratch_database(server_url, label):
    """A new empty PostgreSQL database on ``server_url``'s server, dropped
    afterwards: yields its URL (same driver as ``server_url``)."""
    parsed = sa.engine.make_url(server_url)
    name = 'placement_diff_%s_%d_%s' % (label, os.getpid(),
                                        uuid.uuid4().hex[:6])
    admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql('CREATE DATABASE "%s"' % name)
        try:
            yield parsed.set(database=name)
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(
                    'DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)
    finally:
        admin.dispose()


def _free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


class Server:
    """One application served in a subprocess; ``url``, ``stop()``."""

    def __init__(self, python, target, env, workdir, name):
        self.port = _free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        self.log_path = os.path.join(workdir, '%s.log' % name)
        self.log = open(self.log_path, 'w')
        self.process = subprocess.Popen(
            [python, '-c', _SERVE, target, str(self.port)],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait()

    def _wait(self, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError('%s exited:\n%s' % (self.url, self.output()))
            try:
                urllib.request.urlopen(self.url + '/', timeout=5).read()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError('%s did not start:\n%s'
                                       % (self.url, self.output()))
                time.sleep(0.2)

    def output(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def _write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def _policy_file(workdir):
    """The same policy override for both: noauth2 gives no token the
    service role that reshaping asks for by default."""
    path = os.path.join(workdir, 'policy.yaml')
    _write(path, '"placement:reshaper:reshape": "role:admin"\n')
    return path


def serve_placement(python, db_url, workdir):
    """Placement 16.0.0 (noauth2) on ``db_url``, its schema made at
    start."""
    confdir = os.path.join(workdir, 'placement-etc')
    os.makedirs(confdir, exist_ok=True)
    url = db_url.set(drivername='postgresql+psycopg2')
    _write(os.path.join(confdir, 'placement.conf'), (
        '[api]\nauth_strategy = noauth2\n'
        '[placement_database]\nconnection = %s\nsync_on_startup = true\n'
        '[oslo_policy]\npolicy_file = %s\n'
        % (url.render_as_string(hide_password=False).replace('%', '%%'),
           _policy_file(workdir))))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('OS_', 'PYTHON'))}
    env['OS_PLACEMENT_CONFIG_DIR'] = confdir
    return Server(python, 'placement.wsgi.api:application', env, workdir,
                  'placement')


def serve_volapi(db_url, workdir):
    """volapi's placement application (noauth2) on ``db_url``, its schema
    made by volapi-manage db sync."""
    conf = os.path.join(workdir, 'volapi.conf')
    url = db_url.render_as_string(hide_password=False).replace('%', '%%')
    _write(conf, '[DEFAULT]\nstate_path = %s\n[database]\nconnection = %s\n'
           '[placement]\nauth_strategy = noauth2\n'
           '[oslo_policy]\npolicy_file = %s\n'
           % (workdir, url, _policy_file(workdir)))
    env = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}
    env['PYTHONPATH'] = os.pathsep.join(
        [REPO] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
                  if p])
    env['VOLAPI_CONFIG_FILE'] = conf
    subprocess.run([sys.executable, '-m', 'volapi.cmd.manage',
                    '--config-file', conf, 'db', 'sync'], env=env,
                   check=True, capture_output=True)
    return Server(sys.executable, 'volapi.wsgi.placement:application', env,
                  workdir, 'volapi')


@contextlib.contextmanager
def both(db_server_url, venv=None, log=None):
    """(Placement server, volapi server), stopped and their databases
    dropped afterwards. ``venv``: where Placement is (or is to be)
    installed; default a temporary directory removed afterwards."""
    with tempfile.TemporaryDirectory(prefix='placement-diff-') as workdir:
        log = log or open(os.path.join(workdir, 'pip.log'), 'w')
        python = make_venv(venv or os.path.join(workdir, 'venv'), log)
        with scratch_database(db_server_url, 'ref') as ref_db, \
                scratch_database(db_server_url, 'vol') as vol_db:
            servers = []
            try:
                servers.append(serve_placement(python, ref_db, workdir))
                servers.append(serve_volapi(vol_db, workdir))
                servers[0].db_url, servers[1].db_url = ref_db, vol_db
                yield tuple(servers)
            finally:
                for server in servers:
                    server.stop()
