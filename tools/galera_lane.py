#!/usr/bin/env python3
"""The multi-master lane: volapi on a three-node MariaDB Galera cluster
(tools/galera.py), one ``volapi-api`` process per node, so that concurrent
writes of the same rows meet on different masters and Galera's
certification refuses all but one (a deadlock error to the losers, which
volapi retries as a whole transaction).

- the CAS race: 16 clients extend the same volume at once, through the
  three nodes; exactly one 202, the others 400, for every volume;
- the placement contention: 32 clients claim one unit each of a provider
  of capacity 20, through the three nodes; exactly 20 claims, 12 409s,
  allocations = usages = capacity, read on every node;
- the quota race: creates of one project through every node while an
  admin lowers its volumes limit through one of them (to what it holds
  plus 2): the outcomes are those of some serial order (the limit set and
  at most 2 creates accepted, or the limit refused and more accepted), and
  every node holds no more volumes than the limit;
- a node killed (SIGKILL, with its API process) under the placement load:
  the claims go on through the other nodes and nothing breaks; then it
  rejoins (receiving what it missed) and takes claims again.

No 5xx is allowed anywhere but answers of the killed node's API. It prints
the figures (certification failures met, races, outcomes) as JSON lines and
exits 0 only if every invariant held.

    python tools/galera_lane.py [--rounds N]
"""
import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import requests
import sqlalchemy as sa

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools import fault_stack  # noqa: E402

ROOT = fault_stack.ROOT
GALERA = os.path.join(ROOT, 'tools', 'galera.py')
VOLUME_VERSION = {'OpenStack-API-Version': 'volume 3.59'}
PLACEMENT_VERSION = {'OpenStack-API-Version': 'placement 1.28'}
CAPACITY = 20
CLAIMERS = 32
RACERS = 16
CREATORS = 6
QUOTA_PROJECT = 'galera-quota'
ADMIN_TOKEN = 'admin:admin'


class Lane:

    def __init__(self):
        self.state = tempfile.mkdtemp(prefix='volapi-galera-')
        self.apis = []

    def start(self):
        out = subprocess.run([sys.executable, GALERA, 'start',
                              os.path.join(self.state, 'galera')],
                             check=True, capture_output=True, text=True)
        self.urls = json.loads(out.stdout.strip().splitlines()[-1])
        manage = self._config('manage', self.urls[0])
        subprocess.run([sys.executable, '-m', 'volapi.cmd.manage',
                        '--config-file', manage, 'db', 'sync'], check=True,
                       cwd=ROOT, capture_output=True,
                       env=dict(os.environ, PYTHONPATH=ROOT))
        for i, url in enumerate(self.urls, 1):
            port = fault_stack.free_port()
            api = fault_stack.Process('api-%d' % i, [
                sys.executable, '-m', 'volapi.cmd.api', '--config-file',
                self._config('api-%d' % i, url), '--bind',
                '127.0.0.1:%d' % port],
                os.path.join(self.state, 'api-%d.log' % i))
            api.url = 'http://127.0.0.1:%d' % port
            self.apis.append(api.start())
        # Reports a pool for volume creates to claim on; its casts go
        # nowhere (fake://), so the volumes stay 'creating'.
        self.worker = fault_stack.Process('worker', [
            sys.executable, '-m', 'volapi.cmd.volume', '--config-file',
            self._config('worker', self.urls[0], volume={
                'volumes_dir': os.path.join(self.state, 'volumes'),
                'file_pools': 'pool:1000'})],
            os.path.join(self.state, 'worker.log')).start()
        for api in self.apis:
            api.wait_for_log('serving HTTP on')
        self.worker.wait_for_log('start-up reconciliation re-drove')
        self.engines = [sa.create_engine(url, pool_pre_ping=True)
                        for url in self.urls]

    def _config(self, name, url, **sections):
        path = os.path.join(self.state, '%s.conf' % name)
        fault_stack.write_config(path, dict({
            'DEFAULT': {'host': name, 'state_path': self.state,
                        'transport_url': 'fake://'},
            'database': {'connection': url, 'max_retries': 5},
        }, **sections))
        return path

    def stop(self):
        for api in self.apis:
            api.stop()
        if getattr(self, 'worker', None):
            self.worker.stop()
        for engine in getattr(self, 'engines', []):
            engine.dispose()
        subprocess.run([sys.executable, GALERA, 'stop',
                        os.path.join(self.state, 'galera')],
                       capture_output=True)

    def cert_failures(self):
        out = subprocess.run([sys.executable, GALERA, 'cert-failures',
                              os.path.join(self.state, 'galera')],
                             capture_output=True, text=True)
        return int(out.stdout.strip() or 0)

    def session(self, version, token='admin'):
        http = requests.Session()
        http.headers.update(version)
        http.headers['X-Auth-Token'] = token
        return http


def together(n, fn):
    """Run ``fn(i)`` in ``n`` threads released at once; their results."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        barrier.wait()
        try:
            results[i] = fn(i)
        except requests.RequestException as e:
            results[i] = repr(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def cas_race(lane, rounds):
    outcomes = collections.Counter()
    broken = []
    sessions = [lane.session(VOLUME_VERSION, 'user:galera')
                for _ in range(RACERS)]
    for _ in range(rounds):
        volume = str(uuid.uuid4())
        with lane.engines[0].begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO volumes (id, project_id, user_id, size, status,"
                " attach_status, bootable, multiattach, deleted, host, "
                "created_at) VALUES (:id, 'galera', 'galera', 1, "
                "'available', 'detached', false, false, false, "
                "'nowhere@file#file', CURRENT_TIMESTAMP)"), {'id': volume})
        # Every node must see the row before the race starts.
        time.sleep(0.2)

        def extend(i):
            api = lane.apis[i % len(lane.apis)]
            return sessions[i].post(
                '%s/v3/galera/volumes/%s/action' % (api.url, volume),
                json={'os-extend': {'new_size': 2}}, timeout=60).status_code

        results = together(RACERS, extend)
        outcomes.update(results)
        if results.count(202) != 1 or \
                results.count(400) != RACERS - 1:
            broken.append(results)
        for engine in lane.engines:
            with engine.connect() as conn:
                rows = conn.execute(sa.text(
                    "SELECT count(*) FROM workers WHERE resource_id = :id"),
                    {'id': volume}).scalar()
                status = conn.execute(sa.text(
                    "SELECT status FROM volumes WHERE id = :id"),
                    {'id': volume}).scalar()
            if (rows, status) != (1, 'extending'):
                broken.append(('node state', rows, status))
    return {'race': 'cas_extend', 'rounds': rounds, 'racers': RACERS,
            'outcomes': dict(outcomes), 'broken': broken}


def quota_limit_race(lane, rounds):
    outcomes = collections.Counter()
    broken = []
    admin = lane.session(VOLUME_VERSION, ADMIN_TOKEN)
    quota_path = '/v3/os-quota-sets/' + QUOTA_PROJECT
    sessions = [lane.session(VOLUME_VERSION, 'user:' + QUOTA_PROJECT)
                for _ in range(CREATORS)] + [admin]
    for _ in range(rounds):
        admin.put(lane.apis[0].url + quota_path, json={'quota_set': {
            'volumes': -1}}, timeout=60).raise_for_status()
        held = admin.get(lane.apis[0].url + quota_path + '?usage=True',
                         timeout=60).json()['quota_set']['volumes']['in_use']
        # Every node must see the limit before the race starts.
        time.sleep(0.2)

        def act(i):
            api = lane.apis[i % len(lane.apis)]
            if i == CREATORS:
                return ('limit', sessions[i].put(
                    api.url + quota_path, json={'quota_set': {
                        'volumes': held + 2}}, timeout=60).status_code)
            return ('create', sessions[i].post(
                '%s/v3/%s/volumes' % (api.url, QUOTA_PROJECT),
                json={'volume': {'size': 1}}, timeout=60).status_code)

        results = together(CREATORS + 1, act)
        outcomes.update(status for _, status in results)
        creates = [status for kind, status in results if kind == 'create']
        [lowered] = [status for kind, status in results if kind == 'limit']
        accepted = creates.count(202)
        if set(creates) - {202, 413} or lowered not in (200, 400) or (
                (lowered == 200) != (accepted <= 2)):
            broken.append(results)
        time.sleep(0.2)
        for i, engine in enumerate(lane.engines):
            with engine.connect() as conn:
                volumes, limit = conn.execute(sa.text(
                    "SELECT volumes, volumes_limit FROM quota_usages "
                    "WHERE project_id = :p"), {'p': QUOTA_PROJECT}).one()
            if volumes != held + accepted or limit != (
                    held + 2 if lowered == 200 else -1):
                broken.append(('node %d' % (i + 1), held, accepted,
                               volumes, limit))
    return {'race': 'quota_limit_lowered', 'rounds': rounds,
            'creators': CREATORS, 'outcomes': dict(outcomes),
            'broken': broken}


def provider(lane, capacity):
    http = lane.session(PLACEMENT_VERSION)
    base = lane.apis[0].url + '/placement'
    ident = str(uuid.uuid4())
    response = http.post(base + '/resource_providers',
                         json={'uuid': ident, 'name': ident}, timeout=60)
    response.raise_for_status()
    response = http.put(base + '/resource_providers/%s/inventories' % ident,
                        json={'resource_provider_generation': 0,
                              'inventories': {'DISK_GB': {
                                  'total': capacity}}}, timeout=60)
    response.raise_for_status()
    time.sleep(0.2)
    return ident


def claims(lane, rounds, kill_node=None):
    """``rounds`` contention runs; with ``kill_node``, that node is
    SIGKILLed during the first run and started again after the last."""
    outcomes = collections.Counter()
    broken = []
    sessions = [lane.session(PLACEMENT_VERSION) for _ in range(CLAIMERS)]
    apis = list(lane.apis)
    for run in range(rounds):
        rp = provider(lane, CAPACITY)
        if kill_node is not None and run == 0:
            threading.Timer(0.05, kill, (lane, kill_node)).start()
            apis = [a for i, a in enumerate(lane.apis) if i != kill_node]

        def claim(i):
            for attempt in range(3):
                api = apis[(i + attempt) % len(apis)]
                try:
                    return sessions[i].put(
                        '%s/placement/allocations/%s' % (api.url,
                                                         uuid.uuid4()),
                        json={'allocations': {rp: {'resources': {
                            'DISK_GB': 1}}},
                            'project_id': 'galera', 'user_id': 'galera',
                            'consumer_generation': None},
                        timeout=60).status_code
                except requests.ConnectionError:
                    continue
            return 'unreachable'

        results = together(CLAIMERS, claim)
        outcomes.update(results)
        if results.count(204) != CAPACITY or \
                results.count(409) != CLAIMERS - CAPACITY:
            broken.append(('outcomes', results))
        for i, engine in enumerate(lane.engines):
            if kill_node == i:
                continue
            with engine.connect() as conn:
                used, allocated = conn.execute(sa.text(
                    "SELECT (SELECT coalesce(sum(a.used), 0) FROM "
                    "allocations a WHERE a.resource_provider_id = rp.id), "
                    "(SELECT i.allocated FROM inventories i WHERE "
                    "i.resource_provider_id = rp.id) FROM "
                    "resource_providers rp WHERE rp.uuid = :u"),
                    {'u': rp}).one()
            if (used, allocated) != (CAPACITY, CAPACITY):
                broken.append(('node %d' % (i + 1), used, allocated))
    return {'race': 'placement_claims' + (
        ' with node %d killed' % (kill_node + 1) if kill_node is not None
        else ''), 'rounds': rounds, 'claimers': CLAIMERS,
        'capacity': CAPACITY, 'outcomes': dict(outcomes), 'broken': broken}


def rejoin(lane, node):
    subprocess.run([sys.executable, GALERA, 'rejoin',
                    os.path.join(lane.state, 'galera'), str(node + 1)],
                   check=True, capture_output=True)
    api = lane.apis[node]
    mark = len(api.log())
    api.start()
    api.wait_for_log('serving HTTP on', after=mark)


def kill(lane, node):
    with open(os.path.join(lane.state, 'galera', 'pid%d' % (node + 1))) as f:
        os.kill(int(f.read()), signal.SIGKILL)
    lane.apis[node].kill()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--json', help='write the results there too')
    args = parser.parse_args(argv)
    lane = Lane()
    results = []
    try:
        lane.start()
        for race in (lambda: cas_race(lane, args.rounds),
                     lambda: quota_limit_race(lane, args.rounds),
                     lambda: claims(lane, args.rounds),
                     lambda: claims(lane, 2, kill_node=2),
                     lambda: rejoin(lane, 2) or claims(lane, 2)):
            before = lane.cert_failures()
            result = race()
            result['certification_failures'] = \
                lane.cert_failures() - before
            results.append(result)
            print(json.dumps(result, sort_keys=True), flush=True)
    finally:
        lane.stop()
        failed = not results or any(r['broken'] for r in results) or any(
            isinstance(k, int) and k >= 500 or k in ('unreachable',)
            for r in results for k in r['outcomes'])
        if failed or os.environ.get('VOLAPI_GALERA_KEEP'):
            print('logs kept in %s' % lane.state, file=sys.stderr)
        else:
            shutil.rmtree(lane.state, ignore_errors=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
