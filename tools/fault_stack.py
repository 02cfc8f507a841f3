"""The production shape of volapi, started for the fault suite, with the
faults it can suffer.

A scratch PostgreSQL and RabbitMQ (tools/servers.sh, in a state directory
of their own, on ports of their own: never the shared servers), two
``volapi-api`` processes and two ``volapi-volume`` workers of one cluster
sharing one volumes directory. Every process is ours: it is stopped by the
PID we started.
"""
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

import sqlalchemy as sa

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = os.path.join(ROOT, 'tools', 'servers.sh')
CLUSTER = 'fault'
# Seconds each storage operation takes (tools/fault_driver.py).
DRIVER_DELAY = 1


def _signal(pid, signum):
    # A PostgreSQL backend may end at any moment: nothing left to signal.
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def write_config(path, sections):
    with open(path, 'w') as f:
        for section, options in sections.items():
            f.write('[%s]\n' % section)
            for key, value in options.items():
                f.write('%s = %s\n' % (key, value))
            f.write('\n')


class Process:
    """A volapi command in a child process, its log in the state dir."""

    def __init__(self, name, argv, log_path):
        self.name, self.argv, self.log_path = name, argv, log_path
        self.process = None

    def start(self):
        log = open(self.log_path, 'ab')
        self.process = subprocess.Popen(
            self.argv, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=ROOT,
                     VOLAPI_FAULT_DRIVER_DELAY=str(DRIVER_DELAY)))
        log.close()
        return self

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self):
        with open(self.log_path, errors='replace') as f:
            return f.read()

    def wait_for_log(self, text, timeout=60, after=0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in self.log()[after:]:
                return
            if not self.alive():
                break
            time.sleep(0.1)
        raise RuntimeError('%s did not log %r:\n%s' % (
            self.name, text, self.log()[-3000:]))


class Stack:
    """Servers and volapi processes; ``faults`` are its methods."""

    def __init__(self, timing):
        self.timing = timing
        # Not under $TMPDIR: the test runner's is private to root, and
        # the scratch PostgreSQL runs as the postgres user. Removed when the
        # suite passes (fault_suite.main).
        self.state = tempfile.mkdtemp(prefix='volapi-fault-', dir='/tmp')
        self.env = {}
        self.apis, self.workers = [], []

    # -- servers -------------------------------------------------------------
    def start_servers(self):
        env = dict(os.environ, VOLAPI_TEST_STATE=self.state,
                   VOLAPI_TEST_SERVERS='postgresql rabbitmq')
        for name in ('VOLAPI_TEST_PG_URL', 'VOLAPI_TEST_RABBIT_URL',
                     'VOLAPI_TEST_MYSQL_URL', 'VOLAPI_TEST_PG_PORT',
                     'VOLAPI_TEST_RABBIT_PORT'):
            env.pop(name, None)
        # Ports away from the shared servers' defaults.
        env.update(VOLAPI_TEST_PG_PORT=str(free_port()),
                   VOLAPI_TEST_RABBIT_PORT=str(free_port()),
                   VOLAPI_TEST_RABBIT_DIST_PORT=str(free_port()),
                   VOLAPI_TEST_EPMD_PORT=str(free_port()),
                   VOLAPI_TEST_KEEP_STATE='1')
        out = subprocess.run([SERVERS, 'start'], env=env, check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith('export '):
                key, _, value = line[len('export '):].partition('=')
                self.env[key] = shlex.split(value)[0] if value else ''
        self.pg_url = self.env['VOLAPI_TEST_PG_URL']
        self.rabbit_url = self.env['VOLAPI_TEST_RABBIT_URL']
        self.engine = sa.create_engine(self.pg_url, pool_pre_ping=True)

    def stop_servers(self):
        # A restart fault leaves a postmaster that servers.sh did not start
        # (nor will stop): stop it first; one already down is fine.
        try:
            self._pg('stop', '-m', 'fast', '-w')
        except (subprocess.CalledProcessError, OSError):
            pass
        env = dict(os.environ, VOLAPI_TEST_STATE=self.state)
        env.pop('VOLAPI_TEST_KEEP_STATE', None)
        subprocess.run([SERVERS, 'stop'], env=env, capture_output=True)
        if hasattr(self, 'engine'):
            self.engine.dispose()

    # -- volapi ----------------------------------------------------------------
    def _config(self, name, host):
        path = os.path.join(self.state, '%s.conf' % name)
        t = self.timing
        write_config(path, {
            'DEFAULT': {'host': host, 'cluster': CLUSTER,
                        'state_path': self.state,
                        'transport_url': self.rabbit_url,
                        'report_interval': t['report_interval'],
                        'service_down_time': t['service_down_time'],
                        'rpc_response_timeout': 10},
            'database': {'connection': self.pg_url},
            'volume': {'volumes_dir': os.path.join(self.state, 'volumes'),
                       'volume_driver': 'tools.fault_driver.SlowFileDriver',
                       'cleanup_interval': t['cleanup_interval'],
                       'unclaimed_work_timeout':
                           t['unclaimed_work_timeout'],
                       'attach_hold_timeout': t['attach_hold_timeout']},
            'oslo_messaging_rabbit': {
                'amqp_durable_queues': t['durable_queues'],
                'rabbit_retry_interval': 1,
                'rabbit_retry_backoff': 1},
        })
        return path

    def start_volapi(self):
        manage = self._config('manage', 'manage')
        subprocess.run([sys.executable, '-m', 'volapi.cmd.manage',
                        '--config-file', manage, 'db', 'sync'], check=True,
                       cwd=ROOT, capture_output=True,
                       env=dict(os.environ, PYTHONPATH=ROOT))
        for i in (1, 2):
            port = free_port()
            conf = self._config('api-%d' % i, 'api-%d' % i)
            api = Process('api-%d' % i, [
                sys.executable, '-m', 'volapi.cmd.api', '--config-file',
                conf, '--bind', '127.0.0.1:%d' % port],
                os.path.join(self.state, 'api-%d.log' % i))
            api.url = 'http://127.0.0.1:%d' % port
            self.apis.append(api.start())
        for i in (1, 2):
            conf = self._config('worker-%d' % i, 'worker-%d' % i)
            self.workers.append(Process('worker-%d' % i, [
                sys.executable, '-m', 'volapi.cmd.volume', '--config-file',
                conf], os.path.join(self.state, 'worker-%d.log' % i)).start())
        for api in self.apis:
            api.wait_for_log('serving HTTP on')
        for worker in self.workers:
            worker.wait_for_log('as %s@file' % CLUSTER)

    def stop_volapi(self):
        for process in self.apis + self.workers:
            process.stop()

    # -- faults ------------------------------------------------------------------
    def kill_worker(self, i, down_for):
        worker = self.workers[i]
        worker.kill()
        time.sleep(down_for)
        mark = len(worker.log())
        worker.start()
        worker.wait_for_log('as %s@file' % CLUSTER, after=mark)

    def kill_api(self, i, down_for):
        api = self.apis[i]
        api.kill()
        time.sleep(down_for)
        mark = len(api.log())
        api.start()
        api.wait_for_log('serving HTTP on', after=mark)

    def _pg(self, *args):
        data = os.path.join(self.state, 'postgresql', 'data')
        bindir = subprocess.run(
            ['bash', '-c', '. %s && _vts_pg_bindir' % SERVERS],
            capture_output=True, text=True, check=True).stdout.strip()
        argv = [os.path.join(bindir, 'pg_ctl'), '-D', data] + list(args)
        if os.getuid() == 0:
            argv = ['runuser', '-u', 'postgres', '--'] + argv
        subprocess.run(argv, check=True, capture_output=True,
                       cwd=os.path.join(self.state, 'postgresql'))

    def restart_postgresql(self, down_for=0):
        self._pg('stop', '-m', 'fast', '-w')
        time.sleep(down_for)
        log = os.path.join(self.state, 'postgresql', 'postgresql.log')
        self._pg('start', '-w', '-l', log)

    def _postgres_pids(self):
        data = os.path.join(self.state, 'postgresql', 'data')
        with open(os.path.join(data, 'postmaster.pid')) as f:
            postmaster = int(f.readline())
        pids = [postmaster]
        for entry in os.listdir('/proc'):
            if entry.isdigit():
                try:
                    with open('/proc/%s/stat' % entry) as f:
                        fields = f.read().rpartition(')')[2].split()
                except OSError:
                    continue
                if int(fields[1]) == postmaster:
                    pids.append(int(entry))
        return pids

    def pause_postgresql(self, seconds):
        pids = self._postgres_pids()
        for pid in pids:
            _signal(pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            # Children first: the postmaster, once resumed, reaps a child
            # that had ended (a zombie when listed), and its pid is gone.
            for pid in reversed(pids):
                _signal(pid, signal.SIGCONT)

    def restart_rabbitmq(self, down_for=0):
        rabbit = os.path.join(self.state, 'rabbitmq')

        def ctl(*args):
            subprocess.run(
                ['bash', '-c', '. %s/rabbitmq.env && exec timeout 60 '
                 '"$RABBIT_BINDIR/rabbitmqctl" -n "$RABBITMQ_NODENAME" %s'
                 % (rabbit, ' '.join(args))],
                check=True, capture_output=True, cwd=rabbit)

        ctl('stop_app')
        time.sleep(down_for)
        ctl('start_app')

    # -- the truth, read from the database and the volumes directory --------
    def query(self, sql):
        with self.engine.connect() as conn:
            return conn.execute(sa.text(sql)).all()
