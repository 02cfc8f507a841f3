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

