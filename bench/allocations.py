#!/usr/bin/env python3
"""Allocation write throughput of a Placement-compatible endpoint.

    python bench/allocations.py URL [URL ...] [--token admin]
        [--clients 1,8,32] [--duration 10] [--contention-duration 10]

For each URL (volapi's placement API, or OpenStack Placement) it creates 20
resource providers with DISK_GB inventory, then measures claims of new
consumers (PUT /allocations/{new uuid}, microversion 1.28,
``consumer_generation: null``, 1 DISK_GB each) spread over the 20
providers, with 1, 8 and 32 concurrent clients (each with its own
keep-alive connection, http.client): claims/s, p50/p99 latency, the 409s
(by error code: on providers with room to spare, every 409 is a lost
generation race) and the bench client's own CPU time per request (what it
took from a server on the same machine); requests sent again after the
server dropped an idle connection show in the last column as
``reconnects: N``. Then the contention case: 32 clients claiming on one
provider. Finally the invariant check: for each provider, the sum of its
allocations equals its usage and is within capacity. With several URLs the
levels are interleaved (A at 1 client, B at 1 client, A at 8, ...) so that
both see the same machine.

Requests carry ``X-Auth-Token`` (``--token``, default ``admin``: noauth2's
admin, in volapi and in Placement).

Serving volapi for it (127.0.0.1 only; a database of its own)::

    cat > /tmp/volapi-bench.conf <<EOF
    [database]
    connection = postgresql+psycopg://volapi:volapi@127.0.0.1:5433/volapi_bench
    max_pool_size = 20
    [placement]
    auth_strategy = noauth2
    EOF
    createdb ... volapi_bench   # or CREATE DATABASE volapi_bench
    volapi-manage --config-file /tmp/volapi-bench.conf db sync
    VOLAPI_CONFIG_FILE=/tmp/volapi-bench.conf gunicorn -b 127.0.0.1:8779 \\
        -w 2 --threads 16 -k gthread volapi.wsgi.placement:application

Serving OpenStack Placement 16.0.0 to compare (same machine, same server
settings, a separate database)::

    python3 -m venv /tmp/placement-venv
    /tmp/placement-venv/bin/pip install openstack-placement==16.0.0 \\
        psycopg2-binary gunicorn
    mkdir -p /tmp/placement-bench
    cat > /tmp/placement-bench/placement.conf <<EOF
    [placement_database]
    connection = postgresql+psycopg2://volapi:volapi@127.0.0.1:5433/placement_bench
    max_pool_size = 20
    [api]
    auth_strategy = noauth2
    EOF
    CREATE DATABASE placement_bench   # e.g. with psql
    /tmp/placement-venv/bin/placement-manage \\
        --config-file /tmp/placement-bench/placement.conf db sync
    OS_PLACEMENT_CONFIG_DIR=/tmp/placement-bench \\
        /tmp/placement-venv/bin/gunicorn -b 127.0.0.1:8778 \\
        -w 2 --threads 16 -k gthread placement.wsgi.api:application

(The WSGI module of Placement 16.0.0 is ``placement.wsgi.api``, whose
``application`` reads ``$OS_PLACEMENT_CONFIG_DIR/placement.conf``;
``placement-manage`` takes ``--config-file``.) Then::

    python bench/allocations.py http://127.0.0.1:8779 http://127.0.0.1:8778
"""
import argparse
import collections
import http.client
import json
import statistics
import sys
import threading
import time
import uuid as uuidlib

import keepalive_client

PROVIDERS = 20
CAPACITY = 10 ** 6              # room to spare: no claim fails for capacity
CONTENTION_CAPACITY = 10 ** 6
VERSION = '1.28'


class Target:
    """One endpoint and what the bench created there."""

    def __init__(self, url, token):
        self.url = url.rstrip('/')
        self.providers = []
        self.contended = None
        self.headers = {'X-Auth-Token': token, 'Accept': 'application/json',
                        'OpenStack-API-Version': 'placement %s' % VERSION}
        self.json_headers = dict(self.headers,
                                 **{'Content-Type': 'application/json'})

    def connect(self):
        """A keep-alive connection of its own (one per client thread)."""
        return keepalive_client.Connection(self.url, timeout=300)

    def call(self, connection, method, path, body=None, expect=None):
        """(status, response body bytes); ``body`` is sent as JSON."""
        status, content = connection.request(
            method, path, None if body is None else json.dumps(body).encode(),
            self.headers if body is None else self.json_headers)
        if expect is not None and status != expect:
            raise RuntimeError('%s %s%s: %d %s' % (
                method, self.url, path, status,
                content[:500].decode(errors='replace')))
        return status, content

    def create_provider(self, connection, name, capacity):
        uuid = str(uuidlib.uuid4())
        self.call(connection, 'POST', '/resource_providers',
                  {'uuid': uuid, 'name': name}, expect=200)
        self.call(connection, 'PUT',
                  '/resource_providers/%s/inventories' % uuid,
                  {'resource_provider_generation': 0,
                   'inventories': {'DISK_GB': {'total': capacity}}},
                  expect=200)
        return uuid, capacity

    def set_up(self):
        connection = self.connect()
        tag = uuidlib.uuid4().hex[:8]
        self.providers = [
            self.create_provider(connection, 'bench-%s-%d' % (tag, n),
                                 CAPACITY)
            for n in range(PROVIDERS)]
        self.contended = self.create_provider(
            connection, 'bench-%s-contended' % tag, CONTENTION_CAPACITY)
        connection.close()


def claim_body(provider):
    """The claim of one DISK_GB on ``provider`` by a new consumer."""
    return json.dumps({
        'allocations': {provider: {'resources': {'DISK_GB': 1}}},
        'project_id': 'bench', 'user_id': 'bench',
        'consumer_generation': None}).encode()


def claim(target, connection, body):
    """One new-consumer claim: (seconds, status, error code or None)."""
    started = time.perf_counter()
    status, content = connection.request(
        'PUT', '/allocations/%s' % uuidlib.uuid4(), body,
        target.json_headers)
    elapsed = time.perf_counter() - started
    code = None
    if status >= 400:
        try:
            code = json.loads(content)['errors'][0].get('code')
        except (ValueError, KeyError, IndexError, TypeError):
            code = content[:80].decode(errors='replace')
    return elapsed, status, code


def measure(target, clients, duration, providers):
    """``clients`` threads claiming for ``duration`` seconds on
    ``providers`` (each thread goes round them from its own offset)."""
    latencies, statuses, codes = [], collections.Counter(), \
        collections.Counter()
    bodies = [claim_body(provider) for provider in providers]
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    stop = threading.Event()

    def client(index):
        connection = target.connect()
        mine, my_statuses, my_codes = [], collections.Counter(), \
            collections.Counter()
        start.wait()
        n = index
        while not stop.is_set():
            body = bodies[n % len(bodies)]
            n += 1
            try:
                elapsed, status, code = claim(target, connection, body)
            except (OSError, http.client.HTTPException) as exc:
                my_statuses['error'] += 1
                my_codes[type(exc).__name__] += 1
                continue
            mine.append(elapsed)
            my_statuses[status] += 1
            if code:
                my_codes['%d %s' % (status, code)] += 1
        connection.close()
        if connection.reconnects:
            my_codes['reconnects'] += connection.reconnects
        with lock:
            latencies.extend(mine)
            statuses.update(my_statuses)
            codes.update(my_codes)

    threads = [threading.Thread(target=client, args=(i,))
               for i in range(clients)]
    cpu_started = time.process_time()
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    time.sleep(duration)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    client_cpu = time.process_time() - cpu_started
    requests_made = sum(statuses.values())
    return {'clients': clients, 'claims': statuses.get(204, 0),
            'rate': statuses.get(204, 0) / elapsed,
            'p50': _percentile(latencies, 50), 'p99': _percentile(latencies,
                                                                  99),
            '409': statuses.get(409, 0),
            'other': sum(n for s, n in statuses.items()
                         if s not in (204, 409)),
            'codes': dict(codes),
            'client_ms': client_cpu * 1000 / max(1, requests_made)}


def _percentile(values, pct):
    if not values:
        return float('nan')
    if len(values) == 1:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method='inclusive')[
        pct - 1] * 1000


def check_invariant(target):
    """Per provider: sum of allocations == usage <= capacity. Returns the
    list of violations."""
    connection = target.connect()
    problems = []
    for uuid, capacity in target.providers + [target.contended]:
        held = json.loads(target.call(
            connection, 'GET', '/resource_providers/%s/allocations' % uuid,
            expect=200)[1])
        total = sum(a['resources'].get('DISK_GB', 0)
                    for a in held['allocations'].values())
        usage = json.loads(target.call(
            connection, 'GET', '/resource_providers/%s/usages' % uuid,
            expect=200)[1])['usages'].get('DISK_GB', 0)
        if not (total == usage <= capacity):
            problems.append('%s: allocations %d, usage %d, capacity %d' % (
                uuid, total, usage, capacity))
    connection.close()
    return problems


def _row(label, result):
    return '%-34s %7d %6d %9.1f %8.1f %8.1f %6d %6d %9.2f  %s' % (
        label, result['clients'], result['claims'], result['rate'],
        result['p50'], result['p99'], result['409'], result['other'],
        result['client_ms'],
        ', '.join('%s: %d' % kv for kv in sorted(result['codes'].items()))
        or '-')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='+', metavar='URL')
    parser.add_argument('--token', default='admin')
    parser.add_argument('--clients', default='1,8,32')
    parser.add_argument('--duration', type=float, default=10.0,
                        help='seconds per measurement (default 10)')
    parser.add_argument('--contention-duration', type=float, default=10.0)
    parser.add_argument('--contention-clients', type=int, default=32)
    args = parser.parse_args(argv)
    targets = [Target(url, args.token) for url in args.urls]
    for target in targets:
        target.set_up()
    levels = [int(n) for n in args.clients.split(',')]

    print('new-consumer claims, microversion %s, %d providers '
          '(DISK_GB %d each), %.0fs per measurement'
          % (VERSION, PROVIDERS, CAPACITY, args.duration))
    print('%-34s %7s %6s %9s %8s %8s %6s %6s %9s  %s' % (
        'target', 'clients', 'ok', 'claims/s', 'p50 ms', 'p99 ms', '409',
        'other', 'client ms', '409 codes / errors'))
    results = collections.defaultdict(dict)
    for clients in levels:
        for target in targets:
            result = measure(target, clients, args.duration,
                             [uuid for uuid, _ in target.providers])
            results[target.url][clients] = result
            print(_row(target.url, result))
            sys.stdout.flush()
    print('\ncontention: one provider, %d clients'
          % args.contention_clients)
    for target in targets:
        result = measure(target, args.contention_clients,
                         args.contention_duration, [target.contended[0]])
        results[target.url]['contention'] = result
        print(_row(target.url, result))
        sys.stdout.flush()
    print('\ninvariant: sum of allocations == usage <= capacity')
    failed = False
    for target in targets:
        problems = check_invariant(target)
        failed = failed or bool(problems)
        print('%-34s %s' % (target.url, 'OK (%d providers)' % (
            len(target.providers) + 1) if not problems else
            'VIOLATED: ' + '; '.join(problems)))
    if len(targets) == 2:
        first, second = targets
        print('\nratio %s / %s (claims/s)' % (first.url, second.url))
        for key in levels + ['contention']:
            a, b = (results[first.url][key]['rate'],
                    results[second.url][key]['rate'])
            print('  %-12s %s' % (key, '%.1fx' % (a / b) if b else 'n/a'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
