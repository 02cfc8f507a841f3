"""Shared set-up of the worker-side functional tests: rows in the states the
API leaves them in, services with a given heartbeat age, and a volume
worker's parts (file driver, services row, manager) in this process."""
import datetime
import os
import socket
import subprocess
import sys
import time
import uuid

import fixtures
import sqlalchemy as sa
from oslo_utils import timeutils

from db import models
from db import session
import objects
from rpc import transport as rpc_transport
from tests import fixtures as volapi_fixtures
from volapi import service as volapi_service
from volapi.volume import api as volume_api
from volapi.volume import drivers
from volapi.volume import manager as volume_manager
from volapi.volume import pools
from volapi.volume.drivers import file as file_driver
from volapi.volume.transitions import engine
from volapi.volume.transitions import table


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on (for a child server)."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def insert(context, model, **values):
    with session.writer.connection.using(context) as conn:
        conn.execute(sa.insert(model.__table__).values(**values))


def make_volume(context, status='creating', size=1, **values):
    """A volume row as the API leaves it (plus its workers row when the
    status is one a worker finishes)."""
    row = dict(id=str(uuid.uuid4()), project_id='project', user_id='user',
               size=size, status=status, attach_status='detached',
               bootable=False, multiattach=False, deleted=False,
               created_at=timeutils.utcnow())
    row.update(values)
    insert(context, models.Volume, **row)
    if status == 'creating':
        track(context, 'volume', row['id'], status)
    return objects.Volume.get_by_id(context, row['id'])


def make_snapshot(context, volume, status='creating', tracked=True):
    """A snapshot row as the API leaves it (plus, with ``tracked``, its
    workers row when it is 'creating')."""
    snapshot_id = str(uuid.uuid4())
    insert(context, models.Snapshot, id=snapshot_id, volume_id=volume.id,
           project_id=volume.project_id, user_id=volume.user_id,
           status=status, volume_size=volume.size, deleted=False,
           created_at=timeutils.utcnow())
    if status == 'creating' and tracked:
        track(context, 'snapshot', snapshot_id, status)
    return objects.Snapshot.get_by_id(context, snapshot_id)


def make_volume_type(context, name=None):
    type_id = str(uuid.uuid4())
    name = name or 'type-%s' % type_id[:8]
    insert(context, models.VolumeType, id=type_id, name=name,
           is_public=True, deleted=False,
           created_at=timeutils.utcnow())
    return type_id


def track(context, resource, resource_id, status):
    engine.run(context, lambda ctx: objects.Worker.track(
        ctx, resource, resource_id, status))


def extend(context, volume, new_size):
    """What the API does for os-extend: the transition (which records the
    operation in ``workers``), then the cast."""
    engine.apply(context, 'extend', volume, new_size=new_size)
    volume_api.worker_client().extend_volume(context, volume, new_size)


def worker_row(context, resource, resource_id):
    return objects.Worker.get_by_resource(
        context, table.WORKER_TYPES[resource], resource_id)


def make_service(context, host, age=0, binary='volapi-volume',
                 cluster_name=None):
    """A services row whose last heartbeat was ``age`` seconds ago."""
    service = objects.Service.register(context, host, binary,
                                       cluster_name=cluster_name)
    service.heartbeat(now=timeutils.utcnow() -
                      datetime.timedelta(seconds=age))
    return service


class Worker(fixtures.Fixture):
    """A volume worker's parts in this process, without RPC: a file driver
    under a temporary directory, a registered and heartbeating service and
    the manager. Tests call the manager's endpoint methods directly."""

    def __init__(self, test, host='worker-1', driver_class=None):
        super().__init__()
        self.test, self.host = test, host
        self.driver_class = driver_class

    def _setUp(self):
        conf = self.test.config.conf
        volumes_dir = self.useFixture(fixtures.TempDir()).path
        self.test.config.set('volume', volumes_dir=volumes_dir)
        self.driver = (self.driver_class(conf) if self.driver_class
                       else drivers.load(conf))
        self.driver.do_setup()
        self.server_name = '%s@file' % self.host
        self.heartbeat = volapi_service.ServiceHeartbeat(
            self.test.context, self.server_name, 'volapi-volume',
            'volapi-volume', report_interval=conf.report_interval).start()
        self.addCleanup(self.heartbeat.stop)
        self.manager = volume_manager.VolumeManager(
            self.driver, self.heartbeat,
            host='%s#%s' % (self.server_name, self.driver.pool_name))

    @property
    def service_id(self):
        return self.heartbeat.service_id


class Pools(fixtures.Fixture):
    """The pools worker ``host`` reports to placement when it starts (file
    driver, ``[volume] file_pools`` as given), without the worker: volume
    creates are scheduled onto them and cast to that worker."""

    def __init__(self, test, host='worker-1', **options):
        super().__init__()
        self.test, self.host = test, host
        # [volume] options: file_pools, max_over_subscription_ratio ...
        self.options = options

    def _setUp(self):
        conf = self.test.config.conf
        if self.options:
            self.test.config.set('volume', **self.options)
        volumes_dir = self.useFixture(fixtures.TempDir()).path
        self.test.config.set('volume', volumes_dir=volumes_dir)
        self.driver = file_driver.FileDriver(conf)
        self.driver.do_setup()
        self.server_name = '%s@%s' % (self.host, conf.volume.backend_name)
        self.reporter = pools.PoolReporter(self.test.context, conf,
                                           self.driver, self.server_name)
        # {pool name: provider uuid}
        self.providers = self.reporter.report()

    def host_of(self, pool):
        return '%s#%s' % (self.server_name, pool)


class PrivateFakeTransport(fixtures.Fixture):
    """The in-process ``fake://`` transport on an exchange of this test's
    own, used by the service layer's client and by servers alike."""

    def __init__(self, test):
        super().__init__()
        self.test = test

    def _setUp(self):
        self.test.config.set(control_exchange='test-%s' % uuid.uuid4().hex)
        forget_clients()
        self.addCleanup(forget_clients)
        self.transport = rpc_transport.get_transport(self.test.config.conf)


def forget_clients():
    """Drop the process's transports and the service layer's client, so
    the next ones are made from the configuration a test just set."""
    rpc_transport.cleanup()
    volume_api.reset_worker_client()


class RabbitTopic(fixtures.Fixture):
    """This test's own volume topic on the RabbitMQ of
    ``VOLAPI_TEST_RABBIT_URL``: test processes sharing the broker never
    consume each other's messages. The service layer's client is made
    afresh for it; its queues are deleted afterwards."""

    def __init__(self, test, url):
        super().__init__()
        self.test, self.url = test, url

    def _setUp(self):
        self.topic = 'volapi-test-%s' % uuid.uuid4().hex
        self.servers = []
        self.test.config.set(transport_url=self.url, volume_topic=self.topic)
        self.addCleanup(self._delete_queues)
        forget_clients()
        self.addCleanup(forget_clients)

    def server(self, name):
        """Remember that ``name`` listens on the topic (its queue)."""
        self.servers.append(name)
        return name

    def _delete_queues(self):
        import kombu
        names = [self.topic] + ['%s.%s' % (self.topic, s)
                                for s in self.servers]
        with kombu.Connection(self.url.replace('rabbit://', 'amqp://', 1),
                              connect_timeout=5) as conn:
            channel = conn.channel()
            for name in names:
                channel.queue_delete(name)


class Process(fixtures.Fixture):
    """A volapi command (``volapi.cmd.<command>``) in a child process, with
    a configuration file of its own (``options``: {group: {name: value}},
    None for [DEFAULT]; no file at all if ``options`` is None) and its log
    in a file. Killed at cleanup if still running. ``argv`` replaces the
    command line (the configuration file is then in ``VOLAPI_CONFIG_FILE``,
    as volapi.wsgi reads it); ``env`` adds to the environment."""

    def __init__(self, command, options, args=(), argv=None, env=None):
        super().__init__()
        self.command, self.options, self.args = command, options, list(args)
        self.argv, self.env = argv, env or {}

    def _setUp(self):
        directory = self.useFixture(fixtures.TempDir()).path
        env = dict(os.environ, **self.env)
        argv = [sys.executable, '-m', 'volapi.cmd.%s' % self.command]
        if self.options is not None:
            self.config_file = os.path.join(directory, 'volapi.conf')
            volapi_fixtures.write_config(self.config_file, self.options)
            argv += ['--config-file', self.config_file]
            env['VOLAPI_CONFIG_FILE'] = self.config_file
        self.log_file = os.path.join(directory, 'log')
        with open(self.log_file, 'wb') as log:
            self.process = subprocess.Popen(
                self.argv or argv + self.args, env=env,
                stdout=log, stderr=subprocess.STDOUT,
                cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                    os.path.abspath(__file__)))))
        self.addCleanup(self._kill)

    def _kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log(self):
        with open(self.log_file, errors='replace') as f:
            return f.read()

    def wait_for_log(self, text, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in self.log():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError('%r not logged by %s (exit code %s):\n%s' % (
            text, self.argv or self.command, self.process.poll(),
            self.log()))

    def wait_for_http(self, url, timeout=60):
        """Until ``url`` answers (any status); returns the response."""
        import requests
        deadline = time.time() + timeout
        while True:
            try:
                return requests.get(url, timeout=5)
            except (requests.ConnectionError, requests.Timeout):
                if self.process.poll() is not None or \
                        time.time() > deadline:
                    raise AssertionError('%s never answered (exit code %s):'
                                         '\n%s' % (url, self.process.poll(),
                                                   self.log()))
                time.sleep(0.1)

    def terminate(self, timeout=60):
        """SIGTERM, and the exit code once it has shut down."""
        self.process.terminate()
        return self.process.wait(timeout)
