"""The Volume object."""
import uuid

from oslo_utils import timeutils

from db import models
from objects import base
from objects import fields


@base.register
class Volume(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: cluster_name
    VERSION = '1.1'

    model = models.Volume

    fields = dict({
        'id': fields.UUIDField(),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
        'cluster_name': fields.StringField(nullable=True),
        'size': fields.IntegerField(),
        'availability_zone': fields.StringField(nullable=True),
        'status': fields.StringField(),
        'previous_status': fields.StringField(nullable=True),
        'attach_status': fields.StringField(),
        'migration_status': fields.StringField(nullable=True),
        'display_name': fields.StringField(nullable=True),
        'display_description': fields.StringField(nullable=True),
        'volume_type_id': fields.UUIDField(nullable=True),
        'source_volid': fields.UUIDField(nullable=True),
        'snapshot_id': fields.UUIDField(nullable=True),
        'bootable': fields.BooleanField(),
        'multiattach': fields.BooleanField(),
        'provider_location': fields.StringField(nullable=True),
        'replication_status': fields.StringField(nullable=True),
        'group_id': fields.UUIDField(nullable=True),
        'launched_at': fields.DateTimeField(nullable=True),
        'terminated_at': fields.DateTimeField(nullable=True),
        'consistencygroup_id': fields.UUIDField(nullable=True),
        # Not columns: loaded by objects.volume_list.load_details and
        # written by create().
        'metadata': fields.DictOfNullableStringsField(default={}),
        'volume_type': fields.ObjectField('VolumeType', nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    def create(self, guards=()):
        """Insert the volume and its metadata in one transaction.

        ``guards`` are callables run first in that transaction, e.g. the
        compare-and-swap that keeps a source snapshot or the volume type
        from being deleted while this row is inserted.
        """
        from objects import volume_list
        if not self.obj_attr_is_set('id'):
            self.id = str(uuid.uuid4())
        self.created_at = timeutils.utcnow()
        columns = {name: base._to_db_value(getattr(self, name))
                   for name in self._column_fields()
                   if self.obj_attr_is_set(name)}
        metadata = self.metadata if self.obj_attr_is_set('metadata') else {}
        volume_list.insert(self._context, columns, metadata, guards)
        # What the insert left to column defaults, the object learns too.
        for name in self._column_fields():
            if not self.obj_attr_is_set(name):
                column = self.model.__table__.c[name]
                default = column.default.arg if column.default is not None \
                    and not callable(column.default.arg) else None
                setattr(self, name, default)
        self.obj_reset_changes()
