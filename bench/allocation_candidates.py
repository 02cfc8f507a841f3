"""GET /allocation_candidates: volapi against OpenStack Placement 16.0.0,
on the same PostgreSQL server, through the same WSGI server.

1,000 providers: 300 compute trees (a root with VCPU and MEMORY_MB, two
children with SRIOV_NET_VF) and 100 storage providers with DISK_GB that
share it (MISC_SHARES_VIA_AGGREGATE) with three trees each through an
aggregate. Both applications get the same providers through their API,
each query's answers are checked to hold as many candidates, then it is
asked again and again (one client, one request at a time, each answer
read whole but not decoded, as load generators do): in rounds, each
measuring Placement then volapi for a few seconds, so that both see the
same load on a shared machine; the best round's requests per second of
each is printed, with the ratio, and the least CPU time per request in a
round of each server process and of the PostgreSQL backends serving its
database (steadier than requests per second on a busy machine; the
client's own time, the same for both, is in neither).

    python bench/allocation_candidates.py [--db-url URL] [--venv DIR]
                                          [--seconds S]

URL: a PostgreSQL server where scratch databases may be made (default
$VOLAPI_TEST_PG_URL); DIR: a virtualenv for Placement kept between runs
(default a temporary one, which costs a pip install).
"""
import argparse
import json
import os
import sys
import time
import uuid

import sqlalchemy as sa

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.placement_diff import compare  # noqa: E402
from tools.placement_diff import servers  # noqa: E402

TREES = 300
SHARING = 100
VERSION = '1.39'
QUERIES = [
    ('compute + shared disk',
     'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10'),
    ('granular: VCPU + a VF in one child',
     'resources=VCPU:1&resources1=SRIOV_NET_VF:1&group_policy=none'),
    ('limit 10, required trait',
     'resources=VCPU:1,MEMORY_MB:1024&required=CUSTOM_FAST&limit=10'),
]


HEADERS = {'X-Auth-Token': 'admin', 'Accept': 'application/json',
           'OpenStack-API-Version': 'placement %s' % VERSION}


def call(url, method, path, body=None):
    headers = dict(HEADERS)
    if body is not None:
        body = json.dumps(body).encode()
        headers.update({'Content-Type': 'application/json',
                        'Content-Length': str(len(body))})
    response = compare.send(url, compare.Request(method, path, headers,
                                                 body))
    if response.status >= 300:
        raise RuntimeError('%s %s: %d %s' % (method, path, response.status,
                                             response.body[:500]))
    return json.loads(response.body) if response.body else None


def provider(url, name, parent=None, inventories=None, traits=(),
             aggregates=(), call=call):
    body = {'name': name, 'uuid': str(uuid.uuid5(uuid.NAMESPACE_DNS, name))}
    if parent:
        body['parent_provider_uuid'] = parent
    generation = call(url, 'POST', '/resource_providers', body)['generation']
    path = '/resource_providers/%s' % body['uuid']
    if inventories:
        generation = call(url, 'PUT', path + '/inventories', {
            'resource_provider_generation': generation,
            'inventories': inventories})['resource_provider_generation']
    if traits:
        generation = call(url, 'PUT', path + '/traits', {
            'resource_provider_generation': generation,
            'traits': list(traits)})['resource_provider_generation']
    if aggregates:
        call(url, 'PUT', path + '/aggregates', {
            'resource_provider_generation': generation,
            'aggregates': list(aggregates)})
    return body['uuid']


def populate(url, call=call):
    """The bench's providers, made through the API by ``call(url, method,
    path, body=None)``."""
    call(url, 'PUT', '/traits/CUSTOM_FAST')
    aggregates = [str(uuid.uuid5(uuid.NAMESPACE_DNS, 'agg%d' % i))
                  for i in range(SHARING)]
    for i, aggregate in enumerate(aggregates):
        provider(url, 'storage%d' % i, inventories={
            'DISK_GB': {'total': 10000}},
            traits=['MISC_SHARES_VIA_AGGREGATE'], aggregates=[aggregate],
            call=call)
    for i in range(TREES):
        root = provider(url, 'compute%d' % i, inventories={
            'VCPU': {'total': 64, 'allocation_ratio': 4.0},
            'MEMORY_MB': {'total': 262144}},
            traits=['CUSTOM_FAST'] if i % 2 else (),
            aggregates=[aggregates[i % SHARING]], call=call)
        for j in range(2):
            provider(url, 'compute%d-nic%d' % (i, j), parent=root,
                     inventories={'SRIOV_NET_VF': {'total': 8}}, call=call)


def analyze(db_url):
    """Statistics of the tables just filled, as a database in service has
    them: else the planner's estimates, and so its plans, depend on
    whether autovacuum has come by yet, which differs from one side or
    one run to the next."""
    engine = sa.create_engine(db_url, isolation_level='AUTOCOMMIT')
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql('ANALYZE')
    finally:
        engine.dispose()


def cpu_seconds(pid):
    """User + system CPU time of process ``pid`` so far."""
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rpartition(')')[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


class DatabaseClock:
    """CPU time of the PostgreSQL backends serving one application's
    database (the server is on this machine: /proc shows its processes)."""

    def __init__(self, admin, label):
        self.admin = admin
        self.pattern = 'placement_diff_%s_%d_%%' % (label, os.getpid())

    def seconds(self):
        with self.admin.connect() as conn:
            pids = conn.execute(sa.text(
                'SELECT pid FROM pg_stat_activity WHERE datname LIKE :p'),
                {'p': self.pattern}).scalars().all()
        total = 0.0
        for pid in pids:
            try:
                total += cpu_seconds(pid)
            except OSError:
                pass  # gone meanwhile
        return total


def rate(server, database, query, seconds):
    """(Requests per second, the server's CPU ms per request, its
    database's) over ``seconds`` (at least 3 requests)."""
    request = compare.Request('GET', '/allocation_candidates?' + query,
                              HEADERS, None)
    cpu, db_cpu = cpu_seconds(server.process.pid), database.seconds()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or count < 3:
        # Read, not decoded: as a load generator, the client only waits
        # for the whole answer (its candidates were counted before the rounds).
        response = compare.send(server.url, request)
        if response.status != 200:
            raise RuntimeError('GET %s: %d' % (request.path, response.status))
        count += 1
    elapsed = time.perf_counter() - start
    return (count / elapsed,
            (cpu_seconds(server.process.pid) - cpu) * 1000 / count,
            (database.seconds() - db_cpu) * 1000 / count)


def candidates(url, query):
    return len(call(url, 'GET', '/allocation_candidates?' + query)[
        'allocation_requests'])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--db-url', default=os.environ.get(
        'VOLAPI_TEST_PG_URL'))
    parser.add_argument('--venv')
    parser.add_argument('--seconds', type=float, default=4,
                        help='per application and round')
    parser.add_argument('--rounds', type=int, default=3)
    args = parser.parse_args()
    if not args.db_url:
        parser.error('no --db-url and no $VOLAPI_TEST_PG_URL')
    with servers.both(args.db_url, args.venv, log=sys.stderr) as (
            placement, volapi):
        for server in (placement, volapi):
            populate(server.url)
            analyze(server.db_url)
        admin = sa.create_engine(args.db_url)
        clocks = (DatabaseClock(admin, 'ref'), DatabaseClock(admin, 'vol'))
        print('%d providers; requests/s, one client, one request at a time '
              '(best round); CPU ms per request of the server + its '
              'database (least)' % (TREES * 3 + SHARING))
        print('  %-36s %10s %10s %6s %12s %12s %6s %5s' % (
            'query', 'placement', 'volapi', 'ratio', 'P cpu+db', 'v cpu+db',
            'ratio', 'found'))
        for name, query in QUERIES:
            expected = candidates(placement.url, query)  # and warm up
            found = candidates(volapi.url, query)
            if found != expected:
                raise RuntimeError('%s: %d candidates from volapi, %d from '
                                   'Placement' % (name, found, expected))
            rounds = [(rate(placement, clocks[0], query, args.seconds),
                       rate(volapi, clocks[1], query, args.seconds))
                      for _ in range(args.rounds)]
            theirs = max(r[0][0] for r in rounds)
            mine = max(r[1][0] for r in rounds)
            their_cpu = min(r[0][1:] for r in rounds)
            my_cpu = min(r[1][1:] for r in rounds)
            print('  %-36s %10.1f %10.1f %5.1fx %5.1f+%-6.1f %5.1f+%-6.1f '
                  '%5.1fx %5d' % (name, theirs, mine, mine / theirs,
                                  their_cpu[0], their_cpu[1], my_cpu[0],
                                  my_cpu[1], sum(their_cpu) / sum(my_cpu),
                                  found))
        admin.dispose()


if __name__ == '__main__':
    main()
