"""volapi-manage: operator commands (``db sync``, ``db version`` ...).

Each sub-command is a function registered in ``COMMANDS``; other parts of
volapi add theirs (``db online_data_migrations``) in the same table. The
command line is oslo.config's (a ``SubCommandOpt``), so the options every
volapi command takes (``--config-file``, ``--debug`` ...) come before the
category: ``volapi-manage --debug db version``.
"""
import sys

from oslo_config import cfg

from db import connectivity
from volapi import config
from volapi.placement import online_migrations


def db_sync(args):
    from db import migration
    migration.sync()
    print('database is at revision %s' % migration.version())


def db_version(args):
    from db import migration
    print(migration.version() or 'None (empty database)')


def _placement_audit(args):
    from volapi.volume import placement_audit
    return placement_audit.command(args)


_placement_audit.arguments = [
    (('--fix',), {'action': 'store_true', 'help': 'repair what is found'})]


def _placement_reshape(args):
    from volapi.volume import reshape
    return reshape.command(args)


_placement_reshape.arguments = [
    (('--backend',), {'required': True, 'metavar': 'HOST@BACKEND',
                      'help': 'the root provider of the backend to reshape '
                              '(cluster@backend for a cluster)'})]


def _service_list(args):
    from volapi.volume import service_commands
    return service_commands.list_services(args)


def _service_remove(args):
    from volapi.volume import service_commands
    return service_commands.remove_service(args)


# Not 'binary' and 'host': the parsed arguments share a namespace with the
# configuration's options, which have a 'host'.
_service_remove.arguments = [
    (('service_binary',), {'metavar': 'BINARY',
                           'help': 'e.g. volapi-volume'}),
    (('service_host',), {'metavar': 'HOST', 'help': 'e.g. host@backend'})]


# (category, command) -> (function, help)
COMMANDS = {
    ('db', 'sync'): (db_sync, 'create or upgrade the schema'),
    ('db', 'version'): (db_version, 'print the schema revision'),
    ('db', 'online_data_migrations'): (
        online_migrations.command,
        'run the online data migrations (missing consumer records, '
        'allocations of volumes and snapshots from before claims)'),
    ('placement', 'audit'): (
        _placement_audit,
        'compare allocations with volumes and snapshots; --fix repairs'),
    ('placement', 'reshape'): (
        _placement_reshape,
        'move the inventories and allocations of a backend whose pools '
        'changed to where its data is (workers stopped)'),
    ('service', 'list'): (
        _service_list, 'the services, up or down, enabled or disabled'),
    ('service', 'remove'): (
        _service_remove,
        'remove a service that is down for good (e.g. a retired host)'),
}


def _add_command_parsers(subparsers):
    commands = {}
    for (category, name), (fn, help_text) in COMMANDS.items():
        if category not in commands:
            commands[category] = subparsers.add_parser(
                category).add_subparsers(dest='command', required=True)
        sub = commands[category].add_parser(name, help=help_text)
        sub.set_defaults(func=fn)
        # A command may declare options: fn.arguments = [(flags, kwargs)].
        for flags, options in getattr(fn, 'arguments', ()):
            sub.add_argument(*flags, **options)


CATEGORY = cfg.SubCommandOpt('category', title='Command categories',
                             handler=_add_command_parsers)


# Exit status of a command that could not reach the database.
UNREACHABLE = 1


def main(argv=None):
    config.CONF.register_cli_opt(CATEGORY)
    conf = config.setup(prog='volapi-manage',
                        args=sys.argv[1:] if argv is None else argv)
    try:
        # The chosen command's function and its own options.
        return conf.category.func(conf.category) or 0
    except Exception as exc:
        if not connectivity.is_connection_error(exc):
            raise
        # An outage, not a bug: one line that says so, no traceback.
        reason = (str(getattr(exc, 'orig', None) or exc).splitlines() or
                  [type(exc).__name__])[0]
        print('volapi-manage: cannot reach the database of [database] '
              'connection: %s' % reason, file=sys.stderr)
        return UNREACHABLE


if __name__ == '__main__':
    sys.exit(main())
