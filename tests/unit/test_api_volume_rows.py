"""objects.volume_list builds Volume objects from rows without field
coercion, and shown volumes for a volume's view; they must hold what
Volume._from_row builds."""
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import exceptions
from db import models
from db import session
from objects import volume as volume_obj
from objects import volume_list
from tests import base
from volapi import context as volapi_context


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


class ShownVolumeTest(base.DatabaseTestCase):
    """get_shown holds what Volume.get_by_id reads, its metadata and its type's
    name, on the backend under test."""

    def _volume(self, type_id=None, metadata=()):
        row = dict(id=str(uuid.uuid4()), project_id='p', user_id='u',
                   host='h@b#pool', size=3, status='available',
                   attach_status='detached', bootable=True,
                   multiattach=False, deleted=False, display_name='n',
                   volume_type_id=type_id, created_at=timeutils.utcnow(),
                   updated_at=None)
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.Volume.__table__.insert().values(**row))
            for key, value in metadata:
                conn.execute(models.VolumeMetadata.__table__.insert().values(
                    volume_id=row['id'], key=key, value=value))
        return row['id']

    def assertShownAsRead(self, volume_id):
        shown = volume_list.get_shown(self.context, volume_id)
        read = volume_obj.Volume.get_by_id(self.context, volume_id)
        for name in volume_list.SHOWN_COLUMNS:
            self.assertEqual((name, getattr(read, name)),
                             (name, getattr(shown, name)))
            self.assertIs(type(getattr(read, name)),
                          type(getattr(shown, name)), name)
        return shown

    def test_with_type_and_metadata(self):
        type_id = str(uuid.uuid4())
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.VolumeType.__table__.insert().values(
                id=type_id, name='gold'))
        volume_id = self._volume(type_id, [('a', '1'), ('b', None)])
        shown = self.assertShownAsRead(volume_id)
        self.assertEqual({'a': '1', 'b': None}, shown.metadata)
        self.assertEqual('gold', shown.volume_type.name)
        self.assertIsNotNone(shown.created_at.tzinfo)
        self.assertIsNone(shown.updated_at)

    def test_without_type_or_metadata(self):
        shown = self.assertShownAsRead(self._volume())
        self.assertEqual({}, shown.metadata)
        self.assertIsNone(shown.volume_type)

    def test_another_projects_volume_is_not_found(self):
        volume_id = self._volume()
        member = volapi_context.RequestContext(user_id='u', project_id='q')
        self.assertRaises(exceptions.NotFound, volume_list.get_shown,
                          member, volume_id)
