"""What the rollback of holds nobody finished costs a volume worker.

Every ``[volume] cleanup_interval`` (5 s) each worker runs one pass of
volapi.volume.holds: it reads the attachments 'reserved' or 'attaching'
and the volumes 'attaching' or 'detaching' older than the timeout, and
rolls each back with a compare-and-swap. For each backend: a scratch
database with --volumes volumes (nine in ten in-use with an attachment,
the rest available), then the median wall time of a pass that finds
nothing (the usual case), and of one pass that rolls back --holds
abandoned holds (a third each os-reserve, os-begin_detaching, POST
/attachments without connector).

    python bench/hold_expiry.py [URL ...] [--volumes N] [--holds N]

URLs as for bench/cas.py (default $VOLAPI_BENCH_DB_URLS, else SQLite).
"""
import argparse
import datetime
import os
import statistics
import sys
import time
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cas  # noqa: E402
from db import migration  # noqa: E402
from db import models  # noqa: E402
from db import session  # noqa: E402
import objects  # noqa: E402
from volapi import context as volapi_context  # noqa: E402
from volapi.volume import cluster  # noqa: E402
from volapi.volume import holds  # noqa: E402

SERVER = 'bench@file'
TIMEOUT = 3600
IDLE_PASSES = 9


def volume_row(status, attach_status, when):
    return dict(id=str(uuid.uuid4()), project_id='bench', size=1,
                status=status, attach_status=attach_status,
                host=SERVER + '#file', bootable=False, multiattach=False,
                deleted=False, created_at=when, updated_at=when)


def attachment_row(volume_id, attach_status, when):
    return dict(id=str(uuid.uuid4()), volume_id=volume_id,
                instance_uuid=str(uuid.uuid4()), attach_status=attach_status,
                deleted=False, created_at=when, updated_at=when)


def populate(engine, count, held):
    """``count`` settled volumes (made long ago, so only their status keeps
    them out of a pass) and ``held`` abandoned holds."""
    long_ago = timeutils.utcnow() - datetime.timedelta(seconds=2 * TIMEOUT)
    volumes, attachments = [], []
    for n in range(count):
        if n % 10:
            volume = volume_row('in-use', 'attached', long_ago)
            attachments.append(attachment_row(volume['id'], 'attached',
                                              long_ago))
        else:
            volume = volume_row('available', 'detached', long_ago)
        volumes.append(volume)
    for n in range(held):
        kind = n % 3
        if kind == 0:
            volumes.append(volume_row('attaching', 'detached', long_ago))
        elif kind == 1:
            volume = volume_row('detaching', 'attached', long_ago)
            volumes.append(volume)
            attachments.append(attachment_row(volume['id'], 'attached',
                                              long_ago))
        else:
            volume = volume_row('reserved', 'detached', long_ago)
            volumes.append(volume)
            attachments.append(attachment_row(volume['id'], 'reserved',
                                              long_ago))
    with engine.begin() as conn:
        for start in range(0, len(volumes), 1000):
            conn.execute(sa.insert(models.Volume.__table__),
                         volumes[start:start + 1000])
        for start in range(0, len(attachments), 1000):
            conn.execute(sa.insert(models.VolumeAttachment.__table__),
                         attachments[start:start + 1000])


def timed_pass(expiry):
    started = time.perf_counter()
    done = expiry.expire(timeout=TIMEOUT)
    return time.perf_counter() - started, len(done)


def measure(url, count, held):
    scratch, drop = cas.scratch_database(url)
    try:
        session.configure(scratch)
        engine = session.get_engine()
        migration.sync(engine=engine)
        populate(engine, count, held)
        # Reserved attachments have no connector: no driver call is made.
        expiry = holds.HoldExpiry(volapi_context.get_admin_context(),
                                  cluster.Membership(SERVER), driver=None)
        busy, rolled_back = timed_pass(expiry)
        if rolled_back != held:
            raise AssertionError('rolled back %d of %d holds'
                                 % (rolled_back, held))
        idle = [timed_pass(expiry) for _ in range(IDLE_PASSES)]
        if any(n for _, n in idle):
            raise AssertionError('a later pass found holds again')
        return (engine.dialect.name, 1e3 * statistics.median(
            w for w, _ in idle), 1e3 * busy)
    finally:
        drop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='*')
    parser.add_argument('--volumes', type=int, default=20000,
                        help='settled volumes (default 20000)')
    parser.add_argument('--holds', type=int, default=300,
                        help='abandoned holds to roll back (default 300)')
    args = parser.parse_args(argv)
    objects.register_all()
    urls = args.urls or os.environ.get('VOLAPI_BENCH_DB_URLS', '').split() \
        or ['sqlite://']
    results = [measure(url, args.volumes, args.holds) for url in urls]
    print('hold expiry pass: %d settled volumes, %d abandoned holds'
          % (args.volumes, args.holds))
    print('%-11s %18s %20s %14s' % (
        'backend', 'idle pass ms (med)', 'pass rolling back ms',
        'ms per hold'))
    for backend, idle, busy in results:
        print('%-11s %18.1f %20.0f %14.2f' % (backend, idle, busy,
                                              busy / max(args.holds, 1)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
