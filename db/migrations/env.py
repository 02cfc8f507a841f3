"""alembic environment: runs on the engine db.migration hands over."""
import contextlib

from alembic import context

from db import models

config = context.config


@contextlib.contextmanager
def _sqlite_foreign_keys_deferred(connection):
    """On SQLite, batch mode copies a table, drops it and renames the copy,
    which fails while other tables' rows refer to it and foreign keys are
    enforced. They are turned off for the migration (the pragma only takes
    effect outside a transaction, so on the driver's connection before the
    first statement) and checked once it has committed."""
    if connection.dialect.name != 'sqlite':
        yield
        return
    driver = connection.connection.driver_connection
    enforced = driver.execute('PRAGMA foreign_keys').fetchone()[0]
    driver.execute('PRAGMA foreign_keys = OFF')
    try:
        yield
        broken = driver.execute('PRAGMA foreign_key_check').fetchall()
        if broken:
            raise RuntimeError('migration broke foreign keys: %s' % broken)
    finally:
        driver.execute('PRAGMA foreign_keys = %s'
                       % ('ON' if enforced else 'OFF'))


def run_migrations_online():
    engine = config.attributes['engine']
    with engine.connect() as connection, \
            _sqlite_foreign_keys_deferred(connection):
        context.configure(connection=connection,
                          target_metadata=models.Base.metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations_online()
