"""Rows in the states the state-machine tests start from, inserted directly
(the API would need a worker to get there), and what the tests read back."""
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import models
from db import session
import objects
from volapi.volume.transitions import table

HOST = 'worker-1@file#file'


def insert(context, model, **values):
    with session.writer.connection.using(context) as conn:
        conn.execute(sa.insert(model.__table__).values(**values))


def volume_values(status='available', project_id='project', **values):
    """A volume row's columns (only those every schema version has, for
    tests that insert it under an older one)."""
    row = dict(id=str(uuid.uuid4()), project_id=project_id, user_id='user',
               size=1, status=status, attach_status='detached', host=HOST,
               bootable=False, multiattach=False, deleted=False,
               created_at=timeutils.utcnow())
    row.update(values)
    return row


def volume(context, status='available', project_id='project', **values):
    row = volume_values(status, project_id, **values)
    insert(context, models.Volume, **row)
    return objects.Volume.get_by_id(context, row['id'])


def snapshot(context, volume_obj, status='available', **values):
    row = dict(id=str(uuid.uuid4()), volume_id=volume_obj.id,
               project_id=volume_obj.project_id, user_id='user',
               status=status, volume_size=volume_obj.size, deleted=False,
               created_at=timeutils.utcnow())
    row.update(values)
    insert(context, models.Snapshot, **row)
    return objects.Snapshot.get_by_id(context, row['id'])


def backup(context, volume_obj, status='available', **values):
    row = dict(id=str(uuid.uuid4()), volume_id=volume_obj.id,
               project_id=volume_obj.project_id, user_id='user',
               status=status, size=volume_obj.size, host=volume_obj.host,
               deleted=False, created_at=timeutils.utcnow())
    row.update(values)
    insert(context, models.Backup, **row)
    return objects.Backup.get_by_id(context, row['id'])


def attachment(context, volume_obj, attach_status='attached', **values):
    row = dict(id=str(uuid.uuid4()), volume_id=volume_obj.id,
               instance_uuid=str(uuid.uuid4()), attach_status=attach_status,
               deleted=False, created_at=timeutils.utcnow())
    row.update(values)
    insert(context, models.VolumeAttachment, **row)
    return objects.VolumeAttachment.get_by_id(context, row['id'])


def volume_type(context, multiattach=False, name=None):
    type_id = str(uuid.uuid4())
    insert(context, models.VolumeType, id=type_id,
           name=name or 'type-%s' % type_id[:8], is_public=True,
           deleted=False, created_at=timeutils.utcnow())
    if multiattach:
        insert(context, models.VolumeTypeExtraSpec, volume_type_id=type_id,
               key='multiattach', value='<is> True')
    return type_id


def admin_metadata(context, volume_obj, key, value):
    insert(context, models.VolumeAdminMetadata, volume_id=volume_obj.id,
           key=key, value=value)


def admin_metadata_of(context, volume_id):
    table = models.VolumeAdminMetadata.__table__
    with session.reader.connection.using(context) as conn:
        return dict(conn.execute(sa.select(table.c.key, table.c.value).where(
            table.c.volume_id == volume_id)).all())


def update(context, model, ident, **values):
    """Set columns of a row directly: a state the API has no way to."""
    table = model.__table__
    with session.writer.connection.using(context) as conn:
        conn.execute(sa.update(table).where(table.c.id == ident)
                     .values(**values))


def row(context, model, ident):
    """The row as a dict (deleted ones too), or None."""
    table = model.__table__
    with session.reader.connection.using(context) as conn:
        found = conn.execute(sa.select(table).where(
            table.c.id == ident)).mappings().first()
    return dict(found) if found is not None else None


def worker_status(context, resource, resource_id):
    """The status of the resource's workers row, or None without one."""
    workers = models.Worker.__table__
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(workers.c.status).where(
            workers.c.resource_type == table.WORKER_TYPES[resource],
            workers.c.resource_id == resource_id)).scalar()


def count(context, model, **where):
    table = model.__table__
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table)
                            .where(*[table.c[k] == v
                                     for k, v in where.items()])).scalar()
