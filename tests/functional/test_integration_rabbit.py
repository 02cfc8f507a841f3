"""volapi deployed as in production and driven over HTTP: TWO volapi-api
processes and ONE volapi-volume worker, on PostgreSQL and RabbitMQ.

A volume is created, extended, attached (attachments API: the worker's
connection info comes back through an RPC call), detached, snapshotted and
deleted; each request goes to one API process and the result is awaited
through the other, so nothing depends on a process's memory. Runs when
VOLAPI_TEST_DB_URL is PostgreSQL and VOLAPI_TEST_RABBIT_URL is set.
"""
import os
import time
import uuid

import requests
import testtools

from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import worker_fixtures as wf

RABBIT_URL = volapi_fixtures.rabbit_url()
GiB = 1024 ** 3
VERSION = {'OpenStack-API-Version': 'volume 3.59'}


@testtools.skipIf(volapi_fixtures.backend_name() != 'postgresql',
                  'the production integration test runs on PostgreSQL '
                  '(VOLAPI_TEST_DB_URL=postgresql+psycopg://...)')
@testtools.skipIf(RABBIT_URL is None,
                  'VOLAPI_TEST_RABBIT_URL is not set: the integration test '
                  'needs RabbitMQ between its processes')
class ProductionDeploymentTest(base.DatabaseTestCase):

    PROJECT = 'it-project'

    def setUp(self):
        super().setUp()
        self.rabbit = self.useFixture(wf.RabbitTopic(self, RABBIT_URL))
        state = self.useFixture(wf.fixtures.TempDir()).path
        self.volumes_dir = os.path.join(state, 'volumes')

        def options(host):
            return {
                None: {'host': host, 'state_path': state,
                       'transport_url': RABBIT_URL,
                       'volume_topic': self.rabbit.topic,
                       'report_interval': 2},
                'database': {'connection': volapi_fixtures.prepared_url()},
                'volume': {'volumes_dir': self.volumes_dir},
            }

        self.rabbit.server('it-worker@file')  # its queue, deleted after
        worker = self.useFixture(wf.Process('volume', options('it-worker')))
        self.apis = []
        for name in ('it-api-1', 'it-api-2'):
            port = wf.free_port()
            api = self.useFixture(wf.Process(
                'api', options(name), args=['--bind', '127.0.0.1:%d' % port]))
            self.apis.append((api, 'http://127.0.0.1:%d/v3/%s' % (
                port, self.PROJECT)))
        self.processes = [worker] + [api for api, _ in self.apis]
        worker.wait_for_log('RPC server listening')
        for api, _ in self.apis:
            api.wait_for_log('serving HTTP on')
        self.http = requests.Session()
        self.http.headers.update(VERSION)
        self.http.headers['X-Auth-Token'] = 'it-user:%s' % self.PROJECT
        self._turn = 0

    # -- HTTP, alternating between the two API processes ----------------------
    def url(self, path):
        self._turn += 1
        return self.apis[self._turn % 2][1] + path

    def request(self, method, path, expected, **kwargs):
        response = self.http.request(method, self.url(path), timeout=60,
                                     **kwargs)
        self.assertEqual(expected, response.status_code, response.text)
        return response.json() if response.content else None

    def wait_for(self, path, key, field, value, timeout=60):
        deadline = time.time() + timeout
        while True:
            body = self.request('GET', path, 200)[key]
            if body[field] == value:
                return body
            if time.time() > deadline:
                self.fail('%s: %s is %r, not %r after %ss' % (
                    path, field, body[field], value, timeout))
            time.sleep(0.1)

    def wait_gone(self, path, timeout=60):
        deadline = time.time() + timeout
        while self.http.get(self.url(path), timeout=60).status_code != 404:
            if time.time() > deadline:
                self.fail('%s still exists after %ss' % (path, timeout))
            time.sleep(0.1)

    def volume_file(self, volume_id):
        return os.path.join(self.volumes_dir, 'volume-%s' % volume_id)

    # -- the lifecycle --------------------------------------------------------
    def test_volume_lifecycle(self):
        volume = self.request('POST', '/volumes', 202, json={
            'volume': {'size': 1, 'name': 'it-volume'}})['volume']
        path = '/volumes/%s' % volume['id']
        self.assertEqual('creating', volume['status'])
        self.wait_for(path, 'volume', 'status', 'available')
        self.assertEqual(GiB, os.path.getsize(self.volume_file(volume['id'])))

        self.request('POST', path + '/action', 202,
                     json={'os-extend': {'new_size': 2}})
        volume = self.wait_for(path, 'volume', 'status', 'available')
        self.assertEqual(2, volume['size'])
        self.assertEqual(2 * GiB,
                         os.path.getsize(self.volume_file(volume['id'])))

        instance = str(uuid.uuid4())
        attachment = self.request('POST', '/attachments', 200, json={
            'attachment': {'volume_uuid': volume['id'],
                           'instance_uuid': instance,
                           'connector': {'host': 'compute-1',
                                         'initiator': 'iqn.x:compute-1',
                                         'mountpoint': '/dev/vdb'}}}
        )['attachment']
        self.assertEqual(
            {'driver_volume_type': 'local',
             'data': {'device_path': self.volume_file(volume['id'])}},
            {k: attachment['connection_info'][k]
             for k in ('driver_volume_type', 'data')})
        self.request('POST', '/attachments/%s/action' % attachment['id'],
                     204, json={'os-complete': None})
        volume = self.wait_for(path, 'volume', 'status', 'in-use')
        self.assertEqual([instance], [a['server_id']
                                      for a in volume['attachments']])

        self.request('DELETE', '/attachments/%s' % attachment['id'], 200)
        self.wait_for(path, 'volume', 'status', 'available')

        snapshot = self.request('POST', '/snapshots', 202, json={
            'snapshot': {'volume_id': volume['id'], 'name': 'it-snap'}}
        )['snapshot']
        snapshot_path = '/snapshots/%s' % snapshot['id']
        self.wait_for(snapshot_path, 'snapshot', 'status', 'available')
        snapshot_file = os.path.join(self.volumes_dir,
                                     'snapshot-%s' % snapshot['id'])
        self.assertEqual(2 * GiB, os.path.getsize(snapshot_file))

        self.request('DELETE', snapshot_path, 202)
        self.wait_gone(snapshot_path)
        self.assertFalse(os.path.exists(snapshot_file))
        self.request('DELETE', path, 202)
        self.wait_gone(path)
        self.assertEqual([], os.listdir(self.volumes_dir))

        # Every process shuts down cleanly on SIGTERM.
        for process in self.processes:
            process.process.terminate()
        self.assertEqual([0, 0, 0], [p.process.wait(60)
                                     for p in self.processes])
