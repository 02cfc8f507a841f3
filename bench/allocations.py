#!/usr/bin/env python3
"""Allocation write throughput of a Placement-compatible endpoint.

    python bench/allocations.py URL [URL ...] [--token admin]
        [--clients 1,8,32] [--duration 10] [--contention-duration 10]

For each URL (volapi's placement API, or OpenStack Placement) it creates 20
resource providers with DISK_GB inventory, then measures claims of new
consumers (PUT /allocations/{new uuid}, microversion 1.28,
``consumer_generation: null``, 1 DISK_GB each) spread over the 20
providers, with 1, 8 and 32 concurrent clients (each with its own
keep-alive connection): claims/s, p50/p99 latency, and the 409s (by error
code: on providers with room to spare, every 409 is a lost generation
race). Then the contention case: 32 clients claiming on one provider.
Finally the invariant check: for each provider, the sum of its allocations
equals its usage and is within capacity. With several URLs the levels are
interleaved (A at 1 client, B at 1 client, A at 8, ...) so that both see
the same machine.

Requests carry ``X-Auth-Token`` (``--token``, default ``admin``: noauth2's
admin, in volapi and in Placement).

Serving volapi for it (127.0.0.1 only; a database of its own)::

    cat > /tmp/volapi-bench.conf <<EOF
    [database]
    connection = postgresql+psycopg2://volapi:volapi@127.0.0.1:5433/volapi_bench
    max_pool_size = 20
    [placement]
    auth_strategy = noauth2
    EOF
    createdb ... volapi_bench   # or CREATE DATABASE volapi_bench
    volapi-manage --config-file /tmp/volapi-bench.conf db sync
    VOLAPI_CONFIG_FILE=/tmp/volapi-bench.conf gunicorn -b 127.0.0.1:8779 \\
        -w 2 --threads 16 -k gthread 'volapi.placement.wsgi:setup_app()'

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
import json
import statistics
import sys
import threading
import time
import uuid as uuidlib

import requests

PROVIDERS = 20
CAPACITY = 10 ** 6              # room to spare: no claim fails for capacity
CONTENTION_CAPACITY = 10 ** 6
VERSION = '1.28'


class Target:
    """One endpoint and what the bench created there."""

    def __init__(self, url, token):
        self.url = url.rstrip('/')
        self.token = token
        self.providers = []
        self.contended = None

    def session(self):
        session = requests.Session()
        session.headers.update({
            'X-Auth-Token': self.token, 'Accept': 'application/json',
            'OpenStack-API-Version': 'placement %s' % VERSION})
        return session

    def call(self, session, method, path, body=None, expect=None):
        response = session.request(
            method, self.url + path,
            data=None if body is None else json.dumps(body),
            headers={'Content-Type': 'application/json'} if body else {},
            timeout=300)
        if expect is not None and response.status_code != expect:
            raise RuntimeError('%s %s%s: %d %s' % (
                method, self.url, path, response.status_code,
                response.text[:500]))
        return response

    def create_provider(self, session, name, capacity):
        uuid = str(uuidlib.uuid4())
        self.call(session, 'POST', '/resource_providers',
                  {'uuid': uuid, 'name': name}, expect=200)
        self.call(session, 'PUT', '/resource_providers/%s/inventories' % uuid,
                  {'resource_provider_generation': 0,
                   'inventories': {'DISK_GB': {'total': capacity}}},
                  expect=200)
        return uuid, capacity

    def set_up(self):
        session = self.session()
        tag = uuidlib.uuid4().hex[:8]
        self.providers = [
            self.create_provider(session, 'bench-%s-%d' % (tag, n),
                                 CAPACITY)
            for n in range(PROVIDERS)]
        self.contended = self.create_provider(
            session, 'bench-%s-contended' % tag, CONTENTION_CAPACITY)


def claim(target, session, provider):
    """One new-consumer claim: (seconds, status, error code or None)."""
    body = {'allocations': {provider: {'resources': {'DISK_GB': 1}}},
            'project_id': 'bench', 'user_id': 'bench',
            'consumer_generation': None}
    started = time.perf_counter()
    response = target.call(session, 'PUT',
                           '/allocations/%s' % uuidlib.uuid4(), body)
    elapsed = time.perf_counter() - started
    code = None
    if response.status_code >= 400:
        try:
            code = response.json()['errors'][0].get('code')
        except (ValueError, KeyError, IndexError):
            code = response.text[:80]
    return elapsed, response.status_code, code


def measure(target, clients, duration, providers):
    """``clients`` threads claiming for ``duration`` seconds on
    ``providers`` (each thread goes round them from its own offset)."""
    latencies, statuses, codes = [], collections.Counter(), \
        collections.Counter()
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    stop = threading.Event()

    def client(index):
        session = target.session()
        mine, my_statuses, my_codes = [], collections.Counter(), \
            collections.Counter()
        start.wait()
        n = index
        while not stop.is_set():
            provider = providers[n % len(providers)]
            n += 1
            try:
                elapsed, status, code = claim(target, session, provider)
            except requests.RequestException as exc:
                my_statuses['error'] += 1
                my_codes[type(exc).__name__] += 1
                continue
            mine.append(elapsed)
            my_statuses[status] += 1
            if code:
                my_codes['%d %s' % (status, code)] += 1
        with lock:
            latencies.extend(mine)
            statuses.update(my_statuses)
            codes.update(my_codes)

    threads = [threading.Thread(target=client, args=(i,))
               for i in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    time.sleep(duration)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    return {'clients': clients, 'claims': statuses.get(204, 0),
            'rate': statuses.get(204, 0) / elapsed,
            'p50': _percentile(latencies, 50), 'p99': _percentile(latencies,
                                                                  99),
            '409': statuses.get(409, 0),
            'other': sum(n for s, n in statuses.items()
                         if s not in (204, 409)),
            'codes': dict(codes)}


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
    session = target.session()
    problems = []
    for uuid, capacity in target.providers + [target.contended]:
        held = target.call(session, 'GET', '/resource_providers/%s/'
                           'allocations' % uuid, expect=200).json()
        total = sum(a['resources'].get('DISK_GB', 0)
                    for a in held['allocations'].values())
        usage = target.call(session, 'GET', '/resource_providers/%s/usages'
                            % uuid, expect=200).json()['usages'].get(
                                'DISK_GB', 0)
        if not (total == usage <= capacity):
            problems.append('%s: allocations %d, usage %d, capacity %d' % (
                uuid, total, usage, capacity))
    return problems


def _row(label, result):
    return '%-34s %7d %6d %9.1f %8.1f %8.1f %6d %6d  %s' % (
        label, result['clients'], result['claims'], result['rate'],
        result['p50'], result['p99'], result['409'], result['other'],
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
    print('%-34s %7s %6s %9s %8s %8s %6s %6s  %s' % (
        'target', 'clients', 'ok', 'claims/s', 'p50 ms', 'p99 ms', '409',
        'other', '409 codes / errors'))
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
