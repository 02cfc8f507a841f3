#!/usr/bin/env python3
"""The fault suite: volapi in its production shape (tools/fault_stack.py:
two API processes, two workers of one cluster, PostgreSQL, RabbitMQ) under
a bounded mixed load of concurrent clients, while each fault strikes:

- ``worker_kill``: a worker SIGKILLed mid-load, back after a while;
- ``api_kill``: an API process SIGKILLed, back after a while;
- ``pg_restart``: PostgreSQL stopped (fast) and started again;
- ``pg_pause``: every PostgreSQL process SIGSTOPped, then SIGCONTed;
- ``rabbit_restart``: RabbitMQ's application stopped and started again;
- ``client_vanish``: a client leaves holds behind (os-reserve, POST
  /attachments with and without connector, os-begin_detaching) and never
  comes back; the workers roll them back after ``attach_hold_timeout``.

After each fault, once the clients have stopped and their operations have
settled, it checks: every acknowledged (202) operation done, none failed
(the file driver does not fail) and none still in flight; no volume or
snapshot left in a transient status and no ``workers`` row; database and
backing files agree on every size, no file without its row; no 5xx outside
the fault window and no 500 inside it. It prints, per fault, the lost and
falsely failed operations, the 5xx counts and the recovery time (from the
fault's end until every operation in flight then had settled).

    python tools/fault_suite.py [--faults a,b] [--clients N] [--json FILE]

Placement claimers run beside the volume clients, claiming and releasing
allocations on one provider: after each fault the allocations held must be
exactly those the claimers were told they hold, and the provider's
inventory must agree with them (allocated = sum of allocations <= total).

``VOLAPI_FAULT_SUITE_LONG=1`` runs the long version (longer load, a worker
down for 100 s); ``VOLAPI_FAULT_SUITE_STRICT=0`` reports 500s inside a fault
window without failing.
``VOLAPI_FAULT_SUITE_KEEP=1`` keeps the logs. The exit status is 0 only if
every check held.
"""
import argparse
import collections
import itertools
import json
import os
import random
import sys
import threading
import time
import uuid

import requests

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools import fault_stack  # noqa: E402

GiB = 1024 ** 3
VERSION = {'OpenStack-API-Version': 'volume 3.59'}
PLACEMENT_VERSION = {'OpenStack-API-Version': 'placement 1.28'}
TRANSIENT = ('creating', 'deleting', 'extending', 'retyping', 'attaching',
             'detaching', 'reserved', 'downloading', 'uploading')
FAULTS = ('worker_kill', 'api_kill', 'pg_restart', 'pg_pause',
          'rabbit_restart', 'client_vanish')


class Recorder:
    """Every HTTP answer and every acknowledged operation of a phase."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = []      # (time, status or 'conn')
        self.operations = []   # dicts: kind, id, acked, settled, outcome

    def answer(self, status):
        with self.lock:
            self.answers.append((time.time(), status))

    def operation(self, kind, ident):
        op = {'kind': kind, 'id': ident, 'acked': time.time(),
              'settled': None, 'outcome': None}
        with self.lock:
            self.operations.append(op)
        return op


class Client(threading.Thread):
    """One user: create, extend, snapshot, delete the snapshot, delete the
    volume, again and again, each step awaited before the next."""

    def __init__(self, stack, project, recorder, stop, settle_timeout):
        super().__init__(daemon=True)
        self.stack, self.project = stack, project
        self.recorder, self.stop_event = recorder, stop
        self.settle_timeout = settle_timeout
        self.http = requests.Session()
        self.http.headers.update(VERSION)
        self.http.headers['X-Auth-Token'] = 'user:%s' % project
        self.turn = itertools.count(random.randrange(2))

    def request(self, method, path, body=None, retry_until=None):
        """The answer, retried on another API process while the APIs
        answer 5xx or not at all (until ``retry_until``)."""
        retry_until = retry_until or time.time() + self.settle_timeout
        while True:
            api = self.stack.apis[next(self.turn) % 2]
            url = '%s/v3/%s%s' % (api.url, self.project, path)
            try:
                response = self.http.request(method, url, json=body,
                                             timeout=30)
            except requests.RequestException:
                self.recorder.answer('conn')
                if method != 'GET':
                    # It may have been done: the caller cannot know.
                    return None
            else:
                self.recorder.answer(response.status_code)
                if response.status_code < 500:
                    return response
            if time.time() > retry_until:
                return None
            time.sleep(0.5)

    def settle(self, op, path, key, done):
        """Poll until the resource is out of its transient status."""
        deadline = op['acked'] + self.settle_timeout
        while time.time() < deadline:
            response = self.request('GET', path, retry_until=deadline)
            if response is None:
                break
            if response.status_code == 404:
                status = 'deleted'
            else:
                status = response.json()[key]['status']
            if status == done:
                op['outcome'], op['settled'] = 'done', time.time()
                return True
            if status not in TRANSIENT:
                op['outcome'], op['settled'] = status, time.time()
                return False
            time.sleep(0.3)
        op['outcome'] = 'stuck'
        return False

    def step(self, kind, method, path, body, settle_path, key, done):
        response = self.request(method, path, body)
        if response is None or response.status_code not in (200, 202):
            return None
        data = response.json() if response.content else {}
        ident = data.get(key, {}).get('id') or settle_path.rsplit('/', 1)[1]
        settle_path = settle_path.replace('{id}', ident)
        op = self.recorder.operation(kind, ident)
        return ident if self.settle(op, settle_path, key, done) else None

    def run(self):
        while not self.stop_event.is_set():
            volume = self.step('create', 'POST', '/volumes',
                               {'volume': {'size': 1}}, '/volumes/{id}',
                               'volume', 'available')
            if volume is None:
                continue
            path = '/volumes/%s' % volume
            if self.step('extend', 'POST', path + '/action',
                         {'os-extend': {'new_size': 2}}, path, 'volume',
                         'available') is None:
                continue
            snapshot = self.step('snapshot', 'POST', '/snapshots',
                                 {'snapshot': {'volume_id': volume}},
                                 '/snapshots/{id}', 'snapshot', 'available')
            if snapshot is None:
                continue
            snap_path = '/snapshots/%s' % snapshot
            if self.step('snapshot_delete', 'DELETE', snap_path, None,
                         snap_path, 'snapshot', 'deleted') is None:
                continue
            self.step('delete', 'DELETE', path, None, path, 'volume',
                      'deleted')


class Claimer(threading.Thread):
    """Claims one DISK_GB for a new consumer, and releases its oldest
    claim once it holds a few, again and again. A request without an
    answer leaves its consumer uncertain (the caller cannot know)."""

    HOLD = 4

    def __init__(self, stack, provider, recorder, stop, held, uncertain):
        super().__init__(daemon=True)
        self.stack, self.provider = stack, provider
        self.recorder, self.stop_event = recorder, stop
        self.held, self.uncertain = held, uncertain
        self.mine = []
        self.claimed = 0
        self.http = requests.Session()
        self.http.headers.update(PLACEMENT_VERSION)
        self.http.headers['X-Auth-Token'] = 'admin'
        self.turn = itertools.count(random.randrange(2))

    def call(self, method, consumer, body=None):
        api = self.stack.apis[next(self.turn) % 2]
        try:
            response = self.http.request(
                method, '%s/placement/allocations/%s' % (api.url, consumer),
                json=body, timeout=30)
        except requests.RequestException:
            self.recorder.answer('conn')
            self.uncertain.add(consumer)
            return None
        self.recorder.answer(response.status_code)
        if response.status_code >= 500:
            self.uncertain.add(consumer)
        return response.status_code

    def run(self):
        while not self.stop_event.is_set():
            consumer = str(uuid.uuid4())
            if self.call('PUT', consumer, {
                    'allocations': {self.provider: {'resources': {
                        'DISK_GB': 1}}},
                    'project_id': 'claims', 'user_id': 'claims',
                    'consumer_generation': None}) == 204:
                self.held.add(consumer)
                self.mine.append(consumer)
                self.claimed += 1
            if len(self.mine) > self.HOLD:
                oldest = self.mine.pop(0)
                if self.call('DELETE', oldest) == 204:
                    self.held.discard(oldest)
            time.sleep(0.05)


def make_provider(stack, capacity):
    http = requests.Session()
    http.headers.update(PLACEMENT_VERSION)
    http.headers['X-Auth-Token'] = 'admin'
    base = stack.apis[0].url + '/placement'
    ident = str(uuid.uuid4())
    http.post(base + '/resource_providers', json={
        'uuid': ident, 'name': 'fault-%s' % ident},
        timeout=30).raise_for_status()
    http.put(base + '/resource_providers/%s/inventories' % ident, json={
        'resource_provider_generation': 0,
        'inventories': {'DISK_GB': {'total': capacity}}},
        timeout=30).raise_for_status()
    return ident


def check_claims(stack, provider, held, uncertain):
    """Problems with the provider's allocations once the claimers stopped."""
    problems = {}
    rows = stack.query(
        "SELECT a.consumer_id, a.used FROM allocations a JOIN "
        "resource_providers rp ON rp.id = a.resource_provider_id "
        "WHERE rp.uuid = '%s'" % provider)
    in_db = {consumer for consumer, _ in rows}
    lost = (held - uncertain) - in_db
    phantom = (in_db - uncertain) - held
    if lost:
        problems['acknowledged claims missing'] = len(lost)
    if phantom:
        problems['claims nobody was told of'] = len(phantom)
    (allocated, total), = stack.query(
        "SELECT i.allocated, i.total FROM inventories i JOIN "
        "resource_providers rp ON rp.id = i.resource_provider_id "
        "WHERE rp.uuid = '%s'" % provider)
    used = sum(u for _, u in rows)
    if not used == allocated <= total:
        problems['inventory'] = {'allocations': used, 'allocated': allocated,
                                 'total': total}
    return problems


def check_store(stack):
    """What the database and the volumes directory say once settled."""
    problems = collections.Counter()
    problems['workers rows'] = stack.query(
        'SELECT count(*) FROM workers')[0][0]
    problems['attachments being made'] = stack.query(
        "SELECT count(*) FROM volume_attachment WHERE deleted = false AND "
        "attach_status IN ('reserved', 'attaching')")[0][0]
    for table in ('volumes', 'snapshots'):
        problems['%s in a transient status' % table] = stack.query(
            "SELECT count(*) FROM %s WHERE deleted = false AND status IN "
            "(%s)" % (table, ', '.join("'%s'" % s for s in TRANSIENT)))[0][0]
    directory = os.path.join(stack.state, 'volumes')
    files = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    live = {}
    for ident, size, status in stack.query(
            "SELECT id, size, status FROM volumes WHERE deleted = false"):
        live['volume-%s' % ident] = (size, status)
    for (ident,) in stack.query(
            "SELECT id FROM snapshots WHERE deleted = false"):
        live['snapshot-%s' % ident] = None
    problems['files without a row'] = len(
        [f for f in files if not f.startswith('.') and f not in live])
    for name, value in live.items():
        if value is None or value[1] != 'available':
            continue
        path = os.path.join(directory, name)
        if not os.path.exists(path) or \
                os.path.getsize(path) != value[0] * GiB:
            problems['size differs between database and file'] += 1
    return {k: v for k, v in problems.items() if v}


def run_phase(stack, fault, args, timing):
    recorder = Recorder()
    marks = [len(w.log()) for w in stack.workers]
    stop = threading.Event()
    clients = [Client(stack, 'project-%d' % (i % args.projects), recorder,
                      stop, timing['settle_timeout'])
               for i in range(args.clients)]
    # Across phases: the provider keeps the claims of earlier ones.
    held, uncertain = stack.held, stack.uncertain
    claimers = [Claimer(stack, stack.provider, recorder, stop, held,
                        uncertain) for _ in range(args.claimers)]
    for client in clients + claimers:
        client.start()
    time.sleep(timing['warmup'])
    fault_start = time.time()
    inject(stack, fault, timing)
    fault_end = time.time()
    time.sleep(timing['after'])
    stop.set()
    for client in clients + claimers:
        client.join(timing['settle_timeout'] + 60)
    ops = recorder.operations
    in_flight = [op for op in ops if op['acked'] <= fault_end and
                 (op['settled'] is None or op['settled'] >= fault_start)]
    settled = [op['settled'] for op in in_flight if op['settled']]
    recovery = max([0.0] + [s - fault_end for s in settled])
    window_end = fault_end + timing['grace']
    inside = collections.Counter(
        s for t, s in recorder.answers
        if fault_start <= t <= window_end and s != 'conn' and s >= 500)
    outside = collections.Counter(
        s for t, s in recorder.answers
        if not fault_start <= t <= window_end and s != 'conn' and s >= 500)
    result = {
        'fault': fault,
        'fault_seconds': round(fault_end - fault_start, 1),
        'operations': len(ops),
        'done': sum(op['outcome'] == 'done' for op in ops),
        'lost': sum(op['outcome'] in ('stuck', None) for op in ops),
        'falsely_failed': sum(op['outcome'] not in ('done', 'stuck', None)
                              for op in ops),
        'failed_statuses': dict(collections.Counter(
            '%s:%s' % (op['kind'], op['outcome']) for op in ops
            if op['outcome'] not in ('done', 'stuck', None))),
        'in_flight_at_fault': len(in_flight),
        'recovery_seconds': round(recovery, 1),
        '5xx_in_window': dict(inside),
        '5xx_outside_window': dict(outside),
        'connection_errors': sum(s == 'conn' for _, s in recorder.answers),
        'requests': len(recorder.answers),
        'store_problems': dict(check_store(stack), **check_claims(
            stack, stack.provider, held, uncertain)),
        'claims': sum(c.claimed for c in claimers),
        'redriven': sum(w.log()[mark:].count('re-driving')
                        for w, mark in zip(stack.workers, marks)),
        'worst_settle_seconds': round(max(
            [0.0] + [op['settled'] - op['acked'] for op in ops
                     if op['settled']]), 1),
    }
    return result


def inject(stack, fault, timing):
    if fault == 'worker_kill':
        stack.kill_worker(random.randrange(2), timing['worker_down'])
    elif fault == 'api_kill':
        stack.kill_api(random.randrange(2), timing['api_down'])
    elif fault == 'pg_restart':
        stack.restart_postgresql()
    elif fault == 'pg_pause':
        stack.pause_postgresql(timing['pg_pause'])
    elif fault == 'rabbit_restart':
        stack.restart_rabbitmq(timing['rabbit_down'])
    elif fault == 'client_vanish':
        abandon_holds(stack, timing)
    else:
        raise ValueError('unknown fault %s' % fault)


def abandon_holds(stack, timing):
    """A client that starts an attach or a detach on four volumes of its
    own and vanishes; waits until the workers' reconciliation should have
    rolled the holds back (check_store then finds none left)."""
    http = requests.Session()
    http.headers.update(VERSION)
    http.headers['X-Auth-Token'] = 'user:vanished'
    base = '%s/v3/vanished' % stack.apis[0].url
    connector = {'host': 'compute-gone', 'initiator': 'iqn.gone'}

    def call(method, path, body=None):
        response = http.request(method, base + path, json=body, timeout=30)
        response.raise_for_status()
        return response.json() if response.content else None

    volumes = [call('POST', '/volumes', {'volume': {'size': 1}})['volume']
               ['id'] for _ in range(4)]
    deadline = time.time() + timing['settle_timeout']
    while any(call('GET', '/volumes/%s' % v)['volume']['status'] !=
              'available' for v in volumes):
        if time.time() > deadline:
            raise RuntimeError('volumes of the vanishing client never '
                               'became available')
        time.sleep(0.3)
    reserved, booked, connecting, detaching = volumes

    def attach(volume, **spec):
        return call('POST', '/attachments', {'attachment': dict(
            spec, volume_uuid=volume, instance_uuid=str(uuid.uuid4()))}
        )['attachment']['id']

    call('POST', '/volumes/%s/action' % reserved, {'os-reserve': None})
    attach(booked)
    attach(connecting, connector=connector)
    call('POST', '/attachments/%s/action' % attach(
        detaching, connector=connector), {'os-complete': None})
    call('POST', '/volumes/%s/action' % detaching,
         {'os-begin_detaching': None})
    time.sleep(timing['attach_hold_timeout'] +
               3 * timing['cleanup_interval'])


def verdict(result, strict):
    """The reasons this phase failed (empty: it passed)."""
    reasons = []
    if result['lost']:
        reasons.append('%d operation(s) lost' % result['lost'])
    if result['falsely_failed']:
        reasons.append('%d operation(s) failed: %s' % (
            result['falsely_failed'], result['failed_statuses']))
    if result['store_problems']:
        reasons.append('store: %s' % result['store_problems'])
    if result['5xx_outside_window']:
        reasons.append('5xx outside the fault window: %s'
                       % result['5xx_outside_window'])
    if strict and result['5xx_in_window'].get(500):
        reasons.append('%d 500(s) in the fault window'
                       % result['5xx_in_window'][500])
    if not result['done']:
        reasons.append('no operation completed')
    return reasons


def timings(long_run):
    base = {
        'report_interval': 1, 'service_down_time': 5, 'cleanup_interval': 1,
        'unclaimed_work_timeout': 5, 'durable_queues': True,
        'attach_hold_timeout': 5,
        'warmup': 4, 'after': 6, 'grace': 10, 'settle_timeout': 90,
        'worker_down': 8, 'api_down': 3, 'pg_pause': 5, 'rabbit_down': 2,
    }
    if long_run:
        base.update(warmup=20, after=30, worker_down=100, pg_pause=10,
                    rabbit_down=10, settle_timeout=240)
    return base


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--faults', default=','.join(FAULTS))
    parser.add_argument('--clients', type=int, default=8)
    parser.add_argument('--projects', type=int, default=4)
    parser.add_argument('--claimers', type=int, default=8)
    parser.add_argument('--json', help='write the results there too')
    parser.add_argument('--seed', type=int, default=None)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    strict = os.environ.get('VOLAPI_FAULT_SUITE_STRICT', '1') != '0'
    timing = timings(os.environ.get('VOLAPI_FAULT_SUITE_LONG') == '1')
    stack = fault_stack.Stack(timing)
    results, failed = [], False
    try:
        stack.start_servers()
        stack.start_volapi()
        stack.provider = make_provider(stack, capacity=10000)
        stack.held, stack.uncertain = set(), set()
        for fault in args.faults.split(','):
            result = run_phase(stack, fault, args, timing)
            result['failures'] = verdict(result, strict)
            failed = failed or bool(result['failures'])
            results.append(result)
            print(json.dumps(result, sort_keys=True), flush=True)
    finally:
        stack.stop_volapi()
        stack.stop_servers()
        if failed or os.environ.get('VOLAPI_FAULT_SUITE_KEEP'):
            print('logs kept in %s' % stack.state, file=sys.stderr)
        else:
            import shutil
            shutil.rmtree(stack.state, ignore_errors=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1, sort_keys=True)
    print('%-15s %5s %5s %5s %5s %5s %5s %8s %8s %s' % (
        'fault', 'ops', 'lost', 'fail', '500s', '503s', 'conn', 'redriven',
        'recovery', 'verdict'))
    for r in results:
        fives = collections.Counter(r['5xx_in_window'])
        fives.update(r['5xx_outside_window'])
        print('%-15s %5d %5d %5d %5d %5d %5d %8d %7.1fs %s' % (
            r['fault'], r['operations'], r['lost'], r['falsely_failed'],
            fives.get(500, 0), fives.get(503, 0), r['connection_errors'],
            r['redriven'],
            r['recovery_seconds'], '; '.join(r['failures']) or 'ok'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
