"""Backup records: GET /backups/{id}/export_record and POST
/backups/import_record (admin), Cinder's wire format; an import inserts
the backup available with its quota (and counts it in its parent) in one
transaction; every bad record is a 400 naming the problem."""
import base64
import json

import sqlalchemy as sa

from db import models
from db import session
import objects
from objects import quota
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import backup_fixtures
from volapi.volume import claims
from volapi.volume.transitions import engine

ADMIN = api_fixtures.ADMIN
SERVICE = 'volapi.volume.drivers.file'


def encoded(record):
    return base64.b64encode(json.dumps(record).encode()).decode()


def lose(context, backup_id):
    """The backup's rows gone as in a database restored from before it:
    its row, its metadata, its share of the quota, its count in its
    parent."""
    backup = objects.Backup.get_by_id(context, backup_id)

    def forget(ctx):
        claims.release_backup(ctx, backup)
        if backup.parent_id:
            engine.prepare(ctx, 'backup_child_deleted',
                           objects.Backup.get_by_id(
                               ctx, backup.parent_id)).execute(ctx)
        with session.writer.connection.using(ctx) as conn:
            for model, column in ((models.BackupMetadata, 'backup_id'),
                                  (models.Backup, 'id')):
                table = model.__table__
                conn.execute(sa.delete(table).where(
                    table.c[column] == backup_id))

    engine.run(context, forget)


class RecordTestCase(backup_fixtures.BackupTestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project,
                                  size=2)
        self.owner = api_fixtures.caller(self.project, version='3.43')

    def available(self, **spec):
        """An available backup as a worker leaves it (no worker here)."""
        backup_id = self.backup_id(self.volume.id, **spec)
        self.reset(backup_id, 'available')
        rows.update(self.context, models.Backup, backup_id, service=SERVICE,
                    object_count=1)
        rows.update(self.context, models.Volume, self.volume.id,
                    status='available')
        return backup_id

    def export(self, backup_id, status=200, headers=ADMIN):
        response = self.app.get('/v3/backups/%s/export_record' % backup_id,
                                headers=headers, status=status)
        return response.json['backup-record'] if status == 200 \
            else response

    def import_(self, body, status=201, headers=ADMIN):
        return self.app.post_json('/v3/backups/import_record', body,
                                  headers=headers, status=status)

    def import_url(self, url, status=201, service=SERVICE):
        return self.import_({'backup-record': {'backup_service': service,
                                               'backup_url': url}},
                            status=status)

    def lose(self, backup_id):
        lose(self.context, backup_id)


class ExportImportTest(RecordTestCase):

    def test_round_trip(self):
        backup_id = self.available(name='kept', description='d',
                                   container='c',
                                   metadata={'k': 'v'})
        record = self.export(backup_id)
        self.assertEqual(SERVICE, record['backup_service'])
        fields = json.loads(base64.b64decode(record['backup_url']))
        self.assertEqual((backup_id, 2, 'kept', 'c', None, {'k': 'v'}, {}),
                         (fields['id'], fields['size'],
                          fields['display_name'], fields['container'],
                          fields['parent_id'], fields['metadata'],
                          fields['driver_info']))
        self.lose(backup_id)
        body = self.import_url(record['backup_url']).json['backup']
        self.assertEqual({'id', 'name', 'links'}, set(body))
        self.assertEqual((backup_id, 'kept'), (body['id'], body['name']))
        shown = self.show(backup_id, headers=ADMIN)
        self.assertEqual(('available', 2, 'd', self.volume.id, 1),
                         (shown['status'], shown['size'],
                          shown['description'], shown['volume_id'],
                          shown['object_count']))
        row = self.backup_row(backup_id)
        self.assertEqual(('admin', SERVICE), (row['project_id'],
                                              row['service']))
        self.assertEqual({'k': 'v'}, objects.Backup.metadata_of(
            self.context, [backup_id])[backup_id])
        # The importer's project holds it now.
        used = quota.usage(self.context, 'admin')
        self.assertEqual((1, 2), (used['backups'],
                                  used['backup_gigabytes']))
        self.assertEqual((0, 0), self.usage())

    def test_an_incremental_is_counted_in_its_parent(self):
        parent = self.available()
        child = self.available(incremental=True)
        record = self.export(child)
        self.lose(child)
        self.assertFalse(self.show(parent)['has_dependent_backups'])
        self.import_url(record['backup_url'])
        self.assertEqual(parent, self.backup_row(child)['parent_id'])
        self.assertTrue(self.show(parent)['has_dependent_backups'])

    def test_export_refusals(self):
        backup_id = self.backup_id(self.volume.id)
        self.assertEqual(
            'Invalid backup: Backup status must be available and not '
            'creating.', self.fault(self.export(backup_id, status=400), 400))
        self.reset(backup_id, 'available')
        self.assertEqual(
            'Invalid backup: Export record aborted, the backup service '
            'currently configured [%s] is not the backup service that was '
            'used to create this backup [None].' % SERVICE,
            self.fault(self.export(backup_id, status=400), 400))
        self.fault(self.export(backup_id, status=403, headers=self.owner),
                   403)
        self.fault(self.export('f' * 8, status=404), 404)


class ImportRefusalTest(RecordTestCase):

    def setUp(self):
        super().setUp()
        self.backup_id_ = self.available()
        self.record = json.loads(base64.b64decode(
            self.export(self.backup_id_)['backup_url']))

    def refused(self, record=None, url=None, service=SERVICE):
        response = self.import_url(url or encoded(record), status=400,
                                   service=service)
        return self.fault(response, 400)

    def with_(self, **changes):
        return dict(self.record, **changes)

    def test_the_record_is_there_already(self):
        self.assertEqual('Invalid backup: Backup already exists in '
                         'database.', self.refused(self.record))

    def test_a_deleted_backup_is_not_imported_again(self):
        self.app.delete('/v3/backups/%s' % self.backup_id_,
                        headers=self.owner, status=202)
        engine.apply(self.context, 'backup_delete_done',
                     objects.Backup.get_by_id(self.context, self.backup_id_))
        self.assertIn('was deleted here', self.refused(self.record))

    def test_undecodable(self):
        self.assertEqual("Invalid input received: Can't decode backup "
                         "record.", self.refused(url='%%%not base64'))
        self.assertEqual("Invalid input received: Can't parse backup "
                         "record.", self.refused(url=base64.b64encode(
                             b'{not json').decode()))
        self.assertEqual("Invalid input received: Can't parse backup "
                         "record.", self.refused(['a list']))
        self.assertEqual("Invalid input received: Can't decode backup "
                         "record.", self.refused(url=base64.b64encode(
                             b'\xff\xfe').decode()))

    def test_missing_fields(self):
        self.lose(self.backup_id_)
        record = dict(self.record)
        del record['id']
        self.assertEqual('Invalid input received: Provided backup record '
                         'is missing an id', self.refused(record))
        record = dict(self.record)
        del record['size']
        self.assertEqual('Invalid input received: Provided backup record '
                         'is missing size attribute', self.refused(record))
        record = dict(self.record)
        del record['container'], record['object_count']
        self.assertEqual(
            'Invalid backup: Driver successfully decoded imported backup '
            'data, but there are missing fields (container, object_count).',
            self.refused(record))

    def test_bad_values(self):
        self.lose(self.backup_id_)
        for changes, name in (({'id': 'x'}, 'id'), ({'id': 7}, 'id'),
                              ({'size': -1}, 'size'),
                              ({'size': 'big'}, 'size'),
                              ({'size': True}, 'size'),
                              ({'size': 2 ** 40}, 'size'),
                              ({'object_count': 1.5}, 'object_count'),
                              ({'display_name': 'n' * 256}, 'display_name'),
                              ({'container': {}}, 'container'),
                              ({'volume_id': 'v'}, 'volume_id'),
                              ({'parent_id': 3}, 'parent_id'),
                              ({'metadata': {'k': 1}}, 'metadata'),
                              ({'metadata': []}, 'metadata'),
                              ({'data_timestamp': 'soon'},
                               'data_timestamp')):
            message = self.refused(self.with_(**changes))
            self.assertIn("Invalid backup: the record's %s must be" % name,
                          message)
        self.assertEqual(0, rows.count(self.context, models.Backup))

    def test_unknown_service_or_parent(self):
        self.lose(self.backup_id_)
        self.assertEqual(
            'Invalid backup: Import record failed, cannot find backup '
            'service to perform the import. Request service other.',
            self.refused(self.record, service='other'))
        missing = '11111111-2222-3333-4444-555555555555'
        self.assertEqual(
            "Invalid backup: the record's parent backup %s is not in the "
            "database: import it first." % missing,
            self.refused(self.with_(parent_id=missing)))
        self.assertEqual(0, rows.count(self.context, models.Backup))

    def test_bodies(self):
        for body in ({}, {'backup-record': None}, {'backup-record': {}},
                     {'backup-record': {'backup_service': SERVICE}},
                     {'backup-record': {'backup_service': SERVICE,
                                        'backup_url': ''}},
                     {'backup-record': {'backup_service': SERVICE,
                                        'backup_url': 5}},
                     {'backup-record': {'backup_service': SERVICE,
                                        'backup_url': 'x', 'more': 1}},
                     [], 'text'):
            self.fault(self.import_(body, status=400), 400)
        self.fault(self.import_({'backup-record': {
            'backup_service': SERVICE, 'backup_url': 'x'}},
            headers=self.owner, status=403), 403)
        self.fault(self.app.get('/v3/backups/import_record', headers=ADMIN,
                                status=405), 405)
