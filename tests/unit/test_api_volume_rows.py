"""objects.volume_list builds Volume objects from rows without field
coercion; they must equal what Volume._from_row builds."""
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import models
from db import session
from objects import volume as volume_obj
from objects import volume_list
from tests import base


class VolumeFromRowTest(base.DatabaseTestCase):

    def test_same_object_as_from_row(self):
        row = dict(id=str(uuid.uuid4()), project_id='p', user_id='u',
                   size=3, status='available', attach_status='detached',
                   bootable=True, multiattach=False, deleted=False,
                   display_name='n', created_at=timeutils.utcnow(),
                   updated_at=timeutils.utcnow())
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.Volume.__table__.insert().values(**row))
        with session.reader.connection.using(self.context) as conn:
            stored = conn.execute(sa.select(models.Volume.__table__)
                                  ).mappings().one()
        fast = volume_list.volume_from_row(self.context, stored)
        slow = volume_obj.Volume._from_row(self.context, stored)
        self.assertEqual(slow.obj_to_primitive(), fast.obj_to_primitive())
        self.assertEqual(set(), fast.obj_what_changed())
        self.assertEqual(slow.created_at, fast.created_at)
        self.assertIsNotNone(fast.created_at.tzinfo)
        self.assertIs(True, fast.bootable)
        self.assertEqual(3, fast.size)
