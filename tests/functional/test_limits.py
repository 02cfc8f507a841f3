"""GET /limits: Cinder's body, the maxima of the project's quota (Cinder's
defaults, or what os-quota-sets set), and what the project uses (here
volumes from before claims: the legacy count from its live volumes and
snapshots); another project's only for an administrator, from 3.39."""
import uuid

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures

ADMIN = api_fixtures.ADMIN
MAXIMA = {'maxTotalVolumes', 'maxTotalSnapshots', 'maxTotalVolumeGigabytes',
          'maxTotalBackups', 'maxTotalBackupGigabytes'}


class LimitsTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        for size in (1, 3):
            volume = rows.volume(self.context, project_id=self.project,
                                 size=size)
        rows.snapshot(self.context, volume)  # 3 GB
        # A deleted volume counts for nothing.
        rows.insert(self.context, models.Volume, id=str(uuid.uuid4()),
                    project_id=self.project, user_id='user', size=50,
                    status='deleted', attach_status='detached',
                    bootable=False, multiattach=False, deleted=True)
        rows.volume(self.context, project_id='project-b', size=7)

    def absolute(self, path='/v3/limits', headers=None, status=200):
        response = self.app.get(path, headers=headers or self.owner,
                                status=status)
        if status != 200:
            return response
        self.assertEqual([], response.json['limits']['rate'])
        return response.json['limits']['absolute']

    def test_own_project(self):
        absolute = self.absolute()
        self.assertEqual({'maxTotalVolumes': 10, 'maxTotalSnapshots': 10,
                          'maxTotalVolumeGigabytes': 1000,
                          'maxTotalBackups': 10,
                          'maxTotalBackupGigabytes': 1000},
                         {k: v for k, v in absolute.items() if k in MAXIMA})
        self.assertEqual(
            {'totalVolumesUsed': 2, 'totalSnapshotsUsed': 1,
             'totalGigabytesUsed': 7, 'totalBackupsUsed': 0,
             'totalBackupGigabytesUsed': 0},
            {k: v for k, v in absolute.items() if k not in MAXIMA})
        self.assertEqual(absolute, self.absolute(
            '/v3/%s/limits' % self.project))

    def test_another_project_from_3_39_for_an_administrator(self):
        path = '/v3/limits?project_id=project-b'
        self.assertEqual(1, self.absolute(path, api_fixtures.caller(
            'admin', 'admin', version='3.39'))['totalVolumesUsed'])
        # Before 3.39 the parameter is ignored, as in Cinder.
        self.assertEqual(0, self.absolute(path, api_fixtures.caller(
            'admin', 'admin', version='3.38'))['totalVolumesUsed'])
        self.fault(self.absolute(path, api_fixtures.caller(
            self.project, version='3.39'), status=403), 403)
        self.assertEqual(2, self.absolute(path, api_fixtures.caller(
            self.project, version='3.38'))['totalVolumesUsed'])

    def test_maxima_follow_the_quota(self):
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'volumes': 5, 'gigabytes': 20}},
                          headers=ADMIN)
        absolute = self.absolute()
        self.assertEqual((5, 10, 20), (absolute['maxTotalVolumes'],
                                       absolute['maxTotalSnapshots'],
                                       absolute['maxTotalVolumeGigabytes']))
        # Another project keeps the defaults.
        self.assertEqual(10, self.absolute(
            '/v3/limits?project_id=project-b', api_fixtures.caller(
                'admin', 'admin', version='3.39'))['maxTotalVolumes'])
