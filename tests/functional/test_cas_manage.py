"""`volapi-manage db sync` and `db version`, run as an operator runs them,
against a new empty database on the backend under test."""
import os
import subprocess
import sys
import tempfile

import alembic.config
import alembic.script
import sqlalchemy as sa

from db import migration
from tests import base
from tests import fixtures


def _script_heads():
    config = alembic.config.Config()
    config.set_main_option('script_location', migration._SCRIPTS)
    heads = alembic.script.ScriptDirectory.from_config(config).get_heads()
    return ','.join(sorted(heads))


def _volapi_manage():
    installed = os.path.join(os.path.dirname(sys.executable), 'volapi-manage')
    return installed if os.path.exists(installed) else 'volapi-manage'


class ManageDbTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.url = self._empty_database()
        fd, self.conf_file = tempfile.mkstemp(suffix='.conf')
        os.close(fd)
        fixtures.database_config(self.conf_file, self.url)
        self.addCleanup(os.unlink, self.conf_file)

    def _empty_database(self):
        parsed = sa.engine.make_url(fixtures.backend_url())
        backend = parsed.get_backend_name()
        if backend == 'sqlite':
            path = os.path.join(tempfile.mkdtemp(), 'manage.sqlite')
            return 'sqlite:///' + path
        name = '%s_manage_%d' % (parsed.database or 'volapi', os.getpid())
        quote = '"' if backend == 'postgresql' else '`'
        admin = sa.create_engine(parsed, isolation_level='AUTOCOMMIT')
        self.addCleanup(admin.dispose)

        def run(statement):
            with admin.connect() as conn:
                conn.exec_driver_sql(statement % (quote, name, quote))

        run('DROP DATABASE IF EXISTS %s%s%s')
        run('CREATE DATABASE %s%s%s')
        self.addCleanup(run, 'DROP DATABASE IF EXISTS %s%s%s')
        return parsed.set(database=name).render_as_string(hide_password=False)

    def manage(self, *args):
        result = subprocess.run(
            [_volapi_manage(), '--config-file', self.conf_file] + list(args),
            capture_output=True, text=True, timeout=120)
        self.assertEqual(0, result.returncode,
                         'volapi-manage %s failed:\n%s%s' % (
                             ' '.join(args), result.stdout, result.stderr))
        # The answer is the last line; logging may come before it.
        return result.stdout.strip().splitlines()[-1]

    def test_version_sync_version(self):
        heads = _script_heads()
        self.assertEqual('None (empty database)', self.manage('db', 'version'))
        self.assertEqual('database is at revision %s' % heads,
                         self.manage('db', 'sync'))
        self.assertEqual(heads, self.manage('db', 'version'))
        # Every table of the models exists, made by the migrations.
        engine = sa.create_engine(self.url)
        self.addCleanup(engine.dispose)
        from db import models
        self.assertEqual(set(),
                         set(models.Base.metadata.tables)
                         - set(sa.inspect(engine).get_table_names()))
