#!/usr/bin/env python3
"""Server CPU per os-reserve/os-unreserve request, in process.

Drives the volume API's WSGI application directly (no HTTP server, no
network: far steadier figures than over HTTP on a loaded machine) on a
database of its own, for N reserve/unreserve pairs on one 'available'
volume, and prints the process CPU time per request; ``--profile`` adds
cProfile's top functions.

    python bench/api_profile.py [DB-URL] [--pairs N] [--rounds R]
                                [--profile [TOP]]

DB-URL defaults to a SQLite file in a temporary directory. For a
PostgreSQL or MariaDB server URL the bench makes (and drops at the end) a
database ``<name>_profile`` beside the one named, so shared databases are
left alone.
"""
import argparse
import cProfile
import datetime
import io
import json
import pstats
import shutil
import statistics
import tempfile
import time
import uuid

import sqlalchemy as sa
from oslo_config import cfg

from db import migration
from db import models
from db import session
from volapi import conf as volapi_conf  # noqa: F401 (registers options)
from volapi.api import app as api_app

CONF = cfg.CONF
PROJECT = 'bench'


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('url', nargs='?', help='database URL (default: SQLite)')
    p.add_argument('--pairs', type=int, default=2000,
                   help='reserve/unreserve pairs per round (default 2000)')
    p.add_argument('--rounds', type=int, default=5,
                   help='measured rounds; the median is reported')
    p.add_argument('--warmup', type=int, default=200,
                   help='pairs run before measuring')
    p.add_argument('--profile', type=int, nargs='?', const=25, default=0,
                   metavar='TOP', help='print cProfile top TOP functions '
                   '(by own time and cumulative) of one more round')
    return p.parse_args()


def _own_database(url):
    """A throwaway database beside ``url``'s (server backends), made empty."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == 'sqlite':
        return url, None
    name = '%s_profile' % (parsed.database or 'volapi')
    quote = '`' if parsed.get_backend_name() == 'mysql' else '"'
    admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')
    with admin.connect() as conn:
        conn.exec_driver_sql('DROP DATABASE IF EXISTS %s%s%s'
                             % (quote, name, quote))
        conn.exec_driver_sql('CREATE DATABASE %s%s%s' % (quote, name, quote))

    def drop():
        session.dispose()
        with admin.connect() as conn:
            conn.exec_driver_sql('DROP DATABASE IF EXISTS %s%s%s'
                                 % (quote, name, quote))
        admin.dispose()

    return parsed.set(database=name).render_as_string(
        hide_password=False), drop


def _available_volume():
    volume_id = str(uuid.uuid4())
    with session.get_engine().begin() as conn:
        conn.execute(models.Volume.__table__.insert().values(
            id=volume_id, user_id=PROJECT, project_id=PROJECT, size=1,
            status='available', attach_status='detached', bootable=False,
            multiattach=False, deleted=False,
            created_at=datetime.datetime.utcnow()))
    return volume_id


class Caller:
    """Calls the WSGI application with prebuilt environ templates."""

    def __init__(self, application, volume_id):
        self.application = application
        path = '/v3/%s/volumes/%s/action' % (PROJECT, volume_id)
        self.bodies = [json.dumps({name: None}).encode()
                       for name in ('os-reserve', 'os-unreserve')]
        self.template = {
            'REQUEST_METHOD': 'POST', 'PATH_INFO': path, 'QUERY_STRING': '',
            'SERVER_NAME': 'localhost', 'SERVER_PORT': '80',
            'SERVER_PROTOCOL': 'HTTP/1.1', 'HTTP_HOST': 'localhost',
            'wsgi.url_scheme': 'http', 'SCRIPT_NAME': '',
            'CONTENT_TYPE': 'application/json',
            'HTTP_X_AUTH_TOKEN': '%s:%s' % (PROJECT, PROJECT),
            'HTTP_OPENSTACK_API_VERSION': 'volume 3.44',
        }
        self.statuses = []

    def _start(self, status, headers, exc_info=None):
        self.statuses.append(status)

    def pair(self):
        for body in self.bodies:
            environ = dict(self.template)
            environ['wsgi.input'] = io.BytesIO(body)
            environ['CONTENT_LENGTH'] = str(len(body))
            del self.statuses[:]
            chunks = self.application(environ, self._start)
            payload = b''.join(chunks)
            if not self.statuses[0].startswith('202'):
                raise RuntimeError('%s: %s' % (self.statuses[0], payload))

    def run(self, pairs):
        for _ in range(pairs):
            self.pair()


def _measure(caller, pairs):
    started = time.process_time()
    caller.run(pairs)
    return (time.process_time() - started) * 1000 / (2 * pairs)


def _print_profile(caller, pairs, top):
    # CPU time, not wall time: waiting for the database costs no CPU.
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    caller.run(pairs)
    profiler.disable()
    for order in ('tottime', 'cumulative'):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats(order).print_stats(top)
        print('\n-- cProfile, %d requests, top %d by %s --'
              % (2 * pairs, top, order))
        print(out.getvalue().split('\n', 6)[-1].rstrip())


def main():
    args = parse_args()
    workdir = tempfile.mkdtemp(prefix='volapi-profile-')
    url = args.url or 'sqlite:///%s/profile.sqlite' % workdir
    url, drop = _own_database(url)
    CONF([], project='volapi', default_config_files=[])
    CONF.set_override('state_path', workdir)
    session.configure(url)
    try:
        migration.sync()
        caller = Caller(api_app.setup_app(CONF), _available_volume())
        caller.run(args.warmup)
        figures = [_measure(caller, args.pairs) for _ in range(args.rounds)]
        # The minimum is the steadiest figure on a shared machine (other
        # processes only ever add CPU time, through cache and frequency).
        print('backend %s: %d rounds of %d reserve/unreserve pairs: CPU ms '
              'per request median %.3f, min %.3f (rounds: %s)' % (
                  session.get_engine().dialect.name, args.rounds, args.pairs,
                  statistics.median(figures), min(figures),
                  ', '.join('%.3f' % f for f in figures)))
        if args.profile:
            _print_profile(caller, args.pairs, args.profile)
    finally:
        if drop is not None:
            drop()
        session.dispose()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == '__main__':
    main()
