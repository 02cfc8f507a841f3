"""python-cinderclient's freeze_host, thaw_host and failover_host, and
(SQLite) the ``cinder`` CLI's freeze-host, thaw-host, failover-host and
service-list --withreplication, against volapi over HTTP with a worker
in this process."""
from cinderclient import exceptions as cinder_exc

from tests.functional import cinder_cli
from tests.functional import test_actions_cli as cli_tests
from tests.functional import volume_worker_fixture as vwf

FROZEN = ('Invalid input received: Modification operations are not '
          'allowed on frozen storage backends.')


class FreezeClientsTest(cli_tests.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.admin = self.client('admin', 'admin')
        [service] = self.admin.services.list()
        self.host = service.host

    def frozen(self):
        return [s.frozen for s in self.admin.services.list()]

    def test_python_api(self):
        tenant = self.client()
        volume = tenant.volumes.create(1)
        self.wait_for_status(tenant.volumes, volume.id, 'available')
        self.admin.services.freeze_host(self.host)
        self.assertEqual([True], self.frozen())
        error = self.assertRaises(cinder_exc.BadRequest,
                                  tenant.volume_snapshots.create, volume.id)
        self.assertEqual(FROZEN, error.message)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  tenant.volumes.delete, volume.id)
        self.assertEqual(FROZEN, error.message)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  self.admin.services.freeze_host, self.host)
        self.assertIn('frozen in', error.message)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  self.admin.services.failover_host,
                                  self.host, 'b')
        self.assertIn('replication_status', error.message)
        self.assertRaises(cinder_exc.Forbidden, tenant.services.thaw_host,
                          self.host)
        self.admin.services.thaw_host(self.host)
        self.assertEqual([False], self.frozen())
        tenant.volumes.delete(volume.id)
        # The worker deletes it.
        self.assertIsNone(vwf.wait_for(
            lambda: _get_or_none(tenant, volume.id),
            lambda found: found is None))

    def test_cli(self):
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only; test_python_api covers the others')

        def admin(*args, check=True):
            return cinder_cli.run(self, self.endpoint, *args, user='admin',
                                  project='admin', version='3.59',
                                  check=check)

        admin('freeze-host', self.host)
        listed = admin('service-list', '--withreplication').stdout
        self.assertRegex(listed, r'\|\s*not-capable\s*\|\s*-?\s*\|\s*True'
                                 r'\s*\|')
        again = admin('freeze-host', self.host, check=False)
        self.assertEqual(1, again.returncode)
        self.assertIn("No service could be changed: frozen in ['%s'] must "
                      "be False to failover. (HTTP 400)" % self.host,
                      again.stderr)
        failover = admin('failover-host', self.host, '--backend_id', 'b',
                         check=False)
        self.assertEqual(1, failover.returncode)
        self.assertIn('must be up to failover. (HTTP 400)', failover.stderr)
        admin('thaw-host', self.host)
        self.assertEqual([False], self.frozen())


def _get_or_none(client, volume_id):
    try:
        return client.volumes.get(volume_id)
    except cinder_exc.NotFound:
        return None
