"""The Backup object: a copy of a volume's data kept apart from its pool."""
import sqlalchemy as sa

from db import models
from db import session
from objects import base
from objects import fields
from objects import metadata as metadata_rows
from objects import pagination


@base.register
class Backup(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: num_dependent_backups
    VERSION = '1.1'

    model = models.Backup

    fields = dict({
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        'snapshot_id': fields.UUIDField(nullable=True),
        'restore_volume_id': fields.UUIDField(nullable=True),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'availability_zone': fields.StringField(nullable=True),
        'display_name': fields.StringField(nullable=True),
        'display_description': fields.StringField(nullable=True),
        'container': fields.StringField(nullable=True),
        'status': fields.StringField(),
        'fail_reason': fields.StringField(nullable=True),
        'service': fields.StringField(nullable=True),
        'size': fields.IntegerField(),
        'object_count': fields.IntegerField(nullable=True),
        'parent_id': fields.UUIDField(nullable=True),
        'num_dependent_backups': fields.IntegerField(),
        'data_timestamp': fields.DateTimeField(nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    @property
    def is_incremental(self):
        return self.parent_id is not None

    @property
    def has_dependent_backups(self):
        return bool(self.num_dependent_backups)

    @classmethod
    def get_all(cls, context, project_id=None, filters=None, limit=None,
                marker=None, offset=None, sort_keys=('created_at',),
                sort_dirs=('desc',)):
        """Backups not deleted; ``project_id`` narrows the list,
        ``filters`` maps further columns to values; keyset paging as
        objects.pagination does it."""
        table = cls.model.__table__
        scope = [] if project_id is None else [
            table.c.project_id == project_id]
        rows = pagination.live_rows(
            context, table, scope, filters, limit, marker, sort_keys,
            sort_dirs, offset)
        return [cls._from_row(context, row) for row in rows]

    @classmethod
    def count(cls, context, project_id=None, filters=None):
        table = cls.model.__table__
        query = sa.select(sa.func.count()).select_from(table).where(
            table.c.deleted == sa.false())
        if project_id is not None:
            query = query.where(table.c.project_id == project_id)
        for column, value in (filters or {}).items():
            query = query.where(table.c[column] == value)
        with session.reader.connection.using(context) as conn:
            return conn.execute(query).scalar()

    @classmethod
    def latest_available(cls, context, volume_id, project_id, before=None):
        """The parent of a new incremental backup of the volume, by
        Cinder's rule: the project's available backup of it with the
        latest data (older than ``before``, a snapshot's creation, for a
        backup of that snapshot); None if there is none."""
        table = cls.model.__table__
        query = sa.select(table).where(
            table.c.volume_id == volume_id,
            table.c.project_id == project_id,
            table.c.status == 'available',
            table.c.deleted == sa.false(),
            table.c.data_timestamp.is_not(None))
        if before is not None:
            query = query.where(table.c.data_timestamp < before)
        query = query.order_by(table.c.data_timestamp.desc(),
                               table.c.created_at.desc()).limit(1)
        with session.reader.connection.using(context) as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else cls._from_row(context, row)

    @staticmethod
    def metadata_of(context, backup_ids):
        """{backup id: {key: value}} for the given backups (one query)."""
        return metadata_rows.BACKUP.of(context, backup_ids)
