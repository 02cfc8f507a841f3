"""How much the compare-and-swap primitive costs beside the bare statement.

For each backend: flip a volume's status between two values with the
expected status as the condition, one transaction per operation, over the
same rows, once through ``db.api.conditional_update`` and once as a plain
SQLAlchemy Core ``UPDATE ... WHERE`` on the same engine. Prints operations
per second of both and their ratio (target: at most 1.3), and the CPU
time per operation this process spent on each. Wall time is mostly the
database's commit (an fsync), which on a busy machine varies from run to
run; the CPU columns show what the primitive itself adds. For SQLite,
TMPDIR=/dev/shm takes the disk out of the figures.

    python bench/cas.py [URL ...] [--ops N] [--rounds N] [--profile]

URLs default to $VOLAPI_BENCH_DB_URLS (space separated), else a temporary
SQLite file. A server URL names a server where the bench may create and
drop a scratch database (``<name>_bench_<pid>``), e.g. the test servers:
  postgresql+psycopg://volapi:volapi@127.0.0.1:5433/volapi
  mysql+pymysql://volapi:volapi@127.0.0.1:3307/volapi?charset=utf8mb4
"""
import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from db import api as db_api  # noqa: E402
from db import migration  # noqa: E402
from db import models  # noqa: E402
from db import session  # noqa: E402
from volapi import context as volapi_context  # noqa: E402

ROWS = 50
STATUSES = ('available', 'in-use')
VOLUMES = models.Volume.__table__


# -- a scratch database ---------------------------------------------------------

def scratch_database(url):
    """(URL of a new empty database, function that removes it)."""
    parsed = sa.engine.make_url(url)
    backend = parsed.get_backend_name()
    if backend == 'sqlite':
        path = tempfile.mktemp(prefix='volapi-bench-', suffix='.sqlite')

        def drop():
            for suffix in ('', '-wal', '-shm'):
                if os.path.exists(path + suffix):
                    os.unlink(path + suffix)
        return 'sqlite:///' + path, drop
    name = '%s_bench_%d' % (parsed.database or 'volapi', os.getpid())
    quote = '"' if backend == 'postgresql' else '`'
    admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')

    def run(statement):
        with admin.connect() as conn:
            conn.exec_driver_sql(statement)

    run('DROP DATABASE IF EXISTS %s%s%s' % (quote, name, quote))
    run('CREATE DATABASE %s%s%s' % (quote, name, quote))

    def drop():
        session.dispose()
        run('DROP DATABASE IF EXISTS %s%s%s' % (quote, name, quote))
        admin.dispose()
    return parsed.set(database=name).render_as_string(
        hide_password=False), drop


def make_rows(engine):
    ids = [str(uuid.uuid4()) for _ in range(ROWS)]
    with engine.begin() as conn:
        conn.execute(sa.insert(VOLUMES), [
            dict(id=i, size=1, status=STATUSES[0], attach_status='detached',
                 bootable=False, multiattach=False, deleted=False,
                 created_at=timeutils.utcnow()) for i in ids])
    return ids


# -- the two ways of doing the same work ------------------------------------------

def flips(ids, ops):
    """(id, expected, new) for ``ops`` operations over the rows, each row
    flipping back and forth, so every operation matches."""
    state = {i: 0 for i in ids}
    for n in range(ops):
        ident = ids[n % len(ids)]
        old = state[ident]
        state[ident] = 1 - old
        yield ident, STATUSES[old], STATUSES[1 - old]


def run_primitive(context, ids, ops):
    for ident, old, new in flips(ids, ops):
        if not db_api.conditional_update(
                context, models.Volume, {'status': new},
                {'id': ident, 'status': old}):
            raise AssertionError('primitive missed %s' % ident)


def run_raw(engine, ids, ops):
    # What the primitive sends: the condition, the soft-delete filter and
    # the updated_at the column's onupdate adds.
    for ident, old, new in flips(ids, ops):
        with engine.begin() as conn:
            matched = conn.execute(
                sa.update(VOLUMES)
                .where(VOLUMES.c.id == ident, VOLUMES.c.status == old,
                       VOLUMES.c.deleted == sa.false())
                .values(status=new, updated_at=timeutils.utcnow())).rowcount
        if not matched:
            raise AssertionError('raw statement missed %s' % ident)


def timed(fn, *args):
    """(wall seconds, this process's CPU seconds) of ``fn(*args)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(url, ops, rounds, profile):
    scratch, drop = scratch_database(url)
    try:
        session.configure(scratch)
        engine = session.get_engine()
        migration.sync(engine=engine)
        ids = make_rows(engine)
        context = volapi_context.get_admin_context()
        # Warm up both paths (connections, statement caches).
        run_primitive(context, ids, 2 * ROWS)
        run_raw(engine, ids, 2 * ROWS)
        raw, primitive = [], []
        for n in range(rounds):
            # Interleaved, each going first in turn, so drift in the
            # machine's load and the WAL's growth hit both alike.
            pair = [(raw, run_raw, engine), (primitive, run_primitive, context)]
            for results, run, handle in pair[::(-1) ** n]:
                results.append(timed(run, handle, ids, ops))
        if profile:
            profiler = cProfile.Profile()
            profiler.runcall(run_primitive, context, ids, ops)
            pstats.Stats(profiler).sort_stats('cumulative').print_stats(25)
        return (engine.dialect.name,
                ops / statistics.median(w for w, _ in raw),
                ops / statistics.median(w for w, _ in primitive),
                1e6 * statistics.median(c for _, c in raw) / ops,
                1e6 * statistics.median(c for _, c in primitive) / ops)
    finally:
        drop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='*')
    parser.add_argument('--ops', type=int, default=1000,
                        help='operations per round and path (default 1000)')
    parser.add_argument('--rounds', type=int, default=5,
                        help='rounds; the median is shown (default 5)')
    parser.add_argument('--profile', action='store_true',
                        help='also print a profile of the primitive')
    args = parser.parse_args(argv)
    urls = args.urls or os.environ.get('VOLAPI_BENCH_DB_URLS', '').split() \
        or ['sqlite://']
    results = [measure(url, args.ops, args.rounds, args.profile)
               for url in urls]
    print('compare-and-swap vs raw UPDATE: %d ops x %d rounds (median), '
          'one transaction per op' % (args.ops, args.rounds))
    # Wall time is what a caller waits (mostly the database's commit);
    # CPU time is what the primitive adds in this process.
    print('%-11s %10s %10s %8s %13s %13s %8s' % (
        'backend', 'raw ops/s', 'CAS ops/s', 'cost', 'raw CPU us/op',
        'CAS CPU us/op', 'cost'))
    for backend, raw, primitive, raw_cpu, primitive_cpu in results:
        print('%-11s %10.0f %10.0f %7.2fx %13.0f %13.0f %7.2fx' % (
            backend, raw, primitive, raw / primitive, raw_cpu,
            primitive_cpu, primitive_cpu / raw_cpu))
    return 0


if __name__ == '__main__':
    sys.exit(main())
