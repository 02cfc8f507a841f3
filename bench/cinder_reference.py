#!/usr/bin/env python3
"""OpenStack Cinder 29.0.0 from PyPI, run on this machine as a reference for
volapi's benches: cinder-api, cinder-scheduler and cinder-volume with
Cinder's own fake driver, on PostgreSQL and RabbitMQ.

    # VOLAPI_TEST_PG_URL and VOLAPI_TEST_RABBIT_URL set, as for tools/run-tests
    python bench/cinder_reference.py [--state-dir DIR] [--keep]

Installs ``cinder==29.0.0`` (and psycopg2, the driver Cinder supports) with
pip into a virtualenv ``DIR/cinder-29.0.0`` unless it is there already
(DIR: --state-dir, default $VOLAPI_BENCH_STATE or ~/.cache/volapi-bench;
the virtualenv is kept for the next run). Each run then:

- creates a database of its own (``cinder_bench_<hex>``) on the PostgreSQL
  server of VOLAPI_TEST_PG_URL and runs ``cinder-manage db sync``;
- writes a minimal cinder.conf in ``DIR/cinder-run-<hex>``: noauth (token
  ``user:project``, every request an administrator), RabbitMQ from
  VOLAPI_TEST_RABBIT_URL on an exchange of its own, one backend ``fake``
  whose driver is ``cinder.tests.fake_driver.FakeLoggingVolumeDriver``
  (shipped in the wheel; it logs instead of touching storage and reports
  infinite capacity), project ids that are not UUIDs allowed in URLs;
- starts cinder-api (``osapi_volume_workers`` = CPUs), cinder-scheduler and
  cinder-volume as background processes on 127.0.0.1 and waits until the
  volume service is up and a 1 GiB volume reaches 'available' (the
  scheduler has the backend's capabilities);
- on exit (also on Ctrl-C or an error) stops exactly those processes and
  their forked workers, deletes their RabbitMQ topic queues, drops the
  database and removes the run directory (--keep keeps its config and
  logs).

Run alone, it serves until SIGINT/SIGTERM. bench/compare_creates.py uses
it as a library (``CinderReference``).
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

import scratch
import volume_actions

VERSION = '29.0.0'
BACKEND = 'fake'
DRIVER = 'cinder.tests.fake_driver.FakeLoggingVolumeDriver'
SERVICES = ('cinder-api', 'cinder-scheduler', 'cinder-volume')


def default_state_dir():
    return os.environ.get('VOLAPI_BENCH_STATE') or os.path.join(
        os.path.expanduser('~'), '.cache', 'volapi-bench')


def ensure_venv(state_dir, version=VERSION):
    """The virtualenv with cinder==version, made with pip when missing."""
    venv = os.path.join(state_dir, 'cinder-%s' % version)
    # Written once every requirement is in: an interrupted install is
    # completed by the next run.
    installed = os.path.join(venv, 'installed')
    if not os.path.exists(installed):
        print('installing cinder==%s in %s ...' % (version, venv))
        sys.stdout.flush()
        subprocess.run([sys.executable, '-m', 'venv', venv], check=True)
        # psycopg2: the PostgreSQL driver Cinder supports. fixtures: the
        # fake driver imports cinder.tests.unit, which needs it.
        scratch.run_logged(
            [os.path.join(venv, 'bin', 'pip'), 'install',
             'cinder==%s' % version, 'psycopg2-binary', 'fixtures'],
            os.path.join(state_dir, 'cinder-%s-pip.log' % version))
        open(installed, 'w').close()
    return venv


def cinder_conf(run_dir, venv, db_url, rabbit_url, host, port, workers,
                exchange):
    return """[DEFAULT]
auth_strategy = noauth
transport_url = {rabbit}
control_exchange = {exchange}
api_paste_config = {venv}/etc/cinder/api-paste.ini
state_path = {run}/state
host = {host}
osapi_volume_listen = 127.0.0.1
osapi_volume_listen_port = {port}
osapi_volume_workers = {workers}
enabled_backends = {backend}
# Cinder routes only project ids that look like keystone's ([0-9a-f-]+).
project_id_regex = [0-9a-zA-Z_\\-]+
debug = false
# Its first report after start-up, not a minute later.
periodic_fuzzy_delay = 0

[{backend}]
volume_driver = {driver}
volume_backend_name = {backend}

[database]
connection = {db}

[oslo_concurrency]
lock_path = {run}/locks

[coordination]
backend_url = file://{run}/coordination

[oslo_messaging_rabbit]
# Fanout and reply queues (random names) go a minute after their consumer.
rabbit_transient_queues_ttl = 60
""".format(rabbit=rabbit_url, exchange=exchange, venv=venv, run=run_dir,
           host=host, port=port, workers=workers, backend=BACKEND,
           driver=DRIVER, db=db_url)


class CinderReference(scratch.Service):
    """Cinder's three services on a database of their own; a context
    manager: entering starts them and waits until a volume can be made,
    leaving stops them and removes what they made."""

    def __init__(self, state_dir, pg_url, rabbit_url, keep=False,
                 workers=None):
        self.state_dir = os.path.abspath(state_dir)
        self.pg_url, self.rabbit_url = pg_url, rabbit_url
        self.keep = keep
        self.workers = workers or os.cpu_count()
        suffix = scratch.token()
        self.host = 'cinderbench-%s' % suffix
        self.run_dir = os.path.join(self.state_dir, 'cinder-run-%s' % suffix)
        self.database = scratch.Database(pg_url, 'cinder_bench_%s' % suffix)
        self.exchange = 'cinder-bench-%s' % suffix
        self.processes = scratch.Processes()
        self.port = None
        self.url = None
        self.version = None

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def start(self):
        os.makedirs(self.state_dir, exist_ok=True)
        self.venv = ensure_venv(self.state_dir)
        self.version = subprocess.run(
            [self._bin('python'), '-c',
             'import importlib.metadata as m; print(m.version("cinder"))'],
            check=True, capture_output=True, text=True).stdout.strip()
        for sub in ('state', 'locks', 'coordination'):
            os.makedirs(os.path.join(self.run_dir, sub))
        self.database.create()
        self.port = scratch.free_port()
        self.conf = os.path.join(self.run_dir, 'cinder.conf')
        with open(self.conf, 'w') as f:
            f.write(cinder_conf(self.run_dir, self.venv,
                                self.database.url('psycopg2'),
                                self.rabbit_url, self.host, self.port,
                                self.workers, self.exchange))
        env = dict(os.environ, HOME=self.run_dir)
        scratch.run_logged([self._bin('cinder-manage'), '--config-file',
                            self.conf, 'db', 'sync'],
                           os.path.join(self.run_dir, 'db-sync.log'),
                           env=env, cwd=self.run_dir)
        for service in SERVICES:
            self.processes.start(
                service, [self._bin(service), '--config-file', self.conf],
                os.path.join(self.run_dir, '%s.log' % service), env=env,
                cwd=self.run_dir)
        self.url = 'http://127.0.0.1:%d' % self.port
        scratch.wait_http(self.url + '/', self.processes)
        self._wait_for_volume_service()

    def api(self, project='bench', user='admin'):
        return volume_actions.Api(argparse.Namespace(
            url=self.url, project=project, user=user, token=None, header=[],
            api_version='3.44'))

    def _wait_for_volume_service(self, timeout=180):
        """Until cinder-volume reports up, then until a volume reaches
        'available': before the scheduler has the backend's capabilities,
        creates end in 'error' (no valid backend)."""
        api = self.api()
        deadline = time.monotonic() + timeout
        try:
            while not self._volume_service_up(api):
                self._check(deadline, 'cinder-volume is not up')
            while True:
                volume_id = api.create_volume()
                while api.status(volume_id) not in ('available', 'error'):
                    self._check(deadline, 'no volume became available')
                state = api.status(volume_id)
                api.request('DELETE', '/volumes/%s' % volume_id)
                while api.status(volume_id) not in (None, 'deleted'):
                    self._check(deadline, 'the first volume is not deleted')
                if state == 'available':
                    return
        finally:
            api.connection.close()

    def _check(self, deadline, problem):
        self.processes.check_running()
        if time.monotonic() > deadline:
            raise RuntimeError('Cinder: %s; logs in %s'
                               % (problem, self.run_dir))
        time.sleep(0.2)

    @staticmethod
    def _volume_service_up(api):
        _, body = api.request('GET', '/os-services?binary=cinder-volume')
        return any(s['state'] == 'up' for s in body['services'])

    def server_pids(self):
        return [pid for service in SERVICES
                for pid in self.processes.pids(service)]

    def stop(self):
        # Topic queues have fixed names; the exchange is this run's own.
        backend_host = '%s@%s' % (self.host, BACKEND)
        queues = ['cinder-scheduler', 'cinder-scheduler.%s' % self.host,
                  'cinder-volume', 'cinder-volume.%s' % backend_host,
                  'cinder-volume.%s.%s' % (backend_host, self.host)]
        scratch.each_step(
            ('stop Cinder\'s services', self.processes.stop_all),
            ('delete Cinder\'s queues',
             lambda: scratch.delete_queues(self.rabbit_url, queues)),
            ('drop database %s' % self.database.name, self.database.drop),
            ('remove %s' % self.run_dir,
             lambda: scratch.remove_run_dir(self.run_dir, self.keep)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--state-dir', default=default_state_dir())
    p.add_argument('--keep', action='store_true',
                   help='keep the run directory (cinder.conf, logs)')
    args = p.parse_args(argv)
    pg_url, rabbit_url = scratch.servers_from_environment()
    stopping = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopping.set())
    with CinderReference(args.state_dir, pg_url, rabbit_url,
                         keep=args.keep) as cinder:
        print('Cinder %s serving %s/v3/<project> (token "user:project"); '
              'Ctrl-C stops it' % (cinder.version, cinder.url))
        sys.stdout.flush()
        stopping.wait()
    return 0


if __name__ == '__main__':
    sys.exit(main())
