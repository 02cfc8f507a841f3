"""Test fixtures: the database under test, chosen by one setting.

``VOLAPI_TEST_DB_URL`` names the backend:

- unset or ``sqlite://``: an SQLite file per test process, in a directory
  removed when the process exits;
- a PostgreSQL or MySQL/MariaDB URL: a server on which the tests may create
  databases; each test process gets its own database, ``<name>_<pid>``.

Each test process makes its schema once, with ``volapi-manage db sync`` (the
only way a schema is made), and every test starts from empty tables.

Why not ``oslo_db.sqlalchemy.test_fixtures``: its provisioning finds servers
through the ``openstack_citest`` account (or ``OS_TEST_DBAPI_ADMIN_CONNECTION``)
and runs a test on every backend it can reach, skipping the others, while a
lane here is one URL that must be reachable (a lane that silently skips is
no lane); and it makes the schema with ``metadata.create_all`` or a
per-test hook, where volapi's tests want the operator's own command, once
per process. The per-process database it would give is the one below.
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

import fixtures
import sqlalchemy as sa

from db import models
from db import session

URL_VARIABLE = 'VOLAPI_TEST_DB_URL'
RABBIT_VARIABLE = 'VOLAPI_TEST_RABBIT_URL'
_prepared = {}


def backend_url():
    return os.environ.get(URL_VARIABLE) or 'sqlite://'


def rabbit_url():
    """A RabbitMQ transport URL (rabbit://...) or None when not configured."""
    return os.environ.get(RABBIT_VARIABLE) or None


def backend_name():
    return sa.engine.make_url(backend_url()).get_backend_name()


def process_dir():
    """A directory of this test process's own (its SQLite database, its
    state_path), removed when the process exits: a run leaves nothing in
    the temporary directory."""
    if 'dir' not in _prepared:
        _prepared['dir'] = tempfile.mkdtemp(prefix='volapi-test-')
        atexit.register(shutil.rmtree, _prepared['dir'], True)
    return _prepared['dir']


def _per_process_url(url):
    parsed = sa.engine.make_url(url)
    backend = parsed.get_backend_name()
    if backend == 'sqlite':
        return 'sqlite:///' + os.path.join(process_dir(), 'volapi.sqlite')
    name = '%s_%d' % (parsed.database or 'volapi', os.getpid())
    quote = '"' if backend == 'postgresql' else '`'
    drop = 'DROP DATABASE IF EXISTS %s%s%s' % (quote, name, quote)
    admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')
    with admin.connect() as conn:
        conn.exec_driver_sql(drop)
        extra = ' CHARACTER SET utf8mb4' if backend == 'mysql' else ''
        conn.exec_driver_sql('CREATE DATABASE %s%s%s%s'
                             % (quote, name, quote, extra))
    admin.dispose()
    atexit.register(_drop_database, parsed, drop)
    return parsed.set(database=name).render_as_string(hide_password=False)


def _drop_database(admin_url, drop):
    """At exit: the process's database, so that runs on a long-lived
    server leave none behind. Best effort: the server may be gone (the
    end of a CI run) and a killed process drops nothing."""
    session.dispose()
    admin = sa.create_engine(admin_url, isolation_level='AUTOCOMMIT')
    try:
        with admin.connect() as conn:
            if admin.dialect.name == 'postgresql':
                drop += ' WITH (FORCE)'  # a connection left open elsewhere
            else:
                # Never wait long on a transaction left open elsewhere.
                conn.exec_driver_sql('SET SESSION lock_wait_timeout = 5')
            conn.exec_driver_sql(drop)
    except sa.exc.SQLAlchemyError:
        pass
    finally:
        admin.dispose()


def write_config(path, options):
    """Write a volapi configuration file: ``options`` is {group: {name:
    value}}, None for [DEFAULT]; '%' is escaped as oslo.config wants."""
    with open(path, 'w') as f:
        for group, values in options.items():
            f.write('[%s]\n' % (group or 'DEFAULT'))
            for name, value in values.items():
                f.write('%s = %s\n' % (name, str(value).replace('%', '%%')))


def database_config(path, url, state_path=None):
    """write_config() of a file naming database ``url`` and a state_path
    (default: this process's directory)."""
    write_config(path, {
        None: {'state_path': state_path or process_dir()},
        'database': {'connection': url}})


def _db_sync(url):
    """Make the schema the way an operator does: volapi-manage db sync."""
    fd, conf = tempfile.mkstemp(suffix='.conf')
    os.close(fd)
    database_config(conf, url)
    try:
        subprocess.run([sys.executable, '-m', 'volapi.cmd.manage',
                        '--config-file', conf, 'db', 'sync'],
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as e:
        raise RuntimeError('db sync failed:\n%s%s' % (e.stdout, e.stderr))
    finally:
        os.unlink(conf)


def prepared_url():
    """This process's database URL, its schema made on first use."""
    if 'url' not in _prepared:
        url = _per_process_url(backend_url())
        _db_sync(url)
        _prepared['url'] = url
        session.configure(url)
    return _prepared['url']


def statements_sent(call):
    """The statements ``call()`` sends through volapi's engine, BEGIN and
    COMMIT aside."""
    seen = []

    def sent(conn, cursor, statement, *args):
        if statement.split(None, 1)[0].upper() not in ('BEGIN', 'COMMIT'):
            seen.append(statement)

    engine = session.get_engine()
    sa.event.listen(engine, 'before_cursor_execute', sent)
    try:
        call()
    finally:
        sa.event.remove(engine, 'before_cursor_execute', sent)
    return seen


def empty_tables():
    engine = session.get_engine()
    with engine.begin() as conn:
        for table in reversed(models.Base.metadata.sorted_tables):
            # MySQL/MariaDB refuse to delete a row that references itself
            # (a root resource provider is its own root): unlink first.
            self_links = {fk.parent.name: None for fk in table.foreign_keys
                          if fk.column.table is table}
            if self_links:
                conn.execute(table.update().values(**self_links))
            conn.execute(table.delete())


class SchemaAt(fixtures.Fixture):
    """The test's database downgraded to ``revision`` (to be filled as
    that schema was, then upgraded); the newest schema is back afterwards
    for the other tests of the process."""

    def __init__(self, revision):
        super().__init__()
        self.revision = revision

    def _setUp(self):
        from db import migration
        migration.downgrade(self.revision)
        self.addCleanup(migration.sync)
        self.addCleanup(session.get_engine().dispose)


class ScratchDatabase(fixtures.Fixture):
    """An empty database of its own beside this process's test database,
    dropped afterwards (``url``), for tests that make a schema themselves."""

    def __init__(self, suffix):
        super().__init__()
        self.suffix = suffix

    def _setUp(self):
        parsed = sa.engine.make_url(backend_url())
        backend = parsed.get_backend_name()
        if backend == 'sqlite':
            self.url = 'sqlite:///' + os.path.join(
                self.useFixture(fixtures.TempDir()).path, 'scratch.sqlite')
            return
        name = '%s_%s_%d' % (parsed.database or 'volapi', self.suffix,
                             os.getpid())
        quote = '"' if backend == 'postgresql' else '`'
        admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')
        self.addCleanup(admin.dispose)

        def run(statement):
            with admin.connect() as conn:
                conn.exec_driver_sql(statement % (quote, name, quote))

        run('DROP DATABASE IF EXISTS %s%s%s')
        run('CREATE DATABASE %s%s%s')
        self.addCleanup(run, 'DROP DATABASE IF EXISTS %s%s%s')
        self.url = parsed.set(database=name).render_as_string(
            hide_password=False)


class Database(fixtures.Fixture):
    """The backend under test, with empty tables."""

    def _setUp(self):
        self.url = prepared_url()
        if session._context_manager is None or str(
                session.get_engine().url) != str(sa.engine.make_url(self.url)):
            session.configure(self.url)
        self.backend = backend_name()
        empty_tables()
        from objects import quota
        from objects import type_quota
        from volapi.volume import scheduler
        quota.forget_migrated()
        type_quota.forget_seen()
        scheduler.forget_answers()
        self.engine = session.get_engine()


class Config(fixtures.Fixture):
    """volapi's CONF, parsed with no files and reset afterwards."""

    def _setUp(self):
        from volapi import conf as volapi_conf
        self.conf = volapi_conf.CONF
        self.conf([], project='volapi', default_config_files=[])
        self.addCleanup(self.conf.reset)

    def set(self, group=None, **kwargs):
        for name, value in kwargs.items():
            self.conf.set_override(name, value, group)
            self.addCleanup(self.conf.clear_override, name, group)
