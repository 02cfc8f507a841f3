"""GET /allocation_candidates: volapi against OpenStack Placement 16.0.0,
on the same PostgreSQL server, through the same WSGI server.

1,000 providers: 300 compute trees (a root with VCPU and MEMORY_MB, two
children with SRIOV_NET_VF) and 100 storage providers with DISK_GB that
share it (MISC_SHARES_VIA_AGGREGATE) with three trees each through an
aggregate. Both applications get the same providers through their API,
then each query is asked again and again (one client, one request at a
time): in rounds, each measuring Placement then volapi for a few seconds,
so that both see the same load on a shared machine; the best round's
requests per second of each is printed, with the ratio.

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


def call(url, method, path, body=None):
    headers = {'X-Auth-Token': 'admin', 'Accept': 'application/json',
               'OpenStack-API-Version': 'placement %s' % VERSION}
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


def rate(url, query, seconds):
    """Requests per second over ``seconds`` (at least 3 requests)."""
    path = '/allocation_candidates?' + query
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or count < 3:
        call(url, 'GET', path)
        count += 1
    return count / (time.perf_counter() - start)


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
        print('%d providers; requests/s, one client, one request at a time'
              % (TREES * 3 + SHARING))
        print('  %-36s %12s %12s %8s %11s' % (
            'query', 'placement', 'volapi', 'ratio', 'candidates'))
        for name, query in QUERIES:
            expected = candidates(placement.url, query)  # and warm up
            found = candidates(volapi.url, query)
            if found != expected:
                raise RuntimeError('%s: %d candidates from volapi, %d from '
                                   'Placement' % (name, found, expected))
            theirs = mine = 0
            for _ in range(args.rounds):
                theirs = max(theirs, rate(placement.url, query,
                                          args.seconds))
                mine = max(mine, rate(volapi.url, query, args.seconds))
            print('  %-36s %12.1f %12.1f %7.1fx %11d'
                  % (name, theirs, mine, mine / theirs, found))


if __name__ == '__main__':
    main()
