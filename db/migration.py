"""Schema migrations: alembic, driven programmatically (no alembic.ini).

``volapi-manage db sync`` calls :func:`sync`; it is the only way a schema is
made, tests included.
"""
import os

import alembic.command
import alembic.config
import alembic.migration
import alembic.script

from db import session

_SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'migrations')


def _scripts_config():
    config = alembic.config.Config()
    config.set_main_option('script_location', _SCRIPTS)
    return config


def _config(engine=None):
    config = _scripts_config()
    config.attributes['engine'] = engine or session.get_engine()
    return config


def sync(revision='heads', engine=None):
    """Upgrade the configured database to ``revision`` (default: newest)."""
    alembic.command.upgrade(_config(engine), revision)


def downgrade(revision, engine=None):
    """Downgrade the configured database to ``revision``: a migration's
    tests fill the schema before it."""
    alembic.command.downgrade(_config(engine), revision)


def heads():
    """The newest revision(s) of the code, as :func:`version` writes them."""
    scripts = alembic.script.ScriptDirectory.from_config(_scripts_config())
    return ','.join(sorted(scripts.get_heads()))


def version(engine=None):
    """The revision(s) the database is at, or None for an empty database."""
    engine = engine or session.get_engine()
    with engine.connect() as conn:
        heads = alembic.migration.MigrationContext.configure(
            conn).get_current_heads()
    return ','.join(sorted(heads)) if heads else None
