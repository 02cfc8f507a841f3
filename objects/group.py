"""The Group object: a generic volume group (Cinder's ``groups``), with the
volume types its volumes may have (``group_volume_type_mapping``).

A group's rows change only through the transition table (resource
'group', volapi.volume.transitions.table.groups): its insert with its
type mappings, its quota and the hold of its group type is ONE
transaction (volapi.volume.groups.create)."""
import sqlalchemy as sa

from db import exceptions
from db import models
from db import session
from db import writes as db_writes
from objects import base
from objects import fields
from objects import pagination

GROUPS = models.Group.__table__
MAPPING = models.GroupVolumeTypeMapping.__table__
VOLUMES = models.Volume.__table__


@base.register
class Group(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: group_snapshot_id, source_group_id
    VERSION = '1.1'

    model = models.Group

    fields = dict({
        'id': fields.UUIDField(),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'availability_zone': fields.StringField(nullable=True),
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'status': fields.StringField(),
        'group_type_id': fields.UUIDField(),
        'group_snapshot_id': fields.UUIDField(nullable=True),
        'source_group_id': fields.UUIDField(nullable=True),
        # Not a column: the ids of the mapping's rows, written by
        # insert_writes().
        'volume_type_ids': fields.ListOfStringsField(default=[]),
    }, **base.SOFT_DELETE_FIELDS)

    def insert_writes(self):
        """The inserts of the group and its volume type mappings (see the
        base's; the ``group_create`` transition's)."""
        writes = super().insert_writes()
        if self.volume_type_ids:
            writes.append(db_writes.Insert(MAPPING, [
                {'group_id': self.id, 'volume_type_id': type_id,
                 'created_at': self.created_at}
                for type_id in self.volume_type_ids], MAPPING.name))
        return writes

    @classmethod
    def get(cls, context, group_id, project_id=None):
        """The live group (of ``project_id`` unless None), with its volume
        types; NotFound otherwise."""
        scope = [] if project_id is None else [
            GROUPS.c.project_id == project_id]
        with session.reader.connection.using(context) as conn:
            row = conn.execute(sa.select(GROUPS).where(
                GROUPS.c.id == group_id, GROUPS.c.deleted == sa.false(),
                *scope)).mappings().first()
        if row is None:
            raise exceptions.NotFound(cls.model.cas_name, group_id)
        return cls._with_types(context, [row])[0]

    @classmethod
    def get_all(cls, context, project_id=None, filters=None, limit=None,
                marker=None, offset=None, sort_keys=('created_at',),
                sort_dirs=('desc',)):
        scope = [] if project_id is None else [
            GROUPS.c.project_id == project_id]
        try:
            rows = pagination.live_rows(context, GROUPS, scope, filters,
                                        limit, marker, sort_keys, sort_dirs,
                                        offset)
        except pagination.MarkerNotFound:
            raise exceptions.NotFound(cls.model.cas_name, marker) from None
        return cls._with_types(context, rows)

    @classmethod
    def _with_types(cls, context, rows):
        groups = [cls._from_row(context, row) for row in rows]
        by_group = {group.id: [] for group in groups}
        if by_group:
            with session.reader.connection.using(context) as conn:
                for group_id, type_id in conn.execute(
                        sa.select(MAPPING.c.group_id, MAPPING.c.volume_type_id)
                        .where(MAPPING.c.group_id.in_(list(by_group)))
                        .order_by(MAPPING.c.id)):
                    by_group[group_id].append(type_id)
        for group in groups:
            group.volume_type_ids = by_group[group.id]
            group.obj_reset_changes(['volume_type_ids'])
        return groups

    def volume_ids(self):
        """The ids of the group's live volumes (a read: what a swap then
        proves)."""
        with session.reader.connection.using(self._context) as conn:
            return [r[0] for r in conn.execute(
                sa.select(VOLUMES.c.id).where(
                    VOLUMES.c.group_id == self.id,
                    VOLUMES.c.deleted == sa.false())
                .order_by(VOLUMES.c.created_at, VOLUMES.c.id))]
