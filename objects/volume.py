"""The Volume object."""
from db import models
from objects import base
from objects import fields
from objects import metadata


@base.register
class Volume(base.VolapiPersistentObject, base.VolapiObjectDictCompat):
    # Version 1.0: initial version
    # Version 1.1: cluster_name
    # Version 1.2: migration_id, name_id
    # Version 1.3: backup_id
    VERSION = '1.3'

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
        'migration_id': fields.UUIDField(nullable=True),
        'name_id': fields.UUIDField(nullable=True),
        'display_name': fields.StringField(nullable=True),
        'display_description': fields.StringField(nullable=True),
        'volume_type_id': fields.UUIDField(nullable=True),
        'source_volid': fields.UUIDField(nullable=True),
        'snapshot_id': fields.UUIDField(nullable=True),
        'backup_id': fields.UUIDField(nullable=True),
        'bootable': fields.BooleanField(),
        'multiattach': fields.BooleanField(),
        'provider_location': fields.StringField(nullable=True),
        'replication_status': fields.StringField(nullable=True),
        'group_id': fields.UUIDField(nullable=True),
        'launched_at': fields.DateTimeField(nullable=True),
        'terminated_at': fields.DateTimeField(nullable=True),
        'consistencygroup_id': fields.UUIDField(nullable=True),
        # Not columns: loaded by objects.volume_list.load_details and
        # written by insert_writes().
        'metadata': fields.DictOfNullableStringsField(default={}),
        'volume_type': fields.ObjectField('VolumeType', nullable=True),
    }, **base.SOFT_DELETE_FIELDS)

    def insert_writes(self):
        """The inserts of the volume and its metadata rows (see the base's;
        the ``create`` transition's)."""
        writes = super().insert_writes()
        if not self.obj_attr_is_set('metadata'):
            self.metadata = {}
        if self.metadata:
            writes.append(metadata.VOLUME.insert_write(self.id,
                                                       self.metadata))
        self.obj_reset_changes(['metadata'])
        return writes
