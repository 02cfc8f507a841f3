"""The models in db/models/ and the schema the migrations make agree
(oslo.db's ModelsMigrationsSync), on the backend under test."""
import sqlalchemy as sa
from oslo_db.sqlalchemy import test_migrations

from db import migration
from db import models
from tests import base
from tests import fixtures


class ModelsMigrationsSyncTest(test_migrations.ModelsMigrationsSync,
                               base.TestCase):

    def setUp(self):
        super().setUp()
        url = self.useFixture(fixtures.ScratchDatabase('sync')).url
        self.engine = sa.create_engine(url)
        self.addCleanup(self.engine.dispose)

    def get_engine(self):
        return self.engine

    def get_metadata(self):
        return models.Base.metadata

    def db_sync(self, engine):
        migration.sync(engine=engine)
