"""``volapi-manage db online_data_migrations``: data fixes run while the
service is up, in batches, as often as needed (each is idempotent).

Each migration is ``fn(context, batch_size) -> (found, done)``: how many
rows of this batch needed it, and how many it fixed. Batches run until a
round fixes nothing; ``--max-count N`` runs one round of at most N rows.
A summary table follows, as nova's and Placement's command print it.

Exit status: 0 nothing (more) to do; 1 ``--max-count`` was given and rows
were migrated (run again); 2 a migration failed and nothing else could be
done; 127 bad input.
"""
import collections

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

DEFAULT_BATCH = 50


def _migrations():
    from objects.placement import consumer
    from volapi.volume import placement_audit
    # Allocations written before consumers had records (< 1.8, or
    # before the consumers table existed) get one, owned by the
    # [placement] incomplete_consumer_project_id / _user_id. Volumes and
    # snapshots from before claims get their allocations.
    return (consumer.create_incomplete_consumers,
            placement_audit.allocate_volumes,
            placement_audit.allocate_snapshots)


def _run_batch(context, max_count, out):
    """One round over every migration, at most ``max_count`` rows in all.
    Returns ({name: (found, done)}, whether one failed)."""
    results = collections.OrderedDict()
    failed = False
    ran = 0
    for migration in _migrations():
        name = migration.__name__
        try:
            found, done = migration(context, max_count - ran)
        except Exception:
            LOG.exception('Error attempting to run %s', name)
            out('Error attempting to run %s' % name)
            failed = True
            found = done = 0
        if found:
            out('%d rows matched query %s, %d migrated' % (found, name,
                                                           done))
        results[name] = (found, done)
        ran += done
        if ran >= max_count:
            break
    return results, failed


def run(context, max_count=None, out=print):
    """Run the migrations; the exit status (see the module)."""
    limited = max_count is not None
    if limited and max_count < 1:
        out('Must supply a positive value for max_count')
        return 127
    if not limited:
        max_count = DEFAULT_BATCH
        out('Running batches of %d until complete' % max_count)
    totals = collections.OrderedDict()
    failed = False
    while True:
        results, failed = _run_batch(context, max_count, out)
        ran = 0
        for name, (found, done) in results.items():
            total_found, total_done = totals.get(name, (0, 0))
            totals[name] = (total_found + found, total_done + done)
            ran += done
        if limited or not ran:
            break
    out(_table(['Migration', 'Total Found', 'Completed'],
               [(name, found, done) for name, (found, done)
                in totals.items()]))
    if failed and not (limited and ran):
        out('Some migrations failed unexpectedly. Check log for details.')
        return 2
    return 1 if (limited and ran) else 0


def _table(header, rows):
    """A plain-text table with a rule above, below and under the header."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    rule = '+' + '+'.join('-' * (w + 2) for w in widths) + '+'

    def line(row):
        return '|' + '|'.join(' %s ' % c.center(w)
                              for c, w in zip(row, widths)) + '|'

    body = [line(r) for r in cells[1:]]
    return '\n'.join([rule, line(cells[0]), rule] + body + [rule])


def command(args):
    """``volapi-manage db online_data_migrations [--max-count N]``."""
    from volapi import conf as volapi_conf
    from volapi.placement import context as placement_context
    context = placement_context.RequestContext(
        is_admin=True, roles=['admin'], config=volapi_conf.CONF)
    return run(context, args.max_count)


command.arguments = [
    (('--max-count',), {'type': int, 'metavar': '<number>',
                        'help': 'Maximum number of rows to migrate; '
                                'without it, batches run until complete'}),
]
