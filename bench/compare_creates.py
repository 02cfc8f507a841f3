#!/usr/bin/env python3
"""Volume create-to-available: volapi beside OpenStack Cinder 29.0.0 on the
same machine, PostgreSQL and RabbitMQ, quota enforced, in one run.

    # VOLAPI_TEST_PG_URL and VOLAPI_TEST_RABBIT_URL set, as for tools/run-tests
    PYTHONPATH=$PWD python bench/compare_creates.py [--state-dir DIR] \\
        [--clients 1,8,32] [--duration 10] [--rounds 1] [--keep]

Starts both from scratch, each on a database of its own on the PostgreSQL
server of VOLAPI_TEST_PG_URL and on the RabbitMQ of VOLAPI_TEST_RABBIT_URL:
volapi from this tree (volapi-api and one volapi-volume, file driver, one
pool; bench/volapi_services.py) and Cinder 29.0.0 from PyPI (cinder-api,
cinder-scheduler and cinder-volume with Cinder's fake driver; installed
into a virtualenv under DIR on first use, see bench/cinder_reference.py).
Project ``bench`` gets a quota of 100,000 volumes and gigabytes on both, so
every create is checked against it without reaching it.

Then, per round and per client count, the loop of bench/volume_creates.py
runs for --duration seconds against volapi, then against Cinder (create
1 GiB, poll until 'available', again), and the volumes it made are
deleted before the next measurement. Prints per client count: volumes made
available per second, p50 and p95 create-to-available latency, the
server processes' CPU (API, scheduler, workers; not PostgreSQL's) per volume, and
the ratio volapi / Cinder; with several rounds the medians and each
round's ratio. Then the service's own latency, without the client's
polling: the p50 from the volume row written by the API to the volume
made available by the worker (created_at to launched_at, read from each
database).

Last, the quota at its limit on each side: a fresh project with a quota of
--quota-limit volumes gets --quota-clients creates at once; prints how
many were accepted and refused (413), how many volumes ended 'available',
and the usage each API reports before and right after they are deleted
(and, if it changes within 30 s, what it becomes and when).

Everything started or made is stopped or removed at the end, also on
Ctrl-C (--keep keeps the run directories with configurations and logs).
A full default run takes about 4 minutes of a 2-CPU machine; run it on an
otherwise quiet machine.
"""
import argparse
import os
import statistics
import sys
import threading
import time

import cinder_reference
import scratch
import volapi_services
import volume_actions
import volume_creates

ENOUGH = 100000


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--state-dir', default=cinder_reference.default_state_dir(),
                   help='Cinder\'s virtualenv (kept) and the run '
                        'directories (removed) go here')
    p.add_argument('--clients', default='1,8,32')
    p.add_argument('--duration', type=float, default=10.0,
                   help='seconds per client count and target')
    p.add_argument('--rounds', type=int, default=1)
    p.add_argument('--poll', type=float, default=0.02,
                   help='seconds between two status reads of a volume')
    p.add_argument('--quota-limit', type=int, default=10)
    p.add_argument('--quota-clients', type=int, default=32,
                   help='simultaneous creates against the quota (0: none)')
    p.add_argument('--keep', action='store_true')
    return p.parse_args(argv)


def set_quota(service, project, volumes, gigabytes):
    api = service.api()
    try:
        api.request('PUT', '/os-quota-sets/%s' % project, {
            'quota_set': {'volumes': volumes, 'gigabytes': gigabytes}})
    finally:
        api.connection.close()


def measure(service, args, clients):
    level_args = volume_creates.parse_args([
        service.url, '--project', 'bench', '--user', 'bench',
        '--duration', str(args.duration), '--poll', str(args.poll)])
    pids = service.server_pids()
    cpu = volume_actions.cpu_seconds(pids)
    level = volume_creates.measure(level_args, clients)
    cpu = volume_actions.cpu_seconds(pids) - cpu
    made = len(level['made'])
    level['cpu_ms'] = 1000 * cpu / made if made else 0.0
    launches = service.database.launch_ms(level['made'])
    level['launch_p50'] = float(statistics.median(launches)) \
        if launches else 0.0
    api = service.api()
    try:
        volume_creates.delete_all(api, level['made'])
    finally:
        api.connection.close()
    return level


def quota_usage(api, project):
    _, body = api.request('GET', '/os-quota-sets/%s?usage=True' % project)
    return body['quota_set']['volumes']['in_use']


def usage_after_deletes(api, project, timeout=30):
    """'N' when the usage reads N right after the last volume is gone and
    stays so, 'N, then M after S s' when it changes within ``timeout``
    seconds (a count committed after the volume rows are deleted)."""
    started = time.monotonic()
    first = value = quota_usage(api, project)
    while value and time.monotonic() - started < timeout:
        time.sleep(0.1)
        value = quota_usage(api, project)
    if value == first:
        return '%d' % first
    return '%d, then %d after %.1f s' % (first, value,
                                         time.monotonic() - started)


def at_the_limit(service, limit, clients):
    """``clients`` simultaneous creates in a fresh project whose quota is
    ``limit`` volumes: a one-line account."""
    project = 'quota-%s' % scratch.token()
    set_quota(service, project, limit, ENOUGH)
    barrier = threading.Barrier(clients)
    codes, accepted = [], []

    apis = []
    for _ in range(clients):
        apis.append(service.api(project=project, user='bench'))
        apis[-1].connection.open()

    def create(api):
        try:
            barrier.wait()
            try:
                status, body = api.connection.request(
                    'POST', '/volumes', b'{"volume": {"size": 1}}',
                    api.headers)
            except OSError as e:
                codes.append(type(e).__name__)
                return
            codes.append(status)
            if status == 202:
                accepted.append(volume_actions.json.loads(body)
                                ['volume']['id'])
        finally:
            api.connection.close()

    threads = [threading.Thread(target=create, args=(api,)) for api in apis]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    api = service.api(project=project)
    try:
        final = {}
        deadline = time.monotonic() + 300
        for volume_id in accepted:
            while True:
                state = api.status(volume_id)
                if state in ('available', 'error') or \
                        time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            final[state] = final.get(state, 0) + 1
        in_use = quota_usage(api, project)
        volume_creates.delete_all(api, accepted)
        in_use_after = usage_after_deletes(api, project)
    finally:
        api.connection.close()
    answers = {}
    for code in codes:
        answers[code] = answers.get(code, 0) + 1
    return ('%d creates at once, quota %d volumes: answers %s; ended %s; '
            'quota in_use %d, after deleting them %s' % (
                clients, limit, volume_creates.statuses(answers),
                volume_creates.statuses(final) or 'none', in_use,
                in_use_after))


def cinder_capacity(cinder):
    api = cinder.api()
    try:
        _, body = api.request('GET', '/scheduler-stats/get_pools?detail=True')
    finally:
        api.connection.close()
    return ', '.join('%s total %s GiB, free %s GiB' % (
        pool['name'], pool['capabilities'].get('total_capacity_gb'),
        pool['capabilities'].get('free_capacity_gb'))
        for pool in body['pools'])


def print_table(levels, rounds):
    print('\n%7s | %28s | %28s | %6s | %s' % (
        'clients', 'volapi: /s   p50   p95 CPUms', 'Cinder: /s   p50   p95 CPUms',
        'ratio', 'per round'))
    for clients, runs in levels.items():
        def med(target, key):
            return statistics.median(r[target][key] for r in runs)
        ratios = ['%.1f' % (r['volapi']['rate'] / r['cinder']['rate'])
                  if r['cinder']['rate'] else 'inf' for r in runs]
        rate_c = med('cinder', 'rate')
        print('%7d | %10.1f %5.0f %5.0f %5.1f | %10.1f %5.0f %5.0f %5.1f | '
              '%5.1fx | %s' % (
                  clients, med('volapi', 'rate'), med('volapi', 'p50'),
                  med('volapi', 'p95'), med('volapi', 'cpu_ms'),
                  rate_c, med('cinder', 'p50'), med('cinder', 'p95'),
                  med('cinder', 'cpu_ms'),
                  med('volapi', 'rate') / rate_c if rate_c else float('inf'),
                  ' / '.join(ratios)))
    print('(/s: volumes made available per second; p50/p95: create-to-'
          'available ms; CPU ms: server processes per volume; medians of '
          '%d round%s)' % (rounds, '' if rounds == 1 else 's'))
    print('\n%7s | %14s | %14s | %6s' % (
        'clients', 'volapi p50 ms', 'Cinder p50 ms', 'ratio'))
    for clients, runs in levels.items():
        mine, theirs = (statistics.median(r[target]['launch_p50']
                                          for r in runs)
                        for target in ('volapi', 'cinder'))
        print('%7d | %14.1f | %14.1f | %5.1fx' % (
            clients, mine, theirs, theirs / mine if mine else float('inf')))
    print('(from the volume row written by the API to the volume made '
          'available by the worker: created_at to launched_at in each '
          'database, without the client\'s polling)')


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    pg_url, rabbit_url = scratch.servers_from_environment()
    client_counts = [int(c) for c in args.clients.split(',')]
    with volapi_services.VolapiServices(
            args.state_dir, pg_url, rabbit_url, keep=args.keep) as volapi, \
            cinder_reference.CinderReference(
                args.state_dir, pg_url, rabbit_url, keep=args.keep) as cinder:
        targets = (('volapi', volapi), ('cinder', cinder))
        print('volapi %s (volapi-api x%d workers, volapi-volume, file driver) '
              'and Cinder %s (cinder-api x%d workers, cinder-scheduler, '
              'cinder-volume, fake driver); %d CPUs, load %s' % (
                  volapi.url, volapi.workers, cinder.version, cinder.workers,
                  os.cpu_count(),
                  ' '.join(open('/proc/loadavg').read().split()[:3])))
        for _, service in targets:
            set_quota(service, 'bench', ENOUGH, ENOUGH)
        levels = {clients: [] for clients in client_counts}
        for round_ in range(1, args.rounds + 1):
            for clients in client_counts:
                run = {}
                for name, service in targets:
                    run[name] = level = measure(service, args, clients)
                    print('round %d %-6s %2d clients: %6.1f/s p50 %6.0f '
                          'p95 %6.0f ms, row to available p50 %6.1f ms, '
                          'CPU %5.1f ms/volume  [%s]' % (
                              round_, name, clients, level['rate'],
                              level['p50'], level['p95'],
                              level['launch_p50'], level['cpu_ms'],
                              volume_creates.statuses(level['counts'])))
                    sys.stdout.flush()
                levels[clients].append(run)
        print_table(levels, args.rounds)
        if args.quota_clients:
            print('\nQuota at its limit:')
        for name, service in targets if args.quota_clients else ():
            print('  %-6s %s' % (name, at_the_limit(
                service, args.quota_limit, args.quota_clients)))
            sys.stdout.flush()
        print('Capacity: Cinder\'s fake driver reports %s; volapi\'s pool '
              'is a DISK_GB inventory of %d GiB, claimed per volume.'
              % (cinder_capacity(cinder), volapi.pool_gib))
    return 0


if __name__ == '__main__':
    sys.exit(main())
