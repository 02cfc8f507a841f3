"""`volapi-manage db sync` and `db version`, run as an operator runs them,
against a new empty database on the backend under test."""
import json
import os
import subprocess
import sys
import tempfile

import sqlalchemy as sa

from db import migration
from tests import base
from tests import fixtures


def _volapi_manage():
    installed = os.path.join(os.path.dirname(sys.executable), 'volapi-manage')
    return installed if os.path.exists(installed) else 'volapi-manage'


class ManageDbTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.url = self.useFixture(fixtures.ScratchDatabase('manage')).url
        fd, self.conf_file = tempfile.mkstemp(suffix='.conf')
        os.close(fd)
        fixtures.database_config(self.conf_file, self.url)
        self.addCleanup(os.unlink, self.conf_file)

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
        heads = migration.heads()
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

    def test_options_before_the_category(self):
        # oslo.config's sub-commands: the common options come first.
        self.assertEqual('None (empty database)',
                         self.manage('--debug', 'db', 'version'))

    def test_upgrade_check_wants_the_schema(self):
        def status():
            return subprocess.run(
                [sys.executable, '-m', 'volapi.cmd.status', '--config-file',
                 self.conf_file, 'upgrade', 'check', '--json'],
                capture_output=True, text=True, timeout=120)

        behind = status()
        self.assertEqual(2, behind.returncode, behind.stdout + behind.stderr)
        details = {check['check']: check['details']
                   for check in json.loads(behind.stdout)['checks']}
        self.assertIn('run "volapi-manage db sync"',
                      details['Database schema'])
        self.manage('db', 'sync')
        current = status()
        self.assertEqual(0, current.returncode, current.stdout)
        self.assertNotIn('eventlet', (current.stdout + current.stderr).lower())
