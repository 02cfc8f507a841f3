"""The models in db/models.py and the schema the migrations make agree
(oslo.db's ModelsMigrationsSync), on the backend under test."""
import os
import tempfile

import sqlalchemy as sa
from oslo_db.sqlalchemy import test_migrations

from db import migration
from db import models
from tests import base
from tests import fixtures as volapi_fixtures


def _scratch_url():
    """A database of its own, beside this process's test database (the
    comparison needs one the migrations alone made)."""
    url = sa.engine.make_url(volapi_fixtures.backend_url())
    if url.get_backend_name() == 'sqlite':
        fd, path = tempfile.mkstemp(suffix='.sqlite')
        os.close(fd)
        return 'sqlite:///' + path, lambda: os.unlink(path)
    name = '%s_sync_%d' % (url.database or 'volapi', os.getpid())
    quote = '"' if url.get_backend_name() == 'postgresql' else '`'
    admin = sa.create_engine(url, isolation_level='AUTOCOMMIT')

    def run(statement):
        with admin.connect() as conn:
            conn.exec_driver_sql(statement % (quote, name, quote))

    run('DROP DATABASE IF EXISTS %s%s%s')
    run('CREATE DATABASE %s%s%s')

    def drop():
        run('DROP DATABASE IF EXISTS %s%s%s')
        admin.dispose()
    return url.set(database=name).render_as_string(hide_password=False), drop


class ModelsMigrationsSyncTest(test_migrations.ModelsMigrationsSync,
                               base.TestCase):

    def setUp(self):
        super().setUp()
        url, drop = _scratch_url()
        self.addCleanup(drop)
        self.engine = sa.create_engine(url)
        self.addCleanup(self.engine.dispose)

    def get_engine(self):
        return self.engine

    def get_metadata(self):
        return models.Base.metadata

    def db_sync(self, engine):
        migration.sync(engine=engine)
