#!/usr/bin/env python3
"""Summaries for bench/compare_cinder.sh and bench/compare_placement.sh.

    compare_summary.py volume LOG       # LOG: the runs of volume_actions.py
    compare_summary.py placement LOG    # LOG: the runs of allocations.py
    compare_summary.py server-cpu --server-pid PID -- COMMAND ...

A LOG holds runs, each after a header line ``=== round N TARGET HH:MM:SS
load ...`` (the first TARGET named is the subject, volapi; the second is
the baseline, the OpenStack service). The summary gives, per client count,
the median over rounds of each target's throughput and server CPU time per
request, the ratio of the medians (subject / baseline for the throughput,
baseline / subject for the CPU time, so both read "volapi is N times
better") and the paired ratio of each round.

``server-cpu`` runs COMMAND (bench/allocations.py, which measures no
server CPU itself) and passes its output through, adding to each result
row the CPU time the gunicorn master PID and its workers used since the
previous output line: allocations.py prints a line right before each
measurement and the row right after it.
"""
import argparse
import collections
import re
import statistics
import subprocess
import sys
import time

import volume_actions

HEADER = re.compile(r'^=== round (\d+) (\S+) ')
SERVER_CPU = re.compile(r'\| server cpu ([\d.]+) s')


def parse_runs(path, parse_line):
    """{target: [run, ...]} in order of appearance; a run is a dict that
    ``parse_line(run, line)`` fills from the lines under its header."""
    runs = collections.OrderedDict()
    run = None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            match = HEADER.match(line)
            if match:
                run = {'round': int(match.group(1)), 'rows': {}}
                runs.setdefault(match.group(2), []).append(run)
            elif line.startswith('=== '):
                run = None
            elif run is not None:
                parse_line(run, line)
    if len(runs) != 2:
        sys.exit('%s: expected runs of two targets, found %s'
                 % (path, list(runs) or 'none'))
    return runs


def parse_volume_line(run, line):
    # clients req/s p50 p99 cpu-ms client-ms statuses [reconnects:N]
    fields = line.split()
    if len(fields) < 7 or not fields[0].isdigit():
        return
    try:
        rate, cpu = float(fields[1]), float(fields[4])
    except ValueError:
        return
    statuses = dict(s.split(':', 1) for s in fields[6:] if ':' in s)
    run['rows'][int(fields[0])] = {
        'rate': rate, 'cpu': cpu,
        'odd': {k: v for k, v in statuses.items()
                if k not in ('202', 'reconnects')}}


def parse_placement_line(run, line):
    if line.startswith('contention:'):
        run['contention'] = True
        return
    fields = line.split()
    if len(fields) >= 2 and fields[0].startswith('http') and \
            fields[1] in ('OK', 'VIOLATED:'):
        run['invariant'] = ' '.join(fields[1:])
        return
    # URL clients ok claims/s p50 p99 409 other client-ms codes |server cpu
    cpu = SERVER_CPU.search(line)
    if len(fields) < 10 or not fields[0].startswith('http') or not cpu:
        return
    ok, conflicts, other = int(fields[2]), int(fields[6]), int(fields[7])
    key = 'contention' if run.get('contention') else int(fields[1])
    run['rows'][key] = {
        'rate': float(fields[3]),
        'cpu': float(cpu.group(1)) * 1000 / max(1, ok),
        '409': conflicts,
        'odd': {'other': other} if other else {}}


def _median(runs, key, field):
    values = [run['rows'][key][field] for run in runs if key in run['rows']]
    return statistics.median(values) if values else float('nan')


def _ratio(a, b):
    return a / b if b else float('nan')


def _paired(subject_runs, baseline_runs, key, field, invert=False):
    """The ratio of each round where both targets measured ``key``."""
    baseline = {run['round']: run for run in baseline_runs}
    ratios = []
    for run in subject_runs:
        other = baseline.get(run['round'])
        if other and key in run['rows'] and key in other['rows']:
            a, b = run['rows'][key][field], other['rows'][key][field]
            ratios.append(_ratio(b, a) if invert else _ratio(a, b))
    return ' '.join('%.1f' % r for r in ratios) or '-'


def summarize(runs, unit, per, extra_columns=()):
    """The table of medians and ratios; ``extra_columns``: (title,
    function(target runs, key) -> text) for each target."""
    (subject, subject_runs), (baseline, baseline_runs) = runs.items()
    keys = []
    for run in subject_runs + baseline_runs:
        keys += [k for k in run['rows'] if k not in keys]
    rounds = max(len(subject_runs), len(baseline_runs))
    print('\nmedian of %d round(s): %s = %s / %s %s; cpu ratio = %s / %s '
          'server CPU ms per %s' % (rounds, 'ratio', subject, baseline, unit,
                                    baseline, subject, per))
    columns = (['clients', '%s %s' % (subject, unit),
                '%s %s' % (baseline, unit), 'ratio',
                '%s cpu ms' % subject, '%s cpu ms' % baseline, 'cpu ratio']
               + ['%s %s' % (target, title) for title, _ in extra_columns
                  for target in (subject, baseline)]
               + ['paired ratios', 'paired cpu ratios'])
    rows = []
    for key in keys:
        rate_s, rate_b = (_median(subject_runs, key, 'rate'),
                          _median(baseline_runs, key, 'rate'))
        cpu_s, cpu_b = (_median(subject_runs, key, 'cpu'),
                        _median(baseline_runs, key, 'cpu'))
        rows.append([str(key), '%.1f' % rate_s, '%.1f' % rate_b,
                     '%.1fx' % _ratio(rate_s, rate_b), '%.2f' % cpu_s,
                     '%.2f' % cpu_b, '%.1fx' % _ratio(cpu_b, cpu_s)]
                    + [function(target_runs, key)
                       for _, function in extra_columns
                       for target_runs in (subject_runs, baseline_runs)]
                    + [_paired(subject_runs, baseline_runs, key, 'rate'),
                       _paired(subject_runs, baseline_runs, key, 'cpu',
                               invert=True)])
    widths = [max(len(row[i]) for row in rows + [columns])
              for i in range(len(columns))]
    for row in [columns] + rows:
        print('  '.join(cell.ljust(width)
                        for cell, width in zip(row, widths)).rstrip())
    for target, target_runs in runs.items():
        for run in target_runs:
            for key, row in run['rows'].items():
                if row['odd']:
                    print('round %d %s at %s: %s' % (
                        run['round'], target, key, ' '.join(
                            '%s:%s' % kv for kv in sorted(
                                row['odd'].items()))))
    missing = [(target, run['round']) for target, target_runs in runs.items()
               for run in target_runs if set(run['rows']) != set(keys)]
    for target, round_ in missing:
        print('round %d %s: some measurements missing' % (round_, target))
    return 1 if missing else 0


def volume(args):
    runs = parse_runs(args.log, parse_volume_line)
    status = summarize(runs, 'req/s', 'request')
    if any(row['odd'] for target_runs in runs.values()
           for run in target_runs for row in run['rows'].values()):
        print('(statuses other than 202 above: those runs did not only '
              'reserve/unreserve)')
    return status


def placement(args):
    runs = parse_runs(args.log, parse_placement_line)

    def conflicts(target_runs, key):
        return '%d' % _median(target_runs, key, '409')

    status = summarize(runs, 'claims/s', 'successful claim',
                       [('409s', conflicts)])
    print('\ninvariant (sum of allocations == usage <= capacity):')
    for target, target_runs in runs.items():
        for run in target_runs:
            result = run.get('invariant', 'not checked (the run failed)')
            print('round %d %-10s %s' % (run['round'], target, result))
            if not result.startswith('OK'):
                status = 1
    return status


def server_cpu(args):
    """Pass COMMAND's output through; each result row of allocations.py
    gets the server CPU seconds since the previous line."""
    pid = args.server_pid

    def cpu_now():
        for _ in range(3):
            try:
                return volume_actions.cpu_seconds(
                    volume_actions.children([pid]))
            except FileNotFoundError:   # a worker exited meanwhile
                time.sleep(0.05)
        return volume_actions.cpu_seconds([pid])

    process = subprocess.Popen(args.command, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    before = cpu_now()
    for line in process.stdout:
        now = cpu_now()
        line = line.rstrip('\n')
        fields = line.split()
        if (len(fields) >= 10 and fields[0].startswith('http')
                and fields[1].isdigit() and fields[2].isdigit()):
            ok = int(fields[2])
            line += '  | server cpu %.3f s, %.2f ms/claim' % (
                now - before, (now - before) * 1000 / max(1, ok))
        print(line, flush=True)
        before = now
    return process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    commands = parser.add_subparsers(dest='what', required=True)
    for name, function in (('volume', volume), ('placement', placement)):
        sub = commands.add_parser(name)
        sub.add_argument('log')
        sub.set_defaults(function=function)
    sub = commands.add_parser('server-cpu')
    sub.add_argument('--server-pid', type=int, required=True)
    sub.add_argument('command', nargs=argparse.REMAINDER)
    sub.set_defaults(function=server_cpu)
    args = parser.parse_args()
    if args.what == 'server-cpu':
        if args.command[:1] == ['--']:
            args.command = args.command[1:]
        if not args.command:
            parser.error('server-cpu needs a COMMAND')
    return args.function(args)


if __name__ == '__main__':
    sys.exit(main())
