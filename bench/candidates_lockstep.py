"""Two volapi trees' GET /allocation_candidates side by side, in lockstep.

On a shared machine the time of a request swings by half from one minute
to the next, so two trees benched one after the other compare the
machine's moods more than the trees. Here two processes per tree (the
tree on its PYTHONPATH, with its own bench helpers; bench/lockstep.py)
each set up as
bench/allocation_candidates_profile.py does (WSGI application called
directly, the bench's 1,000 providers on a scratch database of its own on
the server of DB-URL, default $VOLAPI_TEST_PG_URL, analyzed), then they
take turns: a batch of each query of bench/allocation_candidates.py in
each process, the order reversed each round. Prints per tree and query
the median wall and process CPU time per request, then the ratios of the
second tree to the first.

    python bench/candidates_lockstep.py TREE_A TREE_B [--db-url URL]
                                        [--rounds 10] [--batch 20]
"""
import argparse
import gc
import json
import os
import statistics
import sys
import time

import lockstep

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('trees', nargs=2)
    p.add_argument('--db-url', default=os.environ.get('VOLAPI_TEST_PG_URL'))
    p.add_argument('--rounds', type=int, default=10)
    p.add_argument('--batch', type=int, default=20)
    p.add_argument('--serve', action='store_true', help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if not args.db_url:
        p.error('no --db-url and no $VOLAPI_TEST_PG_URL')
    return args


def serve(db_url):
    """One tree's side: set up, then for each line N on stdin ask each
    query N times and answer {query: [(wall, cpu), ...]} as a JSON line."""
    # The tree (PYTHONPATH) first, for the bench's helpers too.
    sys.path.append(os.path.dirname(HERE))
    from bench import allocation_candidates as bench
    from bench import allocation_candidates_profile as profile
    from bench.cas import scratch_database
    from db import migration
    from db import session
    from volapi import conf as volapi_conf
    from volapi.placement import wsgi

    conf = volapi_conf.CONF
    conf([], project='volapi', default_config_files=[])
    scratch, drop = scratch_database(db_url)
    try:
        session.configure(scratch)
        migration.sync()
        app = wsgi.setup_app(conf)
        bench.populate(None, call=profile.caller(app))
        with session.get_engine().connect() as conn:
            # Statistics as a database in service has them (the planner's
            # choices otherwise depend on when autovacuum comes by).
            conn.exec_driver_sql('ANALYZE')
            conn.commit()
        gc.freeze()
        get = profile.getter(app)
        paths = [(name, '/allocation_candidates?' + query)
                 for name, query in bench.QUERIES]
        for _, path in paths:
            for _ in range(5):
                get(path)
        print('ready', flush=True)
        for line in sys.stdin:
            samples = {}
            for name, path in paths:
                taken = samples[name] = []
                for _ in range(int(line)):
                    wall, cpu = time.perf_counter(), time.process_time()
                    get(path)
                    taken.append((time.perf_counter() - wall,
                                  time.process_time() - cpu))
            print(json.dumps(samples), flush=True)
    finally:
        drop()


def main(argv):
    args = parse_args(argv)
    if args.serve:
        return serve(args.db_url)
    answers = lockstep.run(
        lambda side: lockstep.start(__file__, args.trees[side], '--db-url',
                                    args.db_url, cwd=args.trees[side]),
        args.rounds, args.batch)
    samples = [{}, {}]
    for side, taken in zip(samples, answers):
        for answer in taken:
            for name, times in answer.items():
                side.setdefault(name, []).extend(times)
    print('%-36s %9s %9s %9s %9s %7s %7s' % (
        'query (ms per request)', 'A wall', 'A cpu', 'B wall', 'B cpu',
        'B/A w', 'B/A c'))
    for name in samples[0]:
        medians = [[statistics.median(s[k] for s in side[name])
                    for k in range(2)] for side in samples]
        (wall_a, cpu_a), (wall_b, cpu_b) = medians
        print('%-36s %9.2f %9.2f %9.2f %9.2f %7.3f %7.3f' % (
            name, wall_a * 1000, cpu_a * 1000, wall_b * 1000, cpu_b * 1000,
            wall_b / wall_a, cpu_b / cpu_a))
    print('A: %s, B: %s; %d requests of each query each' % (
        args.trees[0], args.trees[1], 2 * args.rounds * args.batch))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
