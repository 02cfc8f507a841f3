"""The GroupSnapshot object: a snapshot of every volume of a group, taken
in one transaction (Cinder's ``group_snapshots``); its snapshots name it
in ``snapshots.group_snapshot_id``.

Its rows change only through the transition table (resource
'group_snapshot', volapi.volume.transitions.table.group_snapshots)."""
import sqlalchemy as sa

from db import exceptions
from db import models
from db import session
from objects import base
from objects import fields
from objects import pagination

GROUP_SNAPSHOTS = models.GroupSnapshot.__table__
SNAPSHOTS = models.Snapshot.__table__


@base.register
class GroupSnapshot(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.GroupSnapshot

    fields = dict({
        'id': fields.UUIDField(),
        'group_id': fields.UUIDField(),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'name': fields.StringField(nullable=True),
        'description': fields.StringField(nullable=True),
        'status': fields.StringField(),
        'group_type_id': fields.UUIDField(),
    }, **base.SOFT_DELETE_FIELDS)

    @classmethod
    def get(cls, context, group_snapshot_id, project_id=None):
        """The live group snapshot (of ``project_id`` unless None);
        NotFound otherwise."""
        scope = [] if project_id is None else [
            GROUP_SNAPSHOTS.c.project_id == project_id]
        with session.reader.connection.using(context) as conn:
            row = conn.execute(sa.select(GROUP_SNAPSHOTS).where(
                GROUP_SNAPSHOTS.c.id == group_snapshot_id,
                GROUP_SNAPSHOTS.c.deleted == sa.false(),
                *scope)).mappings().first()
        if row is None:
            raise exceptions.NotFound(cls.model.cas_name, group_snapshot_id)
        return cls._from_row(context, row)

    @classmethod
    def get_all(cls, context, project_id=None, filters=None, limit=None,
                marker=None, offset=None, sort_keys=('created_at',),
                sort_dirs=('desc',)):
        scope = [] if project_id is None else [
            GROUP_SNAPSHOTS.c.project_id == project_id]
        try:
            rows = pagination.live_rows(context, GROUP_SNAPSHOTS, scope,
                                        filters, limit, marker, sort_keys,
                                        sort_dirs, offset)
        except pagination.MarkerNotFound:
            raise exceptions.NotFound(cls.model.cas_name, marker) from None
        return [cls._from_row(context, row) for row in rows]

    def snapshot_ids(self):
        """The ids of its live snapshots (a read: what a swap then
        proves)."""
        with session.reader.connection.using(self._context) as conn:
            return [r[0] for r in conn.execute(
                sa.select(SNAPSHOTS.c.id).where(
                    SNAPSHOTS.c.group_snapshot_id == self.id,
                    SNAPSHOTS.c.deleted == sa.false())
                .order_by(SNAPSHOTS.c.created_at, SNAPSHOTS.c.id))]
