"""The Snapshot object: a point-in-time copy of a volume."""
import sqlalchemy as sa

from db import models
from db import session
from objects import base
from objects import fields


@base.register
class Snapshot(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.Snapshot

    fields = {
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'status': fields.StringField(),
        'progress': fields.StringField(nullable=True),
        'volume_size': fields.IntegerField(nullable=True),
        'display_name': fields.StringField(nullable=True),
        'display_description': fields.StringField(nullable=True),
        'provider_location': fields.StringField(nullable=True),
        'volume_type_id': fields.UUIDField(nullable=True),
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
        'deleted_at': fields.DateTimeField(nullable=True),
        'deleted': fields.BooleanField(default=False),
    }

    @classmethod
    def get_all(cls, context, project_id=None, volume_id=None, filters=None):
        """Snapshots not deleted, oldest first; ``project_id``/``volume_id``
        narrow the list, ``filters`` maps further columns to values."""
        table = cls.model.__table__
        query = sa.select(table).where(table.c.deleted == sa.false())
        if project_id is not None:
            query = query.where(table.c.project_id == project_id)
        if volume_id is not None:
            query = query.where(table.c.volume_id == volume_id)
        for column, value in (filters or {}).items():
            query = query.where(table.c[column] == value)
        query = query.order_by(table.c.created_at, table.c.id)
        with session.reader.connection.using(context) as conn:
            rows = conn.execute(query).mappings().all()
        return [cls._from_row(context, row) for row in rows]

    def metadata(self):
        """The snapshot's metadata as a dict."""
        table = models.SnapshotMetadata.__table__
        with session.reader.connection.using(self._context) as conn:
            rows = conn.execute(
                sa.select(table.c.key, table.c.value)
                .where(table.c.snapshot_id == self.id)).all()
        return {key: value for key, value in rows}
