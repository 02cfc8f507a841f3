"""The quota flows of the ``cinder`` CLI and python-cinderclient against
volapi over HTTP, with a worker in this process: quota-update, creates
until the quota says no (Cinder's 413 message), quota-show, quota-usage,
quota-defaults, quota-delete, absolute-limits."""
import os
import subprocess

from cinderclient import exceptions as cinder_exc

from tests import fixtures as volapi_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import test_actions_cli as cli_tests


class QuotaCLITest(cli_tests.CinderClientTestCase):

    def setUp(self):
        if volapi_fixtures.backend_name() != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only; test_quota covers the others')
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))

    def cinder(self, *args, user='user-a', project='project-a',
               check=True):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(('OS_', 'CINDER'))}
        command = [cli_tests._cinder_executable(), '--os-auth-type',
                   'noauth', '--os-endpoint', self.endpoint,
                   '--os-project-id', project, '--os-user-id', user,
                   '--os-volume-api-version', '3.44'] + list(args)
        result = subprocess.run(command, env=env, capture_output=True,
                                text=True, timeout=120)
        if check and result.returncode != 0:
            self.fail('%s failed (%d):\n%s%s' % (
                ' '.join(args), result.returncode, result.stdout,
                result.stderr))
        return result

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
        vwf_wait = cli_tests.vwf.wait_for
        vwf_wait(lambda: [v.id for v in tenant.volumes.list()],
                 lambda ids: volume.id not in ids)
        self.assertEqual(0, admin.quotas.get(
            'project-a', usage=True).gigabytes['in_use'])
