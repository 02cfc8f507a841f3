"""What the backup tests share: requests as a client makes them, and the
check that the project's quota usage agrees with its rows after each
test."""
from db import models
from objects import quota
from objects import type_quota
from tests import volume_rows as rows
from tests.functional import api_fixtures

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
