"""CPU per request of the volume API (target: <= 2 ms).

Calls the WSGI application directly (no HTTP server, no network), on a
fresh SQLite database (or on a scratch database of the server
VOLAPI_BENCH_DB_URL names, see bench/cas.py), and prints the median and
90th percentile of process CPU time per request for a few typical
requests, and the median wall time (which holds the round trips to a
database server). A file-driver pool is reported to placement as a
worker does at start-up, so creates are scheduled and claimed as in
production; they cast to an in-memory transport no worker serves.

    python bench/api_volumes.py [requests-per-case [METHOD ...]]

METHODs given: only the cases of those methods (``POST``: creates).
"""
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

from oslo_config import cfg

from db import migration
from db import session
from volapi import conf as volapi_conf  # noqa: F401 (registers options)
from volapi import context
from volapi.api import app as api_app
from volapi.volume import pools
from volapi.volume.drivers import file as file_driver

CONF = cfg.CONF


def _environ(method, path, body=None, token='user:project',
             version='3.59'):
    query = ''
    if '?' in path:
        path, query = path.split('?', 1)
    data = json.dumps(body).encode() if body is not None else b''
    return {
        'REQUEST_METHOD': method, 'PATH_INFO': path, 'QUERY_STRING': query,
        'SERVER_NAME': 'localhost', 'SERVER_PORT': '80',
        'HTTP_HOST': 'localhost', 'wsgi.url_scheme': 'http',
        'wsgi.input': io.BytesIO(data), 'CONTENT_LENGTH': str(len(data)),
        'CONTENT_TYPE': 'application/json', 'SCRIPT_NAME': '',
        'HTTP_X_AUTH_TOKEN': token,
        'HTTP_OPENSTACK_API_VERSION': 'volume %s' % version,
    }


def call(application, method, path, body=None, token='user:project'):
    status = []

    def start_response(line, headers, exc_info=None):
        status.append(line)

    chunks = application(_environ(method, path, body, token),
                         start_response)
    payload = b''.join(chunks)
    return int(status[0].split()[0]), payload


def measure(application, method, path, body=None, count=300):
    samples, walls = [], []
    for _ in range(count):
        started, wall = time.process_time(), time.perf_counter()
        status, _payload = call(application, method, path, body)
        samples.append(time.process_time() - started)
        walls.append(time.perf_counter() - wall)
        assert status < 400, (method, path, status, _payload)
    samples.sort()
    return (statistics.median(samples) * 1000,
            samples[int(len(samples) * 0.9)] * 1000,
            statistics.median(walls) * 1000)


def scratch_database(url):
    """bench/cas.py's, leaving sys.path as it was: cas.py puts its own
    tree first, and the tree benched is the one on PYTHONPATH."""
    path = list(sys.path)
    import cas
    sys.path[:] = path
    return cas.scratch_database(url)


def main():
    workdir = tempfile.mkdtemp(prefix='volapi-bench-')
    url = os.environ.get('VOLAPI_BENCH_DB_URL')
    drop = None
    if url:
        url, drop = scratch_database(url)
    try:
        run(workdir, url or 'sqlite:///%s/bench.sqlite' % workdir)
    finally:
        if drop is not None:
            drop()
        shutil.rmtree(workdir, ignore_errors=True)


def report_pool(workdir):
    """A pool with room for every volume the bench makes."""
    CONF.set_override('volumes_dir', os.path.join(workdir, 'volumes'),
                      group='volume')
    CONF.set_override('file_pools', ['bench:100000'], group='volume')
    driver = file_driver.FileDriver(CONF)
    driver.do_setup()
    pools.PoolReporter(context.get_admin_context(), CONF, driver,
                       'bench@file').report()


def set_up(workdir, url):
    """The application on an empty database at ``url``, with a pool and
    no limit on the project's volumes."""
    CONF([], project='volapi', default_config_files=[])
    CONF.set_override('state_path', workdir)
    session.configure(url)
    migration.sync()
    report_pool(workdir)
    application = api_app.setup_app(CONF)
    # The creates measured go beyond Cinder's default quota of 10.
    status, body = call(application, 'PUT', '/v3/os-quota-sets/project',
                        {'quota_set': {'volumes': -1, 'gigabytes': -1}},
                        token='admin:admin')
    assert status == 200, body
    return application


def run(workdir, url):
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    methods = sys.argv[2:]
    application = set_up(workdir, url)
    status, body = call(application, 'POST', '/v3/volumes',
                        {'volume': {'size': 1, 'name': 'bench'}})
    volume_id = json.loads(body)['volume']['id']
    for _ in range(19):
        call(application, 'POST', '/v3/volumes', {'volume': {'size': 1}})

    cases = [
        ('GET', '/v3/', None),
        ('GET', '/v3/volumes/%s' % volume_id, None),
        ('GET', '/v3/project/volumes/%s' % volume_id, None),
        ('GET', '/v3/volumes?limit=20', None),
        ('GET', '/v3/volumes/detail?limit=20', None),
        ('GET', '/v3/types/default', None),
        ('PUT', '/v3/volumes/%s' % volume_id, {'volume': {'name': 'n'}}),
        ('POST', '/v3/volumes', {'volume': {'size': 1, 'name': 'x'}}),
    ]
    print('%-6s %-48s %10s %10s %10s' % ('method', 'path', 'median ms',
                                         'p90 ms', 'wall ms'))
    for method, path, body in cases:
        if methods and method not in methods:
            continue
        median, p90, wall = measure(application, method, path, body, count)
        shown = path.replace(volume_id, '{id}')
        print('%-6s %-48s %10.3f %10.3f %10.3f' % (method, shown, median,
                                                   p90, wall))


if __name__ == '__main__':
    main()
