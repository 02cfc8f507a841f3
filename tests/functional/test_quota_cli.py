"""The quota flows of the ``cinder`` CLI and python-cinderclient against
volapi over HTTP, with a worker in this process: quota-update, creates
until the quota says no (Cinder's 413 message), quota-show, quota-usage,
quota-defaults, quota-delete, absolute-limits."""
from cinderclient import exceptions as cinder_exc

from tests import fixtures as volapi_fixtures
from tests.functional import cinder_cli
from tests.functional import placement_invariant as invariant
from tests.functional import test_actions_cli as cli_tests
from tests.functional import volume_worker_fixture as vwf


class QuotaCLITest(cli_tests.CinderClientTestCase):

    def setUp(self):
        if volapi_fixtures.backend_name() != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only; test_quota covers the others')
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))

    def cinder(self, *args, user='user-a', project='project-a',
               check=True):
        return cinder_cli.run(self, self.endpoint, *args, user=user,
                              project=project, version='3.44', check=check)

    def admin(self, *args):
        return self.cinder(*args, user='admin', project='admin')

    def test_create_until_the_quota_says_no(self):
        self.admin('quota-update', '--volumes', '2', 'project-a')
        shown = self.admin('quota-show', 'project-a').stdout
        self.assertRegex(shown, r'\|\s*volumes\s*\|\s*2\s*\|')
        self.assertRegex(shown, r'\|\s*gigabytes\s*\|\s*1000\s*\|')
        for _ in range(2):
            self.cinder('create', '1')
        refused = self.cinder('create', '1', check=False)
        self.assertEqual(1, refused.returncode)
        self.assertIn("Maximum number of volumes allowed (2) exceeded for "
                      "quota 'volumes'. (HTTP 413)", refused.stderr)
        usage = self.admin('quota-usage', 'project-a').stdout
        self.assertRegex(usage, r'\|\s*volumes\s*\|\s*2\s*\|\s*0\s*\|'
                                r'\s*2\s*\|')
        self.assertRegex(usage, r'\|\s*gigabytes\s*\|\s*2\s*\|\s*0\s*\|'
                                r'\s*1000\s*\|')
        limits = self.cinder('absolute-limits').stdout
        self.assertRegex(limits, r'\|\s*maxTotalVolumes\s*\|\s*2\s*\|')
        self.assertRegex(limits, r'\|\s*totalVolumesUsed\s*\|\s*2\s*\|')
        self.admin('quota-delete', 'project-a')
        self.assertRegex(self.admin('quota-show', 'project-a').stdout,
                         r'\|\s*volumes\s*\|\s*10\s*\|')
        self.assertRegex(self.admin('quota-defaults', 'project-a').stdout,
                         r'\|\s*snapshots\s*\|\s*10\s*\|')
        self.cinder('create', '1')

    def test_python_api(self):
        admin = self.client('admin', 'admin')
        admin.quotas.update('project-a', gigabytes=3)
        tenant = self.client()
        volume = tenant.volumes.create(2)
        self.wait_for_status(tenant.volumes, volume.id, 'available')
        error = self.assertRaises(cinder_exc.OverLimit,
                                  tenant.volumes.create, 2)
        self.assertEqual('Requested volume or snapshot exceeds allowed '
                         'gigabytes quota. Requested 2G, quota is 3G and 2G '
                         'has been consumed.', error.message)
        usage = admin.quotas.get('project-a', usage=True)
        self.assertEqual({'limit': 3, 'in_use': 2, 'reserved': 0,
                          'allocated': 0}, usage.gigabytes)
        self.assertEqual(10, admin.quotas.defaults('project-a').volumes)
        admin.quota_classes.update('default', volumes=5)
        self.assertEqual(5, admin.quota_classes.get('default').volumes)
        tenant.volumes.delete(volume)
        vwf.wait_for(lambda: [v.id for v in tenant.volumes.list()],
                     lambda ids: volume.id not in ids)
        self.assertEqual(0, admin.quotas.get(
            'project-a', usage=True).gigabytes['in_use'])
