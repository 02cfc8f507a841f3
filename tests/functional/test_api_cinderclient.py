"""The real ``cinder`` CLI (python-cinderclient, noauth) against the volume
API served over HTTP on 127.0.0.1, with a volume worker (file driver) in
this process on a private in-memory transport: create, list, show, extend,
reset-state, delete, types; another project sees nothing."""
import time

from cinderclient import client as cinder_client
from cinderclient.contrib import noauth
from cinderclient import exceptions as cinder_exceptions
from cinderclient.v3.contrib import list_extensions
import fixtures
from keystoneauth1 import session as ks_session

from tests.functional import api_fixtures
from tests.functional import cinder_cli
from volapi.volume import worker as volume_worker

UUID = r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'


class CinderCLITest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.config.set('volume', volumes_dir=self.useFixture(
            fixtures.TempDir()).path)
        worker = volume_worker.VolumeWorker(self.config.conf).start(
            unclaimed_timeout=0)
        self.addCleanup(worker.stop)
        self.endpoint = self.serve()

    def only_on_sqlite(self):
        # Each CLI call is a new Python process (seconds); what it checks,
        # the wire format, does not depend on the database, which the
        # WebTest suites and test_python_api cover on every backend.
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only (wire compatibility is backend-independent)')

    def cinder(self, *args, user='user-a', project='project-a', check=True):
        return cinder_cli.run(self, self.endpoint, *args, user=user,
                              project=project, check=check)

    field = staticmethod(cinder_cli.field)

    def wait_for(self, volume_id, status, headers=None, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            volume = self.app.get('/v3/volumes/%s' % volume_id,
                                  headers=headers or api_fixtures.ADMIN,
                                  expect_errors=True)
            if status == 'deleted' and volume.status_int == 404:
                return None
            if volume.status_int == 200 and \
                    volume.json['volume']['status'] == status:
                return volume.json['volume']
            if time.monotonic() > deadline:
                self.fail('volume %s did not become %s: %s' % (
                    volume_id, status, volume.body))
            time.sleep(0.05)

    def test_volume_life_cycle(self):
        self.only_on_sqlite()
        created = self.cinder('create', '--name', 'cli-volume', '1').stdout
        volume_id = self.field(created, 'id')
        self.assertRegex(volume_id, UUID)
        self.assertEqual('cli-volume', self.field(created, 'name'))
        self.wait_for(volume_id, 'available')

        listed = self.cinder('list').stdout
        self.assertIn(volume_id, listed)
        self.assertIn('available', listed)
        shown = self.cinder('show', volume_id).stdout
        self.assertEqual('cli-volume', self.field(shown, 'name'))
        self.assertEqual('1', self.field(shown, 'size'))
        self.assertEqual('__DEFAULT__', self.field(shown, 'volume_type'))

        # Another project cannot see it.
        other = self.cinder('show', volume_id, project='project-b',
                            user='user-b', check=False)
        self.assertNotEqual(0, other.returncode)
        self.assertNotIn(volume_id, self.cinder(
            'list', project='project-b', user='user-b').stdout)

        self.cinder('extend', volume_id, '2')
        self.assertEqual(2, self.wait_for(volume_id, 'available')['size'])

        self.cinder('reset-state', '--state', 'error', volume_id,
                    user='admin', project='admin')
        self.wait_for(volume_id, 'error')

        self.cinder('delete', volume_id)
        self.wait_for(volume_id, 'deleted', headers=self.owner)
        self.assertNotIn(volume_id, self.cinder('list').stdout)

    def test_types_and_bad_input(self):
        self.only_on_sqlite()
        created = self.cinder('type-create', 'cli-type', user='admin',
                              project='admin').stdout
        self.assertIn('cli-type', created)
        self.assertIn('cli-type', self.cinder('type-list').stdout)
        volume_id = self.field(self.cinder(
            'create', '--volume-type', 'cli-type', '1').stdout, 'id')
        self.assertEqual('cli-type', self.wait_for(
            volume_id, 'available')['volume_type'])
        refused = self.cinder('create', '0', check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('less than the minimum of 1', refused.stderr)

    def test_python_api(self):
        """python-cinderclient's library, as other services use it."""
        auth = noauth.CinderNoAuthPlugin('user-a', 'project-a',
                                         endpoint=self.endpoint)
        cinder = cinder_client.Client(
            '3.59', session=ks_session.Session(auth=auth))
        volume = cinder.volumes.create(1, name='api-volume',
                                       metadata={'k': 'v'})
        self.assertEqual('api-volume', volume.name)
        self.wait_for(volume.id, 'available')
        self.assertEqual({'k': 'v'}, cinder.volumes.get(volume.id).metadata)
        self.assertIn(volume.id, [v.id for v in cinder.volumes.list()])
        cinder.volumes.update(volume, name='renamed')
        self.assertEqual('renamed', cinder.volumes.get(volume.id).name)
        cinder.volumes.set_bootable(volume, True)
        self.assertEqual('true', cinder.volumes.get(volume.id).bootable)
        cinder.volumes.set_image_metadata(volume, {'os_distro': 'ubuntu',
                                                   'hw_disk_bus': 'scsi'})
        cinder.volumes.delete_image_metadata(volume, ['hw_disk_bus'])
        self.assertEqual({'os_distro': 'ubuntu'},
                         cinder.volumes.show_image_metadata(volume)[1][
                             'metadata'])
        self.assertEqual({'os_distro': 'ubuntu'}, cinder.volumes.get(
            volume.id).volume_image_metadata)
        self.assertIn('__DEFAULT__',
                      [t.name for t in cinder.volume_types.list()])
        self.assertRaises(cinder_exceptions.BadRequest,
                          cinder.volumes.create, -1)
        cinder.volumes.delete(volume)
        self.wait_for(volume.id, 'deleted', headers=self.owner)
        self.assertRaises(cinder_exceptions.NotFound,
                          cinder.volumes.get, volume.id)

    def client(self, user, project):
        auth = noauth.CinderNoAuthPlugin(user, project,
                                         endpoint=self.endpoint)
        return cinder_client.Client('3.59',
                                    session=ks_session.Session(auth=auth))

    def test_snapshot_admin_actions(self):
        """reset_state and delete(force=True) of python-cinderclient's
        snapshots, as an operator repairs a stuck snapshot."""
        cinder = self.client('user-a', 'project-a')
        admin = self.client('admin', 'admin')
        volume = cinder.volumes.create(1)
        self.wait_for(volume.id, 'available')
        snapshot = cinder.volume_snapshots.create(volume.id)
        deadline = time.monotonic() + 30
        while cinder.volume_snapshots.get(snapshot.id).status != 'available':
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        self.assertRaises(cinder_exceptions.Forbidden,
                          cinder.volume_snapshots.reset_state, snapshot,
                          'error')
        admin.volume_snapshots.reset_state(snapshot, 'error')
        self.assertEqual('error',
                         cinder.volume_snapshots.get(snapshot.id).status)
        admin.volume_snapshots.delete(snapshot, force=True)
        while True:
            try:
                cinder.volume_snapshots.get(snapshot.id)
            except cinder_exceptions.NotFound:
                break
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        cinder.volumes.delete(volume)
        self.wait_for(volume.id, 'deleted', headers=self.owner)

    def test_limits(self):
        """python-cinderclient's limits.get(), as `cinder absolute-limits`
        calls it: the maxima of the project's quota (Cinder's defaults),
        usage counted."""
        cinder = self.client('user-a', 'project-a')
        volume = cinder.volumes.create(2)
        self.wait_for(volume.id, 'available')
        absolute = {limit.name: limit.value
                    for limit in cinder.limits.get().absolute}
        self.assertEqual(10, absolute['maxTotalVolumes'])
        self.assertEqual(1, absolute['totalVolumesUsed'])
        self.assertEqual(2, absolute['totalGigabytesUsed'])
        self.assertEqual([], list(cinder.limits.get().rate))
        cinder.volumes.delete(volume)
        self.wait_for(volume.id, 'deleted', headers=self.owner)

    def test_operator_views(self):
        """What an operator checks first: `cinder service-list`,
        `availability-zone-list`, `get-pools --detail` and
        `get-capabilities`, through
        python-cinderclient's library and (SQLite) its CLI."""
        admin = self.client('admin', 'admin')
        [service] = admin.services.list()
        self.assertEqual(('volapi-volume', 'up', 'enabled', 'nova'),
                         (service.binary, service.state, service.status,
                          service.zone))
        self.assertEqual([('nova', {'available': True})],
                         [(zone.zoneName, zone.zoneState) for zone in
                          self.client('user-a', 'project-a')
                          .availability_zones.list()])
        volume = admin.volumes.create(3)
        self.wait_for(volume.id, 'available')
        self.assertIn('os-services', [
            extension.alias for extension in
            list_extensions.ListExtManager(admin).show_all()])
        host = getattr(admin.volumes.get(volume.id), 'os-vol-host-attr:host')
        pools = {pool.name: pool for pool in admin.pools.list(detailed=True)}
        self.assertEqual(3, pools[host].allocated_capacity_gb)
        capabilities = admin.capabilities.get(service.host)
        self.assertEqual(('file', 'local', 'volapi'),
                         (capabilities.volume_backend_name,
                          capabilities.storage_protocol,
                          capabilities.vendor_name))
        self.assertIn('thin_provisioning', capabilities.properties)
        if self.backend == 'sqlite':
            shown = self.cinder('--os-volume-api-version', '3.33',
                                'get-pools', '--detail', '--filters',
                                'name=' + host, user='admin',
                                project='admin').stdout
            self.assertEqual('3', self.field(shown, 'allocated_capacity_gb'))
            shown = self.cinder('get-capabilities', service.host,
                                user='admin', project='admin').stdout
            self.assertEqual('local', self.field(shown, 'storage_protocol'))
            self.assertIn('Sets thin provisioning',
                          self.field(shown, 'thin_provisioning'))
            self.assertIn('title : Thin Provisioning', shown)
        admin.volumes.delete(volume)
        self.wait_for(volume.id, 'deleted')
