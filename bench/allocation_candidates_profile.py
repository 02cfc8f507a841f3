#!/usr/bin/env python3
"""Where one GET /allocation_candidates of bench/allocation_candidates.py
spends its time in volapi, in process.

Drives the placement WSGI application directly (webob, no HTTP server) on
a scratch database holding the bench's 1,000 providers, with the heap
built so far frozen (gc.freeze) as the WSGI entry modules freeze theirs,
and prints per query: wall and CPU ms per request (the application's
only: the answer is not decoded), SQL statements per request and the
time spent in them (cursor execute to fetch, client side); ``--profile``
adds cProfile's top functions (CPU time), ``--explain`` PostgreSQL's
EXPLAIN ANALYZE of each statement of one request.

    python bench/allocation_candidates_profile.py [DB-URL] [--requests N]
                                                  [--profile [TOP]]
                                                  [--explain]

DB-URL defaults to $VOLAPI_TEST_PG_URL (a server where a scratch database
is created and dropped at the end, bench/cas.py), else SQLite.
"""
import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import sys
import time

import sqlalchemy as sa
import webob

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import allocation_candidates as bench  # noqa: E402
from bench.cas import scratch_database  # noqa: E402
from db import migration  # noqa: E402
from db import session  # noqa: E402
from volapi import conf as volapi_conf  # noqa: E402
from volapi.placement import wsgi  # noqa: E402


def caller(app):
    """A ``call(url, method, path, body=None)`` for bench.populate that
    hands each request to ``app`` in process."""
    def call(url, method, path, body=None):
        request = webob.Request.blank(path, method=method, headers={
            'X-Auth-Token': 'admin', 'Accept': 'application/json',
            'OpenStack-API-Version': 'placement %s' % bench.VERSION})
        if body is not None:
            request.body = json.dumps(body).encode()
            request.content_type = 'application/json'
        response = request.get_response(app)
        if response.status_code >= 300:
            raise RuntimeError('%s %s: %s %s' % (method, path,
                                                 response.status,
                                                 response.body[:500]))
        return json.loads(response.body) if response.body else None
    return call


class StatementClock:
    """Statements sent and the time from execute to its return."""

    def __init__(self, engine):
        self.count = 0
        self.seconds = 0.0
        self.statements = []
        sa.event.listen(engine, 'before_cursor_execute', self._before)
        sa.event.listen(engine, 'after_cursor_execute', self._after)

    def _before(self, conn, cursor, statement, parameters, context,
                executemany):
        self.count += 1
        self._start = time.perf_counter()
        self.statements.append((statement, parameters))

    def _after(self, *args):
        self.seconds += time.perf_counter() - self._start


def getter(app):
    """A ``get(path)`` that hands a GET to ``app`` and checks its status,
    leaving the body undecoded."""
    def get(path):
        response = webob.Request.blank(path, headers={
            'X-Auth-Token': 'admin', 'Accept': 'application/json',
            'OpenStack-API-Version': 'placement %s' % bench.VERSION,
        }).get_response(app)
        if response.status_code != 200:
            raise RuntimeError('GET %s: %s' % (path, response.status))
    return get


def measure(get, path, count, clock):
    clock.statements = []
    statements, sql = clock.count, clock.seconds
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        get(path)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return (wall * 1000 / count, cpu * 1000 / count,
            (clock.count - statements) / count,
            (clock.seconds - sql) * 1000 / count)


def explain(engine, statements):
    with engine.connect() as conn:
        for statement, parameters in list(statements):
            print('\n' + statement)
            for (line,) in conn.exec_driver_sql(
                    'EXPLAIN (ANALYZE, BUFFERS) ' + statement, parameters):
                print('    ' + line)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('url', nargs='?', default=os.environ.get(
        'VOLAPI_TEST_PG_URL', 'sqlite://'))
    p.add_argument('--requests', type=int, default=50)
    p.add_argument('--profile', type=int, nargs='?', const=30, default=0,
                   metavar='TOP')
    p.add_argument('--explain', action='store_true')
    args = p.parse_args()
    conf = volapi_conf.CONF
    conf([], project='volapi', default_config_files=[])
    scratch, drop = scratch_database(args.url)
    try:
        session.configure(scratch)
        migration.sync()
        app = wsgi.setup_app(conf)
        bench.populate(None, call=caller(app))
        if scratch.startswith('postgresql'):
            bench.analyze(scratch)
        gc.freeze()
        get = getter(app)
        engine = session.get_engine()
        clock = StatementClock(engine)
        print('%s, %d providers: per request' % (
            engine.dialect.name, bench.TREES * 3 + bench.SHARING))
        print('  %-36s %8s %8s %6s %8s' % ('query', 'wall ms', 'CPU ms',
                                           'stmts', 'SQL ms'))
        for name, query in bench.QUERIES:
            path = '/allocation_candidates?' + query
            measure(get, path, 3, clock)
            print('  %-36s %8.2f %8.2f %6.1f %8.2f' % (
                (name,) + measure(get, path, args.requests, clock)))
            if args.explain and engine.dialect.name == 'postgresql':
                measure(get, path, 1, clock)
                explain(engine, clock.statements)
        if args.profile:
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            for name, query in bench.QUERIES:
                for _ in range(args.requests):
                    get('/allocation_candidates?' + query)
            profiler.disable()
            for order in ('tottime', 'cumulative'):
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats(
                    order).print_stats(args.profile)
                print('\n-- cProfile, every query %d times, by %s --'
                      % (args.requests, order))
                print(out.getvalue().split('\n', 6)[-1].rstrip())
    finally:
        drop()


if __name__ == '__main__':
    main()
