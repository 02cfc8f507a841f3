"""What the compare-and-swap tests share: rows made and read with plain SQL,
outside the primitive under test, so a test can arrange a state and then
look at what really is in the database."""
import uuid

import sqlalchemy as sa

from db import models
from tests import base

VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__
ATTACHMENTS = models.VolumeAttachment.__table__


class CasTestCase(base.DatabaseTestCase):
    """DatabaseTestCase with helpers to make, change and read rows directly."""

    def insert(self, table, **values):
        with self.database.engine.begin() as conn:
            conn.execute(sa.insert(table).values(**values))
        return values.get('id')

    def create_volume(self, **values):
        row = dict(id=str(uuid.uuid4()), size=1, status='available',
                   attach_status='detached', bootable=False,
                   multiattach=False, deleted=False,
                   project_id='project', user_id='user')
        row.update(values)
        return self.insert(VOLUMES, **row)

    def create_snapshot(self, volume_id, **values):
        row = dict(id=str(uuid.uuid4()), volume_id=volume_id,
                   status='available', deleted=False, volume_size=1)
        row.update(values)
        return self.insert(SNAPSHOTS, **row)

    def create_attachment(self, volume_id, **values):
        row = dict(id=str(uuid.uuid4()), volume_id=volume_id,
                   attach_status='attached', deleted=False)
        row.update(values)
        return self.insert(ATTACHMENTS, **row)

    def change_row(self, table, ident, **values):
        """Change a row behind the back of whatever the test holds."""
        with self.database.engine.begin() as conn:
            conn.execute(sa.update(table).where(table.c.id == ident)
                         .values(**values))

    def read_row(self, table, ident):
        with self.database.engine.connect() as conn:
            row = conn.execute(sa.select(table).where(
                table.c.id == ident)).mappings().first()
        return dict(row) if row is not None else None

    def volume(self, ident):
        return self.read_row(VOLUMES, ident)
