"""A concurrent change forced in between what a request reads and what it
writes (tests.functional.interleave): the write must not act on the state
it read when that state is gone. Each test fails where the decision was
taken in Python on a read and left out of the compare-and-swap."""
import uuid

import sqlalchemy as sa

from db import models
from db import session
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import interleave
from volapi.api.v3 import types as types_api
from volapi import context as volapi_context
from volapi.volume import api as volume_api

ADMIN = api_fixtures.ADMIN


def commit_update(model, ident, **values):
    """A change of the row ``ident``, committed by a request of its own."""
    def change():
        table = model.__table__
        with session.writer.connection.using(
                volapi_context.get_admin_context()) as conn:
            conn.execute(table.update().where(table.c.id == ident)
                         .values(**values))
    return change


class MigrationCompletionTest(api_fixtures.APITestCase):
    """os-migrate_volume_completion with error rolls back the migration it
    names, never one that began since the request looked."""

    def test_a_migration_begun_meanwhile_is_not_rolled_back(self):
        named, begun = str(uuid.uuid4()), str(uuid.uuid4())
        volume = rows.volume(self.context, project_id=self.project,
                             migration_status='migrating',
                             migration_id=named, previous_status='available')
        # The migration named ends and another begins, between the read
        # and the write.
        change = self.useFixture(interleave.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, migration_id=begun,
                migration_status='migrating')))
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume.id,
            {'os-migrate_volume_completion': {'new_volume': named,
                                              'error': True}},
            headers=ADMIN, expect_errors=True)
        # Refused; or, where the two run in turn (SQLite), done first.
        self.assertIn(response.status_int, (200, 400), response.text)
        change.wait()
        row = rows.row(self.context, models.Volume, volume.id)
        self.assertEqual((begun, 'migrating'),
                         (row['migration_id'], row['migration_status']))


class DefaultTypeDeleteTest(api_fixtures.APITestCase):
    """The type ``[api] default_volume_type`` names is never deleted, even
    when it takes that name while the delete is under way."""

    def test_a_type_renamed_to_the_default_is_not_deleted(self):
        self.config.set('api', default_volume_type='gold')
        type_id = rows.volume_type(self.context, name='silver')
        self.useFixture(interleave.CommitAfterRead(
            self, types_api, '_get', commit_update(
                models.VolumeType, type_id, name='gold', live_name='gold')))
        response = self.app.delete('/v3/types/%s' % type_id, headers=ADMIN,
                                   expect_errors=True)
        self.assertEqual('Default volume type can not be deleted.',
                         self.fault(response, 400))
        self.assertFalse(rows.row(self.context, models.VolumeType,
                                  type_id)['deleted'])
