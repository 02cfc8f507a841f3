"""Concurrent claims on one provider, over real HTTP, against a real
multi-process, multi-threaded server (gunicorn) on 127.0.0.1.

Each run: a fresh provider with DISK_GB capacity 100; 32 clients each claim
1 unit for new consumers (1.28, consumer_generation null) until the
provider is full. Exactly 100 claims succeed, every other one is a 409 for
capacity (never a provider-generation race, never a 5xx), and the provider
holds exactly 100. 20 runs.

It is about PostgreSQL's and MariaDB's row locking and retries, so it runs
only on those backends; SQLite serialises all writers of a database.
"""
import collections
import json
import threading
import time
import uuid as uuidlib

import requests

from tests import base
from tests.functional import http_server_fixture

CLIENTS = 32
CLAIMS_PER_CLIENT = 4          # 128 claims for 100 units
CAPACITY = 100
RUNS = 20
SERVER_WORKERS = 2
SERVER_THREADS = 16            # 2 x 16 requests in flight at once
START_TIMEOUT = 60
CAPACITY_MESSAGE = 'The requested amount would exceed the capacity.'


class Client:
    """One HTTP client (its own keep-alive connection) as admin."""

    def __init__(self, url):
        self.url = url
        self.session = requests.Session()
        self.session.headers.update({
            'X-Auth-Token': 'admin', 'Accept': 'application/json',
            'OpenStack-API-Version': 'placement 1.28'})

    def call(self, method, path, body=None):
        return self.session.request(
            method, self.url + path,
            data=None if body is None else json.dumps(body),
            headers={'Content-Type': 'application/json'} if body else {},
            timeout=120)

    def claim(self, provider):
        return self.call('PUT', '/allocations/%s' % uuidlib.uuid4(), {
            'allocations': {provider: {'resources': {'DISK_GB': 1}}},
            'project_id': 'contention', 'user_id': 'contention',
            'consumer_generation': None})


class TestContention(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        if self.backend not in ('postgresql', 'mysql'):
            self.skipTest('contention on one provider is a test of '
                          'PostgreSQL and MariaDB row locking; SQLite '
                          'serialises every writer')
        self.server = self.useFixture(http_server_fixture.GunicornServer(
            workers=SERVER_WORKERS, threads=SERVER_THREADS,
            timeout=START_TIMEOUT, max_pool_size=SERVER_THREADS + 2))
        self.placement_url = self.server.url + '/placement'
        self.admin = Client(self.placement_url)

    def _provider(self):
        uuid = str(uuidlib.uuid4())
        response = self.admin.call('POST', '/resource_providers',
                                   {'uuid': uuid, 'name': uuid})
        self.assertEqual(200, response.status_code, response.text)
        response = self.admin.call(
            'PUT', '/resource_providers/%s/inventories' % uuid,
            {'resource_provider_generation': 0,
             'inventories': {'DISK_GB': {'total': CAPACITY}}})
        self.assertEqual(200, response.status_code, response.text)
        return uuid

    def _run(self, clients):
        provider = self._provider()
        outcomes = collections.Counter()
        unexpected = []
        lock = threading.Lock()
        start = threading.Barrier(len(clients))

        def claim_all(client):
            start.wait()
            for _ in range(CLAIMS_PER_CLIENT):
                try:
                    response = client.claim(provider)
                except requests.RequestException as exc:
                    with lock:
                        unexpected.append(repr(exc))
                    continue
                with lock:
                    if response.status_code == 204:
                        outcomes['claimed'] += 1
                    elif (response.status_code == 409 and
                          CAPACITY_MESSAGE in response.text):
                        outcomes['full'] += 1
                    else:
                        unexpected.append((response.status_code,
                                           response.text))

        threads = [threading.Thread(target=claim_all, args=(c,))
                   for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        held = self.admin.call('GET', '/resource_providers/%s/allocations'
                               % provider).json()['allocations']
        usage = self.admin.call('GET', '/resource_providers/%s/usages'
                                % provider).json()['usages']['DISK_GB']
        return outcomes, unexpected, len(held), usage

    def test_exactly_capacity_is_claimed_every_run(self):
        clients = [Client(self.placement_url) for _ in range(CLIENTS)]
        started = time.monotonic()
        for run in range(RUNS):
            outcomes, unexpected, held, usage = self._run(clients)
            self.assertEqual(
                ([], {'claimed': CAPACITY,
                      'full': CLIENTS * CLAIMS_PER_CLIENT - CAPACITY},
                 CAPACITY, CAPACITY),
                (unexpected, dict(outcomes), held, usage),
                'run %d; server log:\n%s' % (run, self.server.output()[-3000:]))
        # Seen in the test log: how long the runs took on this backend.
        print('%s: %d runs of %d claims by %d clients in %.1fs' % (
            self.backend, RUNS, CLIENTS * CLAIMS_PER_CLIENT, CLIENTS,
            time.monotonic() - started))
