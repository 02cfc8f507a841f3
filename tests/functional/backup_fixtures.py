"""What the backup tests share: requests as a client makes them, and the
check that the project's quota usage agrees with its rows after each
test."""
from db import models
from objects import quota
from objects import type_quota
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf

ADMIN = api_fixtures.ADMIN


class BackupTestCase(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        # Last cleanup to run first: after the test, before its fixtures go.
        self.addCleanup(self.assert_usage_agrees)

    def assert_usage_agrees(self):
        self.assertEqual([], quota.drift(self.context))
        self.assertEqual([], type_quota.drift(self.context))

    def create(self, status=202, headers=None, **spec):
        return self.app.post_json('/v3/backups', {'backup': spec},
                                  headers=headers or self.owner,
                                  status=status)

    def backup_id(self, volume_id, **spec):
        return self.create(volume_id=volume_id, **spec).json['backup']['id']

    def show(self, backup_id, headers=None, status=200):
        response = self.app.get('/v3/backups/%s' % backup_id,
                                headers=headers or self.owner, status=status)
        return response.json['backup'] if status == 200 else response

    def action(self, backup_id, body, headers=ADMIN, status=202):
        return self.app.post_json('/v3/backups/%s/action' % backup_id, body,
                                  headers=headers, status=status)

    def reset(self, backup_id, status):
        self.action(backup_id, {'os-reset_status': {'status': status}})

    def restore(self, backup_id, status=202, headers=None, **spec):
        return self.app.post_json('/v3/backups/%s/restore' % backup_id,
                                  {'restore': spec},
                                  headers=headers or self.owner,
                                  status=status)

    def backup_row(self, backup_id):
        return rows.row(self.context, models.Backup, backup_id)

    def volume_row(self, volume_id):
        return rows.row(self.context, models.Volume, volume_id)

    def usage(self, project=None):
        used = quota.usage(self.context, project or self.project)
        return used['backups'], used['backup_gigabytes']


class WorkerBackupTestCase(BackupTestCase):
    """Backups made, restored and deleted by a real worker (file driver,
    in-process transport)."""

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(vwf.RunningWorker(self))
        self.driver = self.worker.worker.driver

    def get(self, path):
        return self.app.get(path, headers=self.owner, expect_errors=True)

    def volume_status(self, volume_id):
        return self.get('/v3/volumes/%s' % volume_id).json['volume'][
            'status']

    def available_volume(self, size=1):
        volume_id = self.create_volume(size=size).json['volume']['id']
        vwf.wait_for(lambda: self.volume_status(volume_id),
                     lambda s: s == 'available')
        return volume_id

    def wait_backup(self, backup_id, status):
        return vwf.wait_for(lambda: self.show(backup_id),
                            lambda b: b['status'] == status)

    def write(self, volume_id, data, offset=0):
        volume = self.volume_row(volume_id)
        with open(volume['provider_location'], 'r+b') as f:
            f.seek(offset)
            f.write(data)

    def read(self, volume_id, length):
        with open(self.volume_row(volume_id)['provider_location'],
                  'rb') as f:
            return f.read(length)
