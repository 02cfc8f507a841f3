"""User messages (Cinder's ``messages``): what a user is told about an
asynchronous failure, e.g. a volume that no pool had room for. Written in
the transaction of the state change they explain."""
import datetime
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import models
from db import session

MESSAGES = models.Message.__table__
# Cinder's [DEFAULT] message_ttl: 30 days.
TTL = datetime.timedelta(seconds=2592000)

# Cinder's message_field: (id, words). Resource types:
VOLUME = 'VOLUME'
VOLUME_SNAPSHOT = 'VOLUME_SNAPSHOT'
VOLUME_BACKUP = 'VOLUME_BACKUP'
# Actions:
SCHEDULE_ALLOCATE_VOLUME = ('001', 'schedule allocate volume')
EXTEND_VOLUME = ('007', 'extend volume')
CREATE_VOLUME_FROM_BACKEND = ('008', 'create volume from backend storage')
SNAPSHOT_CREATE = ('009', 'create snapshot')
SNAPSHOT_DELETE = ('010', 'delete snapshot')
BACKUP_CREATE = ('013', 'create backup')
BACKUP_DELETE = ('014', 'delete backup')
BACKUP_RESTORE = ('015', 'restore backup')
# Details:
NO_BACKEND_AVAILABLE = ('003',
                        'Could not find any available weighted backend.')
DRIVER_FAILED_EXTEND = ('010', 'Volume Driver failed to extend volume.')
DRIVER_FAILED_CREATE = ('012', 'Driver failed to create the volume.')
SNAPSHOT_CREATE_ERROR = ('013', 'Snapshot failed to create.')
SNAPSHOT_DELETE_ERROR = ('016', 'Snapshot failed to delete.')
BACKUP_CREATE_DRIVER_ERROR = ('020', 'Backup driver failed to create '
                                     'backup.')
BACKUP_DELETE_DRIVER_ERROR = ('025', 'Backup driver failed to delete '
                                     'backup.')
BACKUP_RESTORE_ERROR = ('026', 'Backup driver failed to restore backup.')

_ACTIONS = dict((SCHEDULE_ALLOCATE_VOLUME, EXTEND_VOLUME,
                 CREATE_VOLUME_FROM_BACKEND, SNAPSHOT_CREATE,
                 SNAPSHOT_DELETE, BACKUP_CREATE, BACKUP_DELETE,
                 BACKUP_RESTORE))
_DETAILS = dict((NO_BACKEND_AVAILABLE, DRIVER_FAILED_EXTEND,
                 DRIVER_FAILED_CREATE, SNAPSHOT_CREATE_ERROR,
                 SNAPSHOT_DELETE_ERROR, BACKUP_CREATE_DRIVER_ERROR,
                 BACKUP_DELETE_DRIVER_ERROR, BACKUP_RESTORE_ERROR))


def event_id(resource_type, action, detail):
    return 'VOLUME_%s_%s_%s' % (resource_type, action[0], detail[0])


def user_message(action_id, detail_id):
    return '%s:%s' % (_ACTIONS.get(action_id, action_id),
                      _DETAILS.get(detail_id, detail_id))


def record(context, project_id, resource_type, resource_uuid, action,
           detail, level='ERROR'):
    """In the caller's transaction: a message for ``project_id``."""
    now = timeutils.utcnow()
    with session.writer.connection.using(context) as conn:
        conn.execute(MESSAGES.insert().values(
            id=str(uuid.uuid4()), project_id=project_id,
            request_id=getattr(context, 'request_id', None),
            resource_type=resource_type, resource_uuid=resource_uuid,
            event_id=event_id(resource_type, action, detail),
            message_level=level, action_id=action[0], detail_id=detail[0],
            expires_at=now + TTL, created_at=now, deleted=False))


def _visible(context, project_id):
    query = sa.select(MESSAGES).where(MESSAGES.c.deleted == sa.false())
    if project_id is not None:
        query = query.where(MESSAGES.c.project_id == project_id)
    return query


def get_all(context, project_id=None, limit=None):
    """Live messages, newest first (``project_id`` None: all projects)."""
    query = _visible(context, project_id).order_by(
        MESSAGES.c.created_at.desc(), MESSAGES.c.id)
    if limit:
        query = query.limit(limit)
    with session.reader.connection.using(context) as conn:
        return conn.execute(query).mappings().all()


def get(context, message_id, project_id=None):
    with session.reader.connection.using(context) as conn:
        return conn.execute(_visible(context, project_id).where(
            MESSAGES.c.id == message_id)).mappings().first()


def delete(context, message_id, project_id=None):
    """Soft-delete one message: one compare-and-swap of the live row
    (``project_id``'s, if given); False if there is none to delete."""
    expected = {'id': message_id}
    if project_id is not None:
        expected['project_id'] = project_id
    now = timeutils.utcnow()
    return db_api.conditional_update(
        context, models.Message,
        {'deleted': True, 'deleted_at': now, 'updated_at': now}, expected)
