"""What a placement request costs through the whole application.

For each backend, in one process, straight into the WSGI callable (no HTTP
server, so the figures are the application's and the database's): the
version document (the framework alone), showing a provider, listing
providers with a resources filter, replacing a provider's inventories (a
generation compare-and-swap plus rows), and replacing its traits. Prints
requests per second and the CPU time per request this process spent.
Wall time is mostly the database's commit; on a busy machine it varies
from run to run, the CPU column much less.

    python bench/placement_requests.py [URL ...] [--requests N]

URLs default to $VOLAPI_BENCH_DB_URLS (space separated), else a temporary
SQLite file; a server URL names a server where the bench may create and
drop a scratch database (see bench/cas.py).
"""
import argparse
import io
import json
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.cas import scratch_database  # noqa: E402
from db import migration  # noqa: E402
from db import session  # noqa: E402
from volapi import conf as volapi_conf  # noqa: E402
from volapi.placement import wsgi  # noqa: E402


def call(app, method, path, body=None, version='1.39'):
    data = json.dumps(body).encode() if body is not None else b''
    environ = {
        'REQUEST_METHOD': method, 'PATH_INFO': path.split('?')[0],
        'QUERY_STRING': path.partition('?')[2], 'SCRIPT_NAME': '',
        'SERVER_NAME': 'bench', 'SERVER_PORT': '80',
        'wsgi.url_scheme': 'http', 'wsgi.input': io.BytesIO(data),
        'CONTENT_LENGTH': str(len(data)),
        'CONTENT_TYPE': 'application/json' if data else '',
        'HTTP_X_AUTH_TOKEN': 'admin', 'HTTP_ACCEPT': 'application/json',
        'HTTP_OPENSTACK_API_VERSION': 'placement %s' % version,
    }
    status = []
    body = b''.join(app(environ, lambda s, h, e=None: status.append(s)))
    if not status[0].startswith('2'):
        raise AssertionError('%s %s: %s %s' % (method, path, status[0], body))
    return json.loads(body) if body else None


def scenarios(app, count):
    providers = [call(app, 'POST', '/resource_providers',
                      {'name': 'bench-%d' % i, 'uuid': str(uuid.uuid4())})
                 for i in range(10)]
    generations = {}
    for rp in providers:
        generations[rp['uuid']] = call(
            app, 'PUT', '/resource_providers/%s/inventories' % rp['uuid'],
            {'resource_provider_generation': 0, 'inventories': {
                'DISK_GB': {'total': 1000}}})['resource_provider_generation']
    call(app, 'PUT', '/traits/CUSTOM_BENCH')

    def pick(n):
        return providers[n % len(providers)]['uuid']

    def put_inventories(n):
        uuid_ = pick(n)
        result = call(app, 'PUT', '/resource_providers/%s/inventories'
                      % uuid_, {
                          'resource_provider_generation': generations[uuid_],
                          'inventories': {'DISK_GB': {
                              'total': 1000 + n % 2}}})
        generations[uuid_] = result['resource_provider_generation']

    def put_traits(n):
        uuid_ = pick(n)
        result = call(app, 'PUT', '/resource_providers/%s/traits' % uuid_, {
            'resource_provider_generation': generations[uuid_],
            'traits': ['CUSTOM_BENCH'] if n % 2 else []})
        generations[uuid_] = result['resource_provider_generation']

    return [
        ('GET / (framework only)', lambda n: call(app, 'GET', '/')),
        ('GET /resource_providers/{uuid}',
         lambda n: call(app, 'GET', '/resource_providers/%s' % pick(n))),
        ('GET /resource_providers?resources=DISK_GB:10',
         lambda n: call(app, 'GET',
                        '/resource_providers?resources=DISK_GB:10')),
        ('PUT /resource_providers/{uuid}/inventories', put_inventories),
        ('PUT /resource_providers/{uuid}/traits', put_traits),
    ]


def measure(fn, count):
    wall, cpu = time.perf_counter(), time.process_time()
    for n in range(count):
        fn(n)
    return (count / (time.perf_counter() - wall),
            (time.process_time() - cpu) / count * 1e6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='*')
    parser.add_argument('--requests', type=int, default=500)
    args = parser.parse_args()
    urls = args.urls or os.environ.get('VOLAPI_BENCH_DB_URLS', '').split() \
        or ['sqlite://']
    conf = volapi_conf.CONF
    conf([], project='volapi', default_config_files=[])
    for url in urls:
        scratch, drop = scratch_database(url)
        try:
            session.configure(scratch)
            migration.sync()
            app = wsgi.setup_app(conf)
            print('%s' % url.split('://')[0])
            for name, fn in scenarios(app, args.requests):
                fn(0)  # warm up
                rate, cpu_us = measure(fn, args.requests)
                print('  %-46s %8.0f req/s  %7.0f us CPU/req'
                      % (name, rate, cpu_us))
        finally:
            drop()


if __name__ == '__main__':
    main()
