"""The VolumeAttachment object: one connection of a volume to a consumer.

``connector`` and ``connection_info`` hold JSON text, as their columns do;
``connector_dict()``/``connection_info_dict()`` decode it.
"""
import sqlalchemy as sa
from oslo_serialization import jsonutils
from oslo_utils import timeutils

from db import api as db_api
from db import models
from objects import base
from objects import pagination
from objects import fields


@base.register
class VolumeAttachment(base.VolapiPersistentObject,
                       base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.VolumeAttachment

    fields = dict({
        'id': fields.UUIDField(),
        'volume_id': fields.UUIDField(),
        'instance_uuid': fields.StringField(nullable=True),
        'attached_host': fields.StringField(nullable=True),
        'mountpoint': fields.StringField(nullable=True),
        'attach_mode': fields.StringField(nullable=True),
        'attach_status': fields.StringField(),
        'attach_time': fields.DateTimeField(nullable=True),
        'detach_time': fields.DateTimeField(nullable=True),
        'connector': fields.StringField(nullable=True),
        'connection_info': fields.StringField(nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    def connector_dict(self):
        return jsonutils.loads(self.connector) if self.connector else None

    def connection_info_dict(self):
        return (jsonutils.loads(self.connection_info)
                if self.connection_info else None)

    @classmethod
    def remove_all(cls, context, volume_id):
        """Soft-delete every attachment of the volume (its reset to
        'detached'), in the caller's transaction: one compare-and-swap of
        the live rows."""
        now = timeutils.utcnow()
        db_api.conditional_update(
            context, cls.model,
            {'attach_status': 'detached', 'detach_time': now,
             'deleted': True, 'deleted_at': now},
            {'volume_id': volume_id})

    @classmethod
    def get_all(cls, context, project_id=None, volume_id=None, filters=None,
                limit=None, marker=None, offset=None,
                sort_keys=('created_at',), sort_dirs=('asc',)):
        """Attachments not deleted. ``project_id`` is the project of the
        attached volume; ``filters`` maps attachment columns to values;
        keyset paging as objects.pagination does it."""
        if volume_id is not None:
            filters = dict(filters or {}, volume_id=volume_id)
        table = cls.model.__table__
        volumes = models.Volume.__table__
        scope = [] if project_id is None else [sa.exists().where(
            volumes.c.id == table.c.volume_id,
            volumes.c.project_id == project_id)]
        rows = pagination.live_rows(
            context, table, scope, filters, limit, marker, sort_keys,
            sort_dirs, offset)
        return [cls._from_row(context, row) for row in rows]
