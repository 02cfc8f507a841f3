"""volapi from this working tree deployed as in production for a bench:
volapi-api (one worker process per core) and one volapi-volume worker (file driver) as background
processes on 127.0.0.1, a PostgreSQL database of their own and RabbitMQ on
a topic of their own. A context manager, the counterpart of
bench/cinder_reference.py's ``CinderReference``: entering starts them and
waits until a volume can be made, leaving stops them and removes what they
made (processes, queues, database, run directory).
"""
import argparse
import os
import sys
import time

import scratch
import volume_actions

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BACKEND = 'file'
POOL = 'bench'


def volapi_conf(run_dir, db_url, rabbit_url, host, port, topic,
                pool_gib, workers):
    return """[DEFAULT]
host = {host}
state_path = {run}/state
transport_url = {rabbit}
volume_topic = {topic}

[api]
bind_host = 127.0.0.1
bind_port = {port}
workers = {workers}

[database]
connection = {db}

[volume]
backend_name = {backend}
volumes_dir = {run}/volumes
# A capacity of its own, so the bench does not depend on the disk's.
file_pools = {pool}:{pool_gib}

[oslo_messaging_rabbit]
rabbit_transient_queues_ttl = 60
""".format(host=host, run=run_dir, rabbit=rabbit_url, topic=topic,
           port=port, db=db_url, backend=BACKEND, pool=POOL,
           pool_gib=pool_gib, workers=workers)


class VolapiServices(scratch.Service):

    def __init__(self, state_dir, pg_url, rabbit_url, keep=False,
                 pool_gib=100000, workers=None):
        suffix = scratch.token()
        self.state_dir = os.path.abspath(state_dir)
        self.rabbit_url = rabbit_url
        self.keep = keep
        self.pool_gib = pool_gib
        # As many API processes as cores, as Cinder's osapi_volume_workers.
        self.workers = workers or os.cpu_count()
        self.host = 'volapibench-%s' % suffix
        self.topic = 'volapi-bench-%s' % suffix
        self.run_dir = os.path.join(self.state_dir, 'volapi-run-%s' % suffix)
        self.database = scratch.Database(pg_url, 'volapi_bench_%s' % suffix)
        self.processes = scratch.Processes()
        self.url = None

    def _command(self, module, *args):
        return [sys.executable, '-m', 'volapi.cmd.%s' % module,
                '--config-file', self.conf] + list(args)

    def start(self):
        os.makedirs(os.path.join(self.run_dir, 'state'))
        self.database.create()
        port = scratch.free_port()
        self.conf = os.path.join(self.run_dir, 'volapi.conf')
        with open(self.conf, 'w') as f:
            f.write(volapi_conf(self.run_dir, self.database.url('psycopg'),
                                self.rabbit_url, self.host, port,
                                self.topic, self.pool_gib, self.workers))
        # This tree's code, whatever is installed.
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [REPO] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
        scratch.run_logged(self._command('manage', 'db', 'sync'),
                           os.path.join(self.run_dir, 'db-sync.log'),
                           env=env, cwd=self.run_dir)
        for name, module in (('volapi-volume', 'volume'),
                             ('volapi-api', 'api')):
            self.processes.start(
                name, self._command(module),
                os.path.join(self.run_dir, '%s.log' % name), env=env,
                cwd=self.run_dir)
        self.url = 'http://127.0.0.1:%d' % port
        scratch.wait_http(self.url + '/', self.processes)
        self._wait_for_first_volume()

    def api(self, project='bench', user='admin'):
        """The volume API as ``user`` (noauth; 'admin' is an
        administrator) in ``project``."""
        return volume_actions.Api(argparse.Namespace(
            url=self.url, project=project, user=user, token=None, header=[],
            api_version='3.44'))

    def _wait_for_first_volume(self, timeout=120):
        """Until a volume reaches 'available': the worker has reported its
        pool to placement and listens on its topic."""
        api = self.api()
        deadline = time.monotonic() + timeout
        try:
            while True:
                volume_id = api.create_volume()
                while api.status(volume_id) not in ('available', 'error'):
                    self._check(deadline)
                state = api.status(volume_id)
                api.request('DELETE', '/volumes/%s' % volume_id)
                while api.status(volume_id) not in (None, 'deleted'):
                    self._check(deadline)
                if state == 'available':
                    return
        finally:
            api.connection.close()

    def _check(self, deadline):
        self.processes.check_running()
        if time.monotonic() > deadline:
            raise RuntimeError('volapi: no volume became available; logs '
                               'in %s' % self.run_dir)
        time.sleep(0.1)

    def server_pids(self):
        return [pid for name in ('volapi-api', 'volapi-volume')
                for pid in self.processes.pids(name)]

    def stop(self):
        queues = [self.topic, '%s.%s@%s' % (self.topic, self.host, BACKEND)]
        scratch.each_step(
            ('stop volapi\'s services', self.processes.stop_all),
            ('delete volapi\'s queues',
             lambda: scratch.delete_queues(self.rabbit_url, queues)),
            ('drop database %s' % self.database.name, self.database.drop),
            ('remove %s' % self.run_dir,
             lambda: scratch.remove_run_dir(self.run_dir, self.keep)))
