"""Two volapi trees' POST /volumes side by side, in lockstep.

On a shared machine the time of a request swings by half from one minute
to the next, so two trees benched one after the other compare the
machine's moods more than the trees. Here two processes per tree (the
tree on its PYTHONPATH; bench/lockstep.py) each set up as
bench/api_volumes.py does (WSGI application called directly, a
file-driver pool, a scratch database of its own on the server
VOLAPI_BENCH_DB_URL names, else SQLite), then they take turns: a batch of
creates in each, the order reversed each round. Prints per tree the
median process CPU time and wall time per create, and the SQL statements
each sent (BEGIN and COMMIT aside), then the ratios of the second tree to
the first.

    VOLAPI_BENCH_DB_URL=... python bench/create_lockstep.py TREE_A TREE_B \\
        [--rounds 20] [--batch 25]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import lockstep

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('trees', nargs=2)
    p.add_argument('--rounds', type=int, default=20)
    p.add_argument('--batch', type=int, default=25)
    p.add_argument('--serve', action='store_true', help=argparse.SUPPRESS)
    return p.parse_args(argv)


def serve():
    """One tree's side: set up, then for each line N on stdin make N
    creates and answer their (cpu, wall, statements) as a JSON line."""
    import sqlalchemy as sa

    import api_volumes
    from db import session

    workdir = tempfile.mkdtemp(prefix='volapi-bench-')
    url = os.environ.get('VOLAPI_BENCH_DB_URL')
    drop = None
    if url:
        url, drop = api_volumes.scratch_database(url)
    try:
        application = api_volumes.set_up(
            workdir, url or 'sqlite:///%s/bench.sqlite' % workdir)
        sent = []
        sa.event.listen(session.get_engine(), 'before_cursor_execute',
                        lambda *args: sent.append(1))
        body = {'volume': {'size': 1, 'name': 'x'}}
        print('ready', flush=True)
        for line in sys.stdin:
            samples = []
            for _ in range(int(line)):
                del sent[:]
                cpu, wall = time.process_time(), time.perf_counter()
                status, payload = api_volumes.call(
                    application, 'POST', '/v3/volumes', body)
                samples.append((time.process_time() - cpu,
                                time.perf_counter() - wall, len(sent)))
                assert status == 202, (status, payload)
            print(json.dumps(samples), flush=True)
    finally:
        if drop is not None:
            drop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv):
    args = parse_args(argv)
    if args.serve:
        return serve()
    answers = lockstep.run(
        lambda side: lockstep.start(__file__, args.trees[side], cwd=HERE),
        args.rounds, args.batch)
    samples = [[s for answer in side for s in answer] for side in answers]
    print('%-40s %9s %9s %11s' % ('tree', 'cpu ms', 'wall ms',
                                  'statements'))
    medians = []
    for tree, taken in zip(args.trees, samples):
        cpu, wall, sent = (statistics.median(s[k] for s in taken)
                           for k in range(3))
        medians.append((cpu, wall))
        print('%-40s %9.3f %9.3f %11g' % (tree, cpu * 1000, wall * 1000,
                                          sent))
    print('second/first: cpu %.3f, wall %.3f (%d creates each)' % (
        medians[1][0] / medians[0][0], medians[1][1] / medians[0][1],
        len(samples[0])))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
