#!/usr/bin/env python3
"""What one new-consumer claim costs placement, in process.

Drives the placement WSGI application directly (webob
``Request.blank(...).get_response(app)``; no HTTP server) on a scratch
database: N ``PUT /allocations/{new consumer}`` at microversion 1.28 with
``consumer_generation: null``, 1 DISK_GB each, spread over 20 providers.
Prints, per claim, the process CPU time, the wall time and the number of
SQL statements sent (a SQLAlchemy ``before_cursor_execute`` count);
``--profile`` adds cProfile's top functions (CPU time) of one more round.

    python bench/placement_claim_profile.py [DB-URL] [--claims N]
                                            [--rounds R] [--profile [TOP]]

DB-URL defaults to a SQLite file; a server URL names a server where the
bench creates (and drops at the end) a scratch database (bench/cas.py).
"""
import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
import uuid

import sqlalchemy as sa
import webob

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.cas import scratch_database  # noqa: E402
from db import migration  # noqa: E402
from db import session  # noqa: E402
from volapi import conf as volapi_conf  # noqa: E402
from volapi.placement import wsgi  # noqa: E402

PROVIDERS = 20
HEADERS = {'X-Auth-Token': 'admin', 'Accept': 'application/json',
           'Content-Type': 'application/json'}


def call(app, method, path, body=None, version='1.28', expect='2'):
    request = webob.Request.blank(
        path, method=method, headers=dict(
            HEADERS, **{'OpenStack-API-Version': 'placement %s' % version}))
    if body is not None:
        request.body = json.dumps(body).encode()
    response = request.get_response(app)
    if not response.status.startswith(expect):
        raise AssertionError('%s %s: %s %s' % (method, path, response.status,
                                               response.body))
    return response.json if response.body else None


def make_providers(app):
    uuids = []
    for i in range(PROVIDERS):
        rp = call(app, 'POST', '/resource_providers',
                  {'name': 'claim-bench-%d' % i, 'uuid': str(uuid.uuid4())},
                  version='1.20')
        call(app, 'PUT', '/resource_providers/%s/inventories' % rp['uuid'],
             {'resource_provider_generation': rp['generation'],
              'inventories': {'DISK_GB': {'total': 10 ** 9}}})
        uuids.append(rp['uuid'])
    return uuids


class Claimer:
    """New-consumer claims, one provider after the other."""

    def __init__(self, app, providers):
        self.app = app
        self.providers = providers
        self.done = 0

    def claim(self):
        rp = self.providers[self.done % len(self.providers)]
        self.done += 1
        call(self.app, 'PUT', '/allocations/%s' % uuid.uuid4(), {
            'allocations': {rp: {'resources': {'DISK_GB': 1}}},
            'project_id': 'bench-project', 'user_id': 'bench-user',
            'consumer_generation': None})

    def run(self, count):
        for _ in range(count):
            self.claim()


class StatementCounter:
    def __init__(self, engine):
        self.count = 0
        sa.event.listen(engine, 'before_cursor_execute', self._seen)

    def _seen(self, *args):
        self.count += 1


def measure(claimer, counter, count):
    """(CPU ms, wall ms, statements) per claim."""
    statements = counter.count
    wall, cpu = time.perf_counter(), time.process_time()
    claimer.run(count)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return (cpu * 1000 / count, wall * 1000 / count,
            (counter.count - statements) / count)


def print_profile(claimer, count, top):
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    claimer.run(count)
    profiler.disable()
    for order in ('tottime', 'cumulative'):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
        print('\n-- cProfile, %d claims, top %d by %s --' % (count, top,
                                                             order))
        print(out.getvalue().split('\n', 6)[-1].rstrip())


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('url', nargs='?', default='sqlite://',
                   help='database URL (default: SQLite)')
    p.add_argument('--claims', type=int, default=1000,
                   help='claims per round (default 1000)')
    p.add_argument('--rounds', type=int, default=3,
                   help='measured rounds (default 3)')
    p.add_argument('--warmup', type=int, default=100)
    p.add_argument('--profile', type=int, nargs='?', const=25, default=0,
                   metavar='TOP')
    args = p.parse_args()
    conf = volapi_conf.CONF
    conf([], project='volapi', default_config_files=[])
    scratch, drop = scratch_database(args.url)
    try:
        session.configure(scratch)
        migration.sync()
        app = wsgi.setup_app(conf)
        claimer = Claimer(app, make_providers(app))
        claimer.run(args.warmup)
        counter = StatementCounter(session.get_engine())
        figures = [measure(claimer, counter, args.claims)
                   for _ in range(args.rounds)]
        cpu = [f[0] for f in figures]
        wall = [f[1] for f in figures]
        print('%s: %d rounds of %d new-consumer claims on %d providers'
              % (session.get_engine().dialect.name, args.rounds,
                 args.claims, PROVIDERS))
        print('  CPU ms/claim   median %.3f  min %.3f'
              % (statistics.median(cpu), min(cpu)))
        print('  wall ms/claim  median %.3f  min %.3f'
              % (statistics.median(wall), min(wall)))
        print('  SQL statements/claim %.2f' % figures[-1][2])
        if args.profile:
            print_profile(claimer, args.claims, args.profile)
    finally:
        drop()


if __name__ == '__main__':
    main()
