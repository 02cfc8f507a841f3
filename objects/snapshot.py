"""The Snapshot object: a point-in-time copy of a volume."""
import sqlalchemy as sa

from db import api as db_api
from db import models
from db import session
from objects import base
from objects import pagination
from objects import fields
from objects import metadata as snapshot_metadata


@base.register
class Snapshot(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: group_snapshot_id
    VERSION = '1.1'

    model = models.Snapshot

    fields = dict({
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
        'group_snapshot_id': fields.UUIDField(nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    @classmethod
    def get_all(cls, context, project_id=None, volume_id=None, filters=None,
                limit=None, marker=None, offset=None,
                sort_keys=('created_at',), sort_dirs=('desc',)):
        """Snapshots not deleted; ``project_id``/``volume_id`` narrow the
        list, ``filters`` maps further columns to values; keyset paging as
        objects.pagination does it."""
        if volume_id is not None:
            filters = dict(filters or {}, volume_id=volume_id)
        table = cls.model.__table__
        scope = [] if project_id is None else [
            table.c.project_id == project_id]
        rows = pagination.live_rows(
            context, table, scope, filters, limit, marker, sort_keys,
            sort_dirs, offset)
        return [cls._from_row(context, row) for row in rows]

    @classmethod
    def get_all_of_held_volume(cls, context, volume_id):
        """The live snapshots of volume ``volume_id``, read in the
        transaction whose compare-and-swap has just taken the volume, as
        that swap saw them: those made since the transaction's first read
        too (db.api.as_swaps_see). Newest first."""
        table = cls.model.__table__
        query = sa.select(table).where(
            table.c.volume_id == volume_id,
            table.c.deleted == sa.false()).order_by(
                table.c.created_at.desc(), table.c.id)
        with session.writer.connection.using(context) as conn:
            rows = conn.execute(db_api.as_swaps_see(conn, query)) \
                .mappings().all()
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

    @staticmethod
    def metadata_of(context, snapshot_ids):
        """{snapshot id: {key: value}} for the given snapshots (one query)."""
        return snapshot_metadata.SNAPSHOT.of(context, snapshot_ids)
