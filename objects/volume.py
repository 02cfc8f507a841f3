"""The Volume object."""
from db import models
from objects import base
from objects import fields


@base.register
class Volume(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    VERSION = '1.0'

    model = models.Volume

    fields = {
        'id': fields.UUIDField(),
        'user_id': fields.StringField(nullable=True),
        'project_id': fields.StringField(nullable=True),
        'host': fields.StringField(nullable=True),
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
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
        'deleted_at': fields.DateTimeField(nullable=True),
        'deleted': fields.BooleanField(default=False),
    }
