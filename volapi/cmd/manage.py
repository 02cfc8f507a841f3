"""volapi-manage: operator commands (``db sync``, ``db version`` ...).

Each sub-command is a function registered in ``COMMANDS``; other parts of
volapi add theirs (``db online_data_migrations``) in the same table.
"""
import sys

from volapi import config
from volapi.cmd import process
from volapi.placement import online_migrations


def db_sync(args):
    from db import migration
    migration.sync()
    print('database is at revision %s' % migration.version())


def db_version(args):
    from db import migration
    print(migration.version() or 'None (empty database)')


# (group, command) -> (function, help)
COMMANDS = {
    ('db', 'sync'): (db_sync, 'create or upgrade the schema'),
    ('db', 'version'): (db_version, 'print the schema revision'),
    ('db', 'online_data_migrations'): (
        online_migrations.command,
        'run the online data migrations (missing consumer records)'),
}


def _parser():
    parser = process.parser('volapi-manage', 'volapi operator commands.')
    groups = parser.add_subparsers(dest='group', required=True)
    subparsers = {}
    for (group, name), (fn, help_text) in COMMANDS.items():
        if group not in subparsers:
            subparsers[group] = groups.add_parser(group).add_subparsers(
                dest='command', required=True)
        sub = subparsers[group].add_parser(name, help=help_text)
        sub.set_defaults(func=fn)
        # A command may declare options: fn.arguments = [(flags, kwargs)].
        for flags, options in getattr(fn, 'arguments', ()):
            sub.add_argument(*flags, **options)
    return parser


def main(argv=None):
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    config.setup(args.config_file, args.config_dir, prog='volapi-manage')
    return args.func(args) or 0


if __name__ == '__main__':
    sys.exit(main())
