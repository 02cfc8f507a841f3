import uuid

from db import api as db_api
from db import models
import objects
from tests import base


class TestSchema(base.DatabaseTestCase):
    def test_volume_round_trip(self):
        volume = objects.Volume(self.context, id=str(uuid.uuid4()), size=1,
                                status='available', attach_status='detached',
                                bootable=False, multiattach=False)
        from db import session
        import sqlalchemy as sa
        with session.writer.connection.using(self.context) as conn:
            conn.execute(sa.insert(models.Volume.__table__).values(
                id=volume.id, size=1, status='available',
                attach_status='detached', bootable=False, multiattach=False,
                deleted=False))
        loaded = objects.Volume.get_by_id(self.context, volume.id)
        self.assertTrue(loaded.conditional_update({'status': 'attaching'}))
        self.assertEqual('attaching', loaded.status)
        self.assertFalse(db_api.conditional_update(
            self.context, models.Volume, {'status': 'x'},
            {'id': volume.id, 'status': 'available'}))
