"""CPU per request of the backups API.

Calls the WSGI application directly, as bench/api_volumes.py does (no HTTP
server; SQLite, or VOLAPI_BENCH_DB_URL, an empty database), and prints the
median and 90th percentile of process CPU time per request: a backup
create (the volume's compare-and-swap, the backup's insert, its workers
row and the quota claim, in one transaction; each of a fresh available
volume), a show, a detailed list and a rename. Creates cast to an
in-memory transport no worker serves.

    python bench/api_backups.py [requests-per-case]
"""
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

from oslo_config import cfg

from bench import api_volumes
from db import migration
from db import models
from db import session
from volapi import context as volapi_context
from volapi import conf as volapi_conf  # noqa: F401 (registers options)
from volapi.api import app as api_app

CONF = cfg.CONF
ADMIN = 'admin:admin'
HOST = 'bench@file#file'
CONTEXT = volapi_context.get_admin_context()
call = api_volumes.call


def available_volume(application):
    """A volume as a worker leaves it: available on a pool (no pool is
    reported here, so the pool is written as a worker's create would)."""
    status, body = call(application, 'POST', '/v3/volumes',
                        {'volume': {'size': 1}})
    assert status == 202, body
    volume_id = json.loads(body)['volume']['id']
    volumes = models.Volume.__table__
    with session.writer.connection.using(CONTEXT) as conn:
        conn.execute(volumes.update().where(volumes.c.id == volume_id)
                     .values(status='available', host=HOST))
    return volume_id


def creates(application, count):
    """(median, p90) ms of CPU per POST /backups, and a backup's id."""
    volumes = [available_volume(application) for _ in range(count)]
    samples, backup_id = [], None
    for volume_id in volumes:
        started = time.process_time()
        status, body = call(application, 'POST', '/v3/backups',
                            {'backup': {'volume_id': volume_id}})
        samples.append(time.process_time() - started)
        assert status == 202, body
        backup_id = json.loads(body)['backup']['id']
    samples.sort()
    return (statistics.median(samples) * 1000,
            samples[int(len(samples) * 0.9)] * 1000), backup_id


def main():
    workdir = tempfile.mkdtemp(prefix='volapi-bench-')
    try:
        run(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run(workdir):
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    url = os.environ.get('VOLAPI_BENCH_DB_URL')
    url = url or 'sqlite:///%s/bench.sqlite' % workdir
    CONF([], project='volapi', default_config_files=[])
    CONF.set_override('state_path', workdir)
    session.configure(url)
    migration.sync()
    application = api_app.setup_app(CONF)
    status, body = call(application, 'PUT', '/v3/os-quota-sets/project',
                        {'quota_set': {'volumes': -1, 'gigabytes': -1,
                                       'backups': -1,
                                       'backup_gigabytes': -1}},
                        token=ADMIN)
    assert status == 200, body
    print('%-6s %-48s %10s %10s' % ('method', 'path', 'median ms',
                                    'p90 ms'))
    (median, p90), backup_id = creates(application, count)
    print('%-6s %-48s %10.3f %10.3f' % ('POST', '/v3/backups', median, p90))
    cases = [
        ('GET', '/v3/backups/%s' % backup_id, None),
        ('GET', '/v3/backups/detail?limit=20', None),
        ('PUT', '/v3/backups/%s' % backup_id, {'backup': {'name': 'n'}}),
    ]
    for method, path, body in cases:
        median, p90 = api_volumes.measure(application, method, path, body,
                                          count)
        shown = path.replace(backup_id, '{id}')
        print('%-6s %-48s %10.3f %10.3f' % (method, shown, median, p90))


if __name__ == '__main__':
    main()
