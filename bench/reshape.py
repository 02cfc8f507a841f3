"""What the start-up reshape check and a reshape cost a volume worker.

For each backend: a scratch database and a scratch volumes_dir with
--volumes volumes of 1 GiB (files in the one pool of an unconfigured file
driver, each with its allocation), then the median wall time of the check
every start-up makes (volapi.volume.reshape.reshape_needed) when nothing
changed, and the wall time of the reshape after the pool is split in two
with half the files moved to the second pool's directory.

    python bench/reshape.py [URL ...] [--volumes N]

URLs as for bench/cas.py (default $VOLAPI_BENCH_DB_URLS, else SQLite).
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
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
from objects.placement import allocation as alloc_obj  # noqa: E402
from volapi import conf as volapi_conf  # noqa: E402
from volapi import context as volapi_context  # noqa: E402
from volapi.volume import pools  # noqa: E402
from volapi.volume import reshape  # noqa: E402
from volapi.volume.drivers import file as file_driver  # noqa: E402

ROOT = 'bench@file'
CHECKS = 9
BATCH = 500


def populate(context, conf, volumes_dir, count):
    """``count`` available volumes on ROOT#file with their files and
    allocations; their ids."""
    reporter = pools.PoolReporter(context, conf, file_driver.FileDriver(conf),
                                  ROOT)
    reporter.report()
    now = timeutils.utcnow()
    ids = [str(uuid.uuid4()) for _ in range(count)]
    rows = []
    for ident in ids:
        path = os.path.join(volumes_dir, 'volume-%s' % ident)
        open(path, 'wb').close()
        rows.append(dict(id=ident, project_id='bench', user_id='bench',
                         size=1, status='available', attach_status='detached',
                         host=ROOT + '#file', provider_location=path,
                         bootable=False, multiattach=False, deleted=False,
                         created_at=now))
    with session.get_engine().begin() as conn:
        for start in range(0, count, BATCH):
            conn.execute(sa.insert(models.Volume.__table__),
                         rows[start:start + BATCH])
    provider = pools.provider_uuid(ROOT + '#file')
    for start in range(0, count, BATCH):
        alloc_obj.replace_all(context, [alloc_obj.ConsumerAllocations(
            ident, {provider: {pools.DISK_GB: 1}}, project_id='bench',
            user_id='bench', generation=None, consumer_type='VOLUME')
            for ident in ids[start:start + BATCH]])
    return ids


def measure(url, count):
    scratch, drop = cas.scratch_database(url)
    volumes_dir = tempfile.mkdtemp(prefix='volapi-bench-reshape-')
    conf = volapi_conf.CONF
    try:
        session.configure(scratch)
        migration.sync(engine=session.get_engine())
        conf.set_override('volumes_dir', volumes_dir, 'volume')
        # Thin pools: the one pool is the filesystem's size, whatever it is.
        conf.set_override('max_over_subscription_ratio', 100.0, 'volume')
        context = volapi_context.get_admin_context()
        ids = populate(context, conf, volumes_dir, count)
        driver = file_driver.FileDriver(conf)
        reporter = pools.PoolReporter(context, conf, driver, ROOT)
        checks = []
        for _ in range(CHECKS):
            started = time.perf_counter()
            if reshape.reshape_needed(context, reporter, driver):
                raise AssertionError('a reshape needed with nothing changed')
            checks.append(time.perf_counter() - started)
        conf.set_override('file_pools', ['a:%d' % count, 'b:%d' % count],
                          'volume')
        driver.do_setup()
        for ident in ids[::2]:
            name = 'volume-%s' % ident
            os.rename(os.path.join(volumes_dir, name),
                      os.path.join(volumes_dir, 'b', name))
        started = time.perf_counter()
        result = reshape.at_start_up(context, reporter, driver)
        took = time.perf_counter() - started
        if len(result.moves) != count:
            raise AssertionError('%d of %d volumes moved'
                                 % (len(result.moves), count))
        return (session.get_engine().dialect.name,
                1e3 * statistics.median(checks), took, result.attempts)
    finally:
        for name in ('volumes_dir', 'max_over_subscription_ratio',
                     'file_pools'):
            conf.clear_override(name, 'volume')
        shutil.rmtree(volumes_dir)
        drop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='*')
    parser.add_argument('--volumes', type=int, default=2000,
                        help='volumes on the pool (default 2000)')
    args = parser.parse_args(argv)
    objects.register_all()
    volapi_conf.CONF([], project='volapi', default_config_files=[])
    urls = args.urls or os.environ.get('VOLAPI_BENCH_DB_URLS', '').split() \
        or ['sqlite://']
    results = [measure(url, args.volumes) for url in urls]
    print('start-up reshape: %d volumes of 1 GiB on one pool' % args.volumes)
    print('%-11s %24s %22s %9s' % ('backend', 'check, nothing to do ms',
                                   'split in two, moved s', 'attempts'))
    for backend, check, took, attempts in results:
        print('%-11s %24.1f %22.2f %9d' % (backend, check, took, attempts))
    return 0


if __name__ == '__main__':
    sys.exit(main())
