#!/usr/bin/env python3
"""Throughput and latency of os-reserve/os-unreserve on a Cinder-compatible
volume API (volapi or Cinder itself).

    python bench/volume_actions.py http://127.0.0.1:8776 [options]

Creates one volume per client of the largest level (or one shared volume
with --shared), waits until they are available, then for each client count
(default 1, 8, 32) runs that many threads for --duration seconds, each with
its own keep-alive connection (http.client), looping reserve then
unreserve on its volume. Prints requests/s, p50 and p99 latency, the bench
client's own CPU time per request (so that a reader sees what the client
took from a server on the same machine) and the status codes seen, with
the count of requests sent again after the server dropped an idle
connection; with --server-pids, also the server processes' CPU time per
request (read from /proc, so only for a server on this machine). Deletes
its volumes at the end.

--volume-id uses existing 'available' volumes instead (clients share them
round-robin) and leaves them available at the end: for an API with no
volume service to bring a new volume to 'available' (e.g. a bare
cinder-api, whose volume rows are inserted with SQL).

Authentication: noauth by default (``X-Auth-Token: <user>:<project>``);
--token gives a keystone token instead; --header adds any header.
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import sys
import threading
import time

import keepalive_client

ACTIONS = ({'os-reserve': None}, {'os-unreserve': None})
# The request bodies of the hot loop, encoded once.
ACTION_BODIES = tuple(json.dumps(action).encode() for action in ACTIONS)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('url', help='API root, e.g. http://127.0.0.1:8776')
    p.add_argument('--project', default='bench',
                   help='project id (noauth token and URL path)')
    p.add_argument('--user', default='bench', help='noauth user id')
    p.add_argument('--token', help='X-Auth-Token to send (keystone); '
                   'default: noauth "<user>:<project>"')
    p.add_argument('--header', action='append', default=[],
                   metavar='NAME:VALUE', help='extra header (repeatable)')
    p.add_argument('--api-version', default='3.44',
                   help='OpenStack-API-Version volume microversion')
    p.add_argument('--clients', default='1,8,32',
                   help='comma-separated client counts (default 1,8,32)')
    p.add_argument('--duration', type=float, default=5.0,
                   help='seconds per client count (default 5)')
    p.add_argument('--shared', action='store_true',
                   help='all clients hammer one volume (contention)')
    p.add_argument('--server-pids', default='',
                   help='comma-separated PIDs of the server processes, to '
                   'report their CPU time per request')
    p.add_argument('--volume-id', action='append', default=[],
                   metavar='ID[,ID...]', help='use these existing available '
                   'volumes instead of creating (repeatable); they are not '
                   'deleted')
    p.add_argument('--timeout', type=float, default=120,
                   help='seconds to wait for volumes to become available')
    return p.parse_args(argv)


class Api:
    """The volume API at ``args.url``; its own connection serves the set-up
    and clean-up, each client thread of a measurement opens another."""

    def __init__(self, args):
        self.base = '%s/v3/%s' % (args.url.rstrip('/'), args.project)
        self.headers = {'X-Auth-Token': args.token or '%s:%s' % (
                            args.user, args.project),
                        'OpenStack-API-Version':
                            'volume %s' % args.api_version,
                        'Content-Type': 'application/json'}
        for header in args.header:
            name, _, value = header.partition(':')
            self.headers[name.strip()] = value.strip()
        self.connection = self.connect()

    def connect(self):
        return keepalive_client.Connection(self.base)

    def request(self, method, path, body=None):
        """(status, decoded JSON body or None), on the set-up connection."""
        status, content = self.connection.request(
            method, path, None if body is None else json.dumps(body).encode(),
            self.headers)
        if status >= 400 and status != 404:
            raise RuntimeError('%s %s%s: %d %s' % (
                method, self.base, path, status, content[:500].decode(
                    errors='replace')))
        return status, json.loads(content) if content else None

    def create_volume(self):
        _, body = self.request('POST', '/volumes',
                               {'volume': {'size': 1, 'name': 'bench'}})
        return body['volume']['id']

    def status(self, volume_id):
        status, body = self.request('GET', '/volumes/%s' % volume_id)
        return None if status == 404 else body['volume']['status']

    def wait(self, volume_ids, wanted, timeout):
        deadline = time.monotonic() + timeout
        pending = set(volume_ids)
        while pending:
            for volume_id in list(pending):
                status = self.status(volume_id)
                if status == wanted:
                    pending.discard(volume_id)
                elif status in ('error', 'error_deleting'):
                    raise RuntimeError('volume %s went %s'
                                       % (volume_id, status))
            if pending and time.monotonic() > deadline:
                raise RuntimeError('volumes not %s after %ss: %s'
                                   % (wanted, timeout, sorted(pending)))
            if pending:
                time.sleep(0.1)


def cpu_seconds(pids):
    """User+system CPU time of the processes and their reaped children."""
    total = 0
    tick = os.sysconf('SC_CLK_TCK')
    for pid in pids:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        # utime, stime, cutime, cstime (fields 14-17 of stat).
        total += sum(int(v) for v in fields[11:15]) / tick
    return total


def children(pids):
    """The PIDs and their direct children (gunicorn master -> workers)."""
    found = list(pids)
    for pid in pids:
        path = '/proc/%d/task/%d/children' % (pid, pid)
        if os.path.exists(path):
            with open(path) as f:
                found += [int(p) for p in f.read().split()]
    return found


def run_level(api, volume_ids, clients, duration):
    """(latencies, statuses, reconnects, elapsed seconds, client CPU
    seconds) of ``clients`` threads looping reserve/unreserve."""
    stop = threading.Event()
    latencies, statuses = [], {}
    reconnects = []
    lock = threading.Lock()

    def client(index):
        connection = api.connect()
        volume_id = volume_ids[index % len(volume_ids)]
        path = '/volumes/%s/action' % volume_id
        headers = api.headers
        mine, seen = [], {}
        turn = 0
        while not stop.is_set():
            start = time.perf_counter()
            status, _ = connection.request('POST', path,
                                           ACTION_BODIES[turn % 2], headers)
            mine.append(time.perf_counter() - start)
            seen[status] = seen.get(status, 0) + 1
            turn += 1
        if turn % 2:  # leave the volume available
            connection.request('POST', path, ACTION_BODIES[1], headers)
        connection.close()
        with lock:
            latencies.extend(mine)
            reconnects.append(connection.reconnects)
            for code, count in seen.items():
                statuses[code] = statuses.get(code, 0) + count

    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        cpu_started = time.process_time()
        started = time.perf_counter()
        futures = [pool.submit(client, i) for i in range(clients)]
        time.sleep(duration)
        stop.set()
        for future in futures:
            future.result()
        elapsed = time.perf_counter() - started
        client_cpu = time.process_time() - cpu_started
    return latencies, statuses, sum(reconnects), elapsed, client_cpu


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    levels = [int(c) for c in args.clients.split(',') if c]
    pids = children([int(p) for p in args.server_pids.split(',') if p])
    api = Api(args)
    given = [v for arg in args.volume_id for v in arg.split(',') if v]
    if given:
        volume_ids = given[:1] if args.shared else given
        print('using %d existing volume(s) at %s' % (len(volume_ids),
                                                     api.base))
    else:
        count = 1 if args.shared else max(levels)
        print('creating %d volume(s) at %s ...' % (count, api.base))
        volume_ids = [api.create_volume() for _ in range(count)]
    try:
        api.wait(volume_ids, 'available', args.timeout)
        print('%-8s %10s %9s %9s %9s %9s  %s' % (
            'clients', 'req/s', 'p50 ms', 'p99 ms',
            'cpu ms' if pids else '', 'client ms', 'statuses'))
        for clients in levels:
            cpu_before = cpu_seconds(pids) if pids else None
            latencies, statuses, reconnects, elapsed, client_cpu = \
                run_level(api, volume_ids, clients, args.duration)
            requests_made = max(1, len(latencies))
            cpu = ('%9.2f' % ((cpu_seconds(pids) - cpu_before) * 1000
                              / requests_made) if pids else '')
            print('%-8d %10.1f %9.2f %9.2f %9s %9.2f  %s%s' % (
                clients, len(latencies) / elapsed,
                statistics.median(latencies) * 1000,
                percentile(latencies, 0.99) * 1000, cpu,
                client_cpu * 1000 / requests_made,
                ' '.join('%s:%d' % item for item in sorted(statuses.items())),
                ' reconnects:%d' % reconnects if reconnects else ''))
    finally:
        if not given:
            print('deleting %d volume(s) ...' % len(volume_ids))
            for volume_id in volume_ids:
                api.connection.request(
                    'POST', '/volumes/%s/action' % volume_id,
                    ACTION_BODIES[1], api.headers)
                api.connection.request('DELETE', '/volumes/%s' % volume_id,
                                       None, api.headers)
            api.wait(volume_ids, None, args.timeout)
    return 0


if __name__ == '__main__':
    sys.exit(main())
