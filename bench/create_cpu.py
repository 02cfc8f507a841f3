#!/usr/bin/env python3
"""CPU per volume created, per volapi process: the API processes (their
share includes the cast to the worker) and the volume worker.

    # VOLAPI_TEST_PG_URL and VOLAPI_TEST_RABBIT_URL set, as for tools/run-tests
    PYTHONPATH=$PWD python bench/create_cpu.py [--clients 8] \\
        [--duration 15] [--rounds 3] [--state-dir DIR]

Starts volapi from this tree as bench/volapi_services.py does (volapi-api,
one volapi-volume with the file driver, PostgreSQL, RabbitMQ), then per
round runs the loop of bench/volume_creates.py (create 1 GiB, poll until
'available') for --duration seconds and prints the user+system CPU time
of each process per volume made available, and the worker's CPU per
second while idle for 10 s after the round (what the per-volume figure
holds of it shrinks as the rate grows). The volumes are deleted after
each round. On a shared machine the rate varies: compare CPU per volume,
over several rounds.
"""
import argparse
import statistics
import sys
import time

import scratch
import volapi_services
import volume_actions
import volume_creates

PROCESSES = ('volapi-api', 'volapi-volume')


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--clients', type=int, default=8)
    p.add_argument('--duration', type=float, default=15.0)
    p.add_argument('--rounds', type=int, default=3)
    p.add_argument('--idle', type=float, default=10.0,
                   help='seconds the idle worker is measured after a round')
    p.add_argument('--state-dir', default='.')
    return p.parse_args(argv)


def cpu(pids):
    return {name: volume_actions.cpu_seconds(pids[name]) for name in pids}


def one_round(services, args):
    pids = {name: services.processes.pids(name) for name in PROCESSES}
    level_args = volume_creates.parse_args([
        services.url, '--project', 'bench', '--user', 'bench',
        '--duration', str(args.duration)])
    before = cpu(pids)
    level = volume_creates.measure(level_args, args.clients)
    after = cpu(pids)
    made = len(level['made'])
    per_volume = {name: 1000 * (after[name] - before[name]) / made
                  for name in PROCESSES} if made else {}
    time.sleep(args.idle)
    idle = cpu(pids)['volapi-volume'] - after['volapi-volume']
    api = services.api()
    try:
        volume_creates.delete_all(api, level['made'])
    finally:
        api.connection.close()
    return level['rate'], per_volume, 1000 * idle / args.idle


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    pg_url, rabbit_url = scratch.servers_from_environment()
    print('%6s %12s %12s %15s %18s' % (
        'round', 'available/s', 'api ms/vol', 'volume ms/vol',
        'idle volume ms/s'))
    rounds = []
    with volapi_services.VolapiServices(args.state_dir, pg_url,
                                        rabbit_url) as services:
        api = services.api()
        try:
            api.request('PUT', '/os-quota-sets/bench', {'quota_set': {
                'volumes': 100000, 'gigabytes': 100000}})
        finally:
            api.connection.close()
        for number in range(1, args.rounds + 1):
            rate, per_volume, idle = one_round(services, args)
            rounds.append(per_volume)
            print('%6d %12.1f %12.2f %15.2f %18.2f' % (
                number, rate, per_volume.get('volapi-api', 0),
                per_volume.get('volapi-volume', 0), idle))
            sys.stdout.flush()
    if len(rounds) > 1:
        print('median %25.2f %15.2f' % tuple(
            statistics.median(r.get(name, 0) for r in rounds)
            for name in PROCESSES))


if __name__ == '__main__':
    main()
