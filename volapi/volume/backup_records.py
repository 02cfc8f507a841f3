"""Backup records (GET /backups/{id}/export_record, POST
/backups/import_record): a backup's row, as Cinder encodes it (base64 of
its fields as JSON, with the driver's ``driver_info``), to be imported
into another database that reaches the same backup store.

The export reads; the import inserts the backup 'available' with its
metadata, charges the project's ``backups`` and ``backup_gigabytes`` and,
for an incremental backup, counts it in its parent (which must be there,
available: a chain is imported parent first), in ONE transaction. Cinder
inserts the row 'creating' and lets its backup service make it available;
the file driver has nothing to check, so volapi does it at once. Cinder
also revives a deleted row of the same id; volapi refuses it, as its
driver removed that backup's data."""
import base64
import binascii
import json

from oslo_config import cfg
from oslo_db import exception as oslo_db_exc
from oslo_utils import importutils
from oslo_utils import timeutils
from oslo_utils import uuidutils
from oslo_versionedobjects import fields as ovo_fields

from db import exceptions as db_exc
import objects
from objects import metadata as metadata_rows
from volapi.volume import api as volume_api
from volapi.volume import backups
from volapi.volume import claims
from volapi.volume.transitions import engine

CONF = cfg.CONF

# Cinder's volume id of a backup whose record names none.
IMPORT_VOLUME_ID = '00000000-0000-0000-0000-000000000000'
# What a record must hold (Cinder's required import options).
REQUIRED = ('display_name', 'display_description', 'container', 'size',
            'service_metadata', 'object_count', 'id')
# Cinder's fields volapi has no use for, exported empty.
EMPTY = ('service_metadata', 'temp_volume_id', 'temp_snapshot_id',
         'encryption_key_id')
TEXT = ('display_name', 'display_description', 'container', 'host',
        'user_id', 'availability_zone', 'fail_reason')
UUIDS = ('volume_id', 'snapshot_id', 'parent_id')
MAX_TEXT = 255


def backup_service():
    """The backup service of the configured volume driver (what the
    backups it makes record as their ``service``), or None."""
    driver = importutils.import_class(CONF.volume.volume_driver)
    return getattr(driver, 'backup_service', None)


def export(context, backup_id, authorize=None):
    """{'backup_service', 'backup_url'} of an available backup."""
    backup = backups.get(context, backup_id)
    if authorize is not None:
        authorize(backup)
    if backup.status != 'available':
        raise volume_api.InvalidRequest(
            'Invalid backup: Backup status must be available and not %s.'
            % backup.status)
    configured = backup_service()
    if backup.service != configured:
        raise volume_api.InvalidRequest(
            'Invalid backup: Export record aborted, the backup service '
            'currently configured [%s] is not the backup service that was '
            'used to create this backup [%s].' % (configured,
                                                  backup.service))
    record = {name: field.to_primitive(backup, name, getattr(backup, name))
              for name, field in backup.fields.items()}
    record.update(dict.fromkeys(EMPTY),
                  metadata=objects.Backup.metadata_of(
                      context, [backup.id])[backup.id],
                  driver_info={})
    url = base64.b64encode(json.dumps(record).encode()).decode()
    return {'backup_service': backup.service, 'backup_url': url}


def _invalid_input(reason):
    return volume_api.InvalidRequest('Invalid input received: %s' % reason)


def _invalid_backup(reason):
    return volume_api.InvalidRequest('Invalid backup: %s' % reason)


def decode(backup_url):
    """The record a backup_url holds, checked field by field."""
    try:
        text = base64.b64decode(backup_url, validate=True).decode()
    except (binascii.Error, ValueError):
        raise _invalid_input("Can't decode backup record.") from None
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise _invalid_input("Can't parse backup record.")
    if 'id' not in record:
        raise _invalid_input('Provided backup record is missing an id')
    if 'size' not in record:
        raise _invalid_input('Provided backup record is missing size '
                             'attribute')
    missing = sorted(set(REQUIRED) - set(record))
    if missing:
        raise _invalid_backup(
            'Driver successfully decoded imported backup data, but there '
            'are missing fields (%s).' % ', '.join(missing))
    _check(record)
    return record


def _check(record):
    def bad(name, what):
        return _invalid_backup('the record\'s %s must be %s, not %r.'
                               % (name, what, record[name]))

    if not uuidutils.is_uuid_like(record['id']):
        raise bad('id', 'a UUID')
    for name in UUIDS:
        value = record.get(name)
        if value is not None and not uuidutils.is_uuid_like(value):
            raise bad(name, 'a UUID or null')
    for name, nullable in (('size', False), ('object_count', True)):
        value = record[name]
        if value is None and nullable:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or \
                not 0 <= value <= 2 ** 31 - 1:
            raise bad(name, 'a whole number of at least 0' +
                      (' or null' if nullable else ''))
    for name in TEXT:
        value = record.get(name)
        if value is not None and (not isinstance(value, str) or
                                  len(value) > MAX_TEXT):
            raise bad(name, 'a text of at most %d characters or null'
                      % MAX_TEXT)
    metadata = record.get('metadata')
    if metadata is not None and not (
            isinstance(metadata, dict) and all(
                isinstance(k, str) and isinstance(v, str) and
                0 < len(k) <= MAX_TEXT and len(v) <= MAX_TEXT
                for k, v in metadata.items())):
        raise bad('metadata', 'an object of texts or null')
    if record.get('data_timestamp') is not None:
        try:
            record['data_timestamp'] = ovo_fields.DateTimeField(
            ).from_primitive(None, 'data_timestamp',
                             record['data_timestamp']).replace(tzinfo=None)
        except (TypeError, ValueError, AttributeError):
            raise bad('data_timestamp', 'a time (ISO 8601) or null') \
                from None


def import_record(context, service, backup_url):
    """Insert the backup a record describes, in the caller's project;
    returns it."""
    if service != backup_service():
        raise _invalid_backup(
            'Import record failed, cannot find backup service to perform '
            'the import. Request service %s.' % service)
    record = decode(backup_url)
    backup = objects.Backup(
        context, id=record['id'], user_id=context.user_id,
        project_id=context.project_id,
        volume_id=record.get('volume_id') or IMPORT_VOLUME_ID,
        snapshot_id=record.get('snapshot_id'), host=record.get('host'),
        availability_zone=CONF.api.storage_availability_zone,
        display_name=record['display_name'],
        display_description=record['display_description'],
        container=record['container'], service=service,
        size=record['size'], object_count=record['object_count'],
        parent_id=record.get('parent_id'), num_dependent_backups=0,
        data_timestamp=record.get('data_timestamp'),
        created_at=timeutils.utcnow(), deleted=False)

    def transaction(ctx):
        existing = _existing(ctx, backup.id)
        if existing is not None:
            raise _invalid_backup('Backup already exists in database.' if
                                  not existing.deleted else
                                  'Backup %s was deleted here, and its data '
                                  'with it: its record cannot be imported '
                                  'again.' % backup.id)
        if backup.parent_id:
            _count_in_parent(ctx, backup)
        claims.claim_backup(ctx, backup)
        engine.prepare(ctx, 'backup_import', backup).execute(ctx)
        metadata_rows.BACKUP.insert(ctx, backup.id,
                                    record.get('metadata') or {})

    try:
        engine.run(context, claims.read_committed, transaction)
    except oslo_db_exc.DBDuplicateEntry:
        # Another import of the same record committed first.
        raise _invalid_backup('Backup already exists in database.') \
            from None
    return backup


def _existing(context, backup_id):
    try:
        return objects.Backup.get_by_id(context, backup_id,
                                        include_deleted=True)
    except db_exc.NotFound:
        return None


def _count_in_parent(context, backup):
    try:
        parent = objects.Backup.get_by_id(context, backup.parent_id)
    except db_exc.NotFound:
        raise _invalid_backup(
            'the record\'s parent backup %s is not in the database: import '
            'it first.' % backup.parent_id) from None
    engine.prepare(context, 'backup_parent_hold', parent,
                   reflect=False).execute(context)
