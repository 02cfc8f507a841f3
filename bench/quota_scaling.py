"""Does a volume create cost more in a project that holds many volumes?

For each backend: a pool with room to spare; a project holding SMALL (10)
volumes and one holding LARGE (10,000), each volume with its allocation
and the project's quota usage row as the claims leave them (written in
bulk). Then creates (volapi.volume.create.create, in process, quota enforced,
cast to the in-memory transport) alternate between the two projects, and
the bench prints the CPU time this process spent per create and the wall
time per create in each, and the ratio LARGE/SMALL (target: at most 1.2).
The quota check reads the project's usage row, not its allocations; for
comparison the bench also times counting the project's usage from
placement's allocations (what ``GET /usages?project_id=`` reads).

    python bench/quota_scaling.py [URL ...] [--creates N] [--large N]

URLs default to $VOLAPI_BENCH_DB_URLS (space separated), else a temporary
SQLite file; a server URL names a server where the bench creates and
drops a scratch database (see bench/cas.py).
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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cas import scratch_database  # noqa: E402
from db import migration  # noqa: E402
from db import models  # noqa: E402
from db import session  # noqa: E402
import objects  # noqa: E402
from objects import quota  # noqa: E402
from objects.placement import consumer as consumer_obj  # noqa: E402
from objects.placement import usage as usage_obj  # noqa: E402
from rpc import transport as rpc_transport  # noqa: E402
from volapi import conf as volapi_conf  # noqa: E402
from volapi import context as volapi_context  # noqa: E402
from volapi.volume import api as volume_api  # noqa: E402
from volapi.volume import create as volume_create  # noqa: E402
from volapi.volume import pools  # noqa: E402
from volapi.volume.drivers import file as file_driver  # noqa: E402

SMALL = 10
HOST = 'bench@file#pool'
CONF = volapi_conf.CONF


def fill(context, project, count):
    """``count`` available volumes of 1 GiB in ``project`` on the pool,
    each with its consumer and allocation; the pool's ``allocated`` and
    the project's usage row as the claims would have left them."""
    now = timeutils.utcnow()
    ids = [str(uuid.uuid4()) for _ in range(count)]
    provider_uuid = pools.provider_uuid(HOST)
    with session.writer.connection.using(context) as conn:
        project_id = consumer_obj.ensure_project(context, project)
        user_id = consumer_obj.ensure_user(context, 'user')
        provider_id = conn.execute(sa.select(
            models.ResourceProvider.id).where(
            models.ResourceProvider.uuid == provider_uuid)).scalar()
        conn.execute(models.Volume.__table__.insert(), [dict(
            id=i, project_id=project, user_id='user', size=1,
            status='available', attach_status='detached', host=HOST,
            bootable=False, multiattach=False, deleted=False,
            created_at=now) for i in ids])
        conn.execute(models.Consumer.__table__.insert(), [dict(
            uuid=i, project_id=project_id, user_id=user_id, generation=1,
            created_at=now) for i in ids])
        conn.execute(models.Allocation.__table__.insert(), [dict(
            resource_provider_id=provider_id, consumer_id=i,
            resource_class_id=0, used=1, created_at=now) for i in ids])
        conn.execute(models.Inventory.__table__.update().where(
            models.Inventory.resource_provider_id == provider_id).values(
            allocated=models.Inventory.allocated + count))


def measure(url, creates, large):
    scratch, drop = scratch_database(url)
    volumes_dir = tempfile.mkdtemp(prefix='volapi-bench-')
    try:
        session.configure(scratch)
        migration.sync()
        objects.register_all()
        CONF([], project='volapi', default_config_files=[])
        CONF.set_override('transport_url', 'fake:/')
        CONF.set_override('volumes_dir', volumes_dir, 'volume')
        CONF.set_override('file_pools', ['pool:100000000'], 'volume')
        for name in ('volumes', 'gigabytes'):
            CONF.set_override(name, 10 ** 9, 'quota')
        context = volapi_context.get_admin_context()
        driver = file_driver.FileDriver(CONF)
        driver.do_setup()
        pools.PoolReporter(context, CONF, driver, 'bench@file').report()
        sizes = {'small': SMALL, 'large': large}
        for project, count in sizes.items():
            fill(context, project, count)
            # Its row, as the first claim makes it.
            with session.writer.connection.using(context):
                quota.charge(context, CONF, project, volumes=1,
                             enforce=False)
                quota.charge(context, CONF, project, volumes=-1,
                             enforce=False)
        contexts = {p: volapi_context.RequestContext(
            user_id='user', project_id=p) for p in sizes}
        for project in sizes:  # warm the caches
            volume_create.create(contexts[project], size=1)
        cpu = {p: [] for p in sizes}
        wall = {p: [] for p in sizes}
        for _ in range(creates):
            for project in sizes:
                c0, w0 = time.process_time(), time.perf_counter()
                volume_create.create(contexts[project], size=1)
                cpu[project].append(time.process_time() - c0)
                wall[project].append(time.perf_counter() - w0)
        counted = {}
        for project in sizes:
            c0 = time.process_time()
            w0 = time.perf_counter()
            for _ in range(20):
                usage_obj.get_for_project(context, project)
            counted[project] = (time.perf_counter() - w0) / 20
        backend = sa.engine.make_url(scratch).get_backend_name()
        print('%s: %d creates per project, quota enforced' % (
            backend, creates))
        print('  %-22s %12s %12s' % ('', 'CPU ms', 'wall ms'))
        for project, count in sizes.items():
            print('  %-22s %12.3f %12.3f' % (
                '%s (%d volumes)' % (project, count),
                1000 * statistics.median(cpu[project]),
                1000 * statistics.median(wall[project])))
        print('  ratio large/small:     CPU %.2fx, wall %.2fx '
              '(target <= 1.2x)' % (
                  statistics.median(cpu['large']) /
                  statistics.median(cpu['small']),
                  statistics.median(wall['large']) /
                  statistics.median(wall['small'])))
        print('  for comparison, counting usage from the allocations '
              '(GET /usages): %.2f ms vs %.2f ms, %.2fx' % (
                  1000 * counted['small'], 1000 * counted['large'],
                  counted['large'] / counted['small']))
    finally:
        volume_api.reset_worker_client()
        rpc_transport.cleanup()
        CONF.reset()
        drop()
        # The file driver keeps each pool in a directory of its own.
        shutil.rmtree(volumes_dir)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('urls', nargs='*')
    parser.add_argument('--creates', type=int, default=200)
    parser.add_argument('--large', type=int, default=10000)
    args = parser.parse_args()
    urls = args.urls or os.environ.get('VOLAPI_BENCH_DB_URLS', '').split() \
        or ['sqlite://']
    for url in urls:
        measure(url, args.creates, args.large)


if __name__ == '__main__':
    main()
