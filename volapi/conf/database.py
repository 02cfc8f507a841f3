"""[database]: oslo.db's options, with an SQLite file under state_path as default."""
from oslo_db import options as db_options

_DEFAULT_CONNECTION = 'sqlite:///$state_path/volapi.sqlite'


def register_opts(conf):
    db_options.set_defaults(conf, connection=_DEFAULT_CONNECTION)


def list_opts():
    return [('database', db_options.database_opts)]
