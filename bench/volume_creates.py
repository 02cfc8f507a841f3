#!/usr/bin/env python3
"""Volume create-to-available throughput and latency of a Cinder-compatible
volume API (volapi or Cinder itself), quota enforced.

    python bench/volume_creates.py http://127.0.0.1:8776 [options]

For each client count (default 1, 8, 32) that many threads run for
--duration seconds, each with its own keep-alive connection, looping: POST
/volumes (1 GiB), poll GET /volumes/{id} every --poll seconds until it is
'available'. Prints volumes made available per second, p50, p95 and p99
of the create-to-available time, and the statuses seen ('error' counts as a
failure: the pool or the quota said no). Every volume made is deleted at
the end (waiting for each to go), so a run leaves the project as it found
it; the project's quota must allow what a level makes (e.g. ``cinder
quota-update --volumes -1 --gigabytes -1 bench``).

Authentication as bench/volume_actions.py: noauth by default, --token for
keystone.

bench/compare_creates.py runs this loop against volapi and Cinder 29.0.0
started side by side on this machine and prints both.
"""
import argparse
import statistics
import sys
import threading
import time

import volume_actions


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('url')
    p.add_argument('--project', default='bench')
    p.add_argument('--user', default='bench')
    p.add_argument('--token')
    p.add_argument('--header', action='append', default=[])
    p.add_argument('--api-version', default='3.44')
    p.add_argument('--clients', default='1,8,32')
    p.add_argument('--duration', type=float, default=10.0)
    p.add_argument('--poll', type=float, default=0.02,
                   help='seconds between two status reads of a volume')
    return p.parse_args(argv)


def client(api, args, stop, results, made):
    try:
        while not stop.is_set():
            start = time.perf_counter()
            try:
                state = create_and_wait(api, args, made)
            except OSError as e:
                # Counted, not fatal: the level goes on with the others.
                state = type(e).__name__
            results.append((state, time.perf_counter() - start))
    finally:
        api.connection.close()


def create_and_wait(api, args, made):
    """The end status of one create: 'available', 'error' or 'create
    <HTTP status>'."""
    status, body = api.connection.request(
        'POST', '/volumes', b'{"volume": {"size": 1, "name": "bench"}}',
        api.headers)
    if status != 202:
        return 'create %d' % status
    volume_id = volume_actions.json.loads(body)['volume']['id']
    made.append(volume_id)
    while True:
        state = api.status(volume_id)
        if state in ('available', 'error'):
            return state
        time.sleep(args.poll)


def run_level(args, clients):
    stop = threading.Event()
    results, made = [], []
    apis = []
    for _ in range(clients):
        apis.append(volume_actions.Api(args))
        apis[-1].connection.open()
    threads = [threading.Thread(target=client,
                                args=(api, args, stop, results, made))
               for api in apis]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(args.duration)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    latencies = sorted(t for state, t in results if state == 'available')
    counts = {}
    for state, _ in results:
        counts[state] = counts.get(state, 0) + 1
    return elapsed, latencies, counts, made


def measure(args, clients):
    """One level: {'rate': available/s, 'p50', 'p95', 'p99': ms,
    'counts': {status: n}, 'made': [volume ids]}."""
    elapsed, latencies, counts, made = run_level(args, clients)

    def ms(fraction):
        return (1000 * volume_actions.percentile(latencies, fraction)
                if latencies else 0.0)

    return {'rate': len(latencies) / elapsed,
            'p50': 1000 * statistics.median(latencies) if latencies else 0.0,
            'p95': ms(0.95), 'p99': ms(0.99), 'counts': counts,
            'made': made}


def statuses(counts):
    return ', '.join('%s: %d' % kv for kv in sorted(counts.items()))


def delete_all(api, volume_ids, timeout=600):
    """Delete the volumes and wait until each is gone."""
    for volume_id in volume_ids:
        api.request('DELETE', '/volumes/%s' % volume_id)
    deadline = time.monotonic() + timeout
    for volume_id in volume_ids:
        while api.status(volume_id) not in (None, 'deleted'):
            if time.monotonic() > deadline:
                raise RuntimeError('volume %s not deleted after %ds'
                                   % (volume_id, timeout))
            time.sleep(0.05)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    api = volume_actions.Api(args)
    print('%8s %12s %9s %9s %9s  %s' % (
        'clients', 'available/s', 'p50 ms', 'p95 ms', 'p99 ms', 'statuses'))
    for clients in [int(c) for c in args.clients.split(',')]:
        level = measure(args, clients)
        print('%8d %12.1f %9.1f %9.1f %9.1f  %s' % (
            clients, level['rate'], level['p50'], level['p95'],
            level['p99'], statuses(level['counts'])))
        sys.stdout.flush()
        delete_all(api, level['made'])


if __name__ == '__main__':
    main()
