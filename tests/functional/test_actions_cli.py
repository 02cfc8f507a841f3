"""python-cinderclient against the volume API over HTTP on 127.0.0.1, with
a volume worker in this process: its Python API (noauth, 3.44) for the
volume actions, snapshots and attachments, and the ``cinder`` CLI for
snapshots and attachments (test_api_cinderclient covers the
CLI's create/extend/reset-state/delete)."""
import uuid

from cinderclient import client as cinder_client
from cinderclient import exceptions as cinder_exc
from cinderclient.contrib import noauth
from keystoneauth1 import session as ks_session

from tests import fixtures as volapi_fixtures
from tests.functional import api_fixtures
from tests.functional import cinder_cli
from tests.functional import volume_worker_fixture as vwf

CONNECTOR = {'host': 'compute-1', 'initiator': 'iqn.x', 'mountpoint':
             '/dev/vdb', 'mode': 'rw'}


class CinderClientTestCase(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))
        self.endpoint = self.serve()

    def client(self, user='user-a', project='project-a', version='3.44'):
        auth = noauth.CinderNoAuthPlugin(user, project,
                                         endpoint=self.endpoint)
        return cinder_client.Client(version,
                                    session=ks_session.Session(auth=auth))

    def wait_for_status(self, manager, ident, status):
        return vwf.wait_for(lambda: manager.get(ident),
                            lambda found: found.status == status)


class PythonAPITest(CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.cinder = self.client()
        volume = self.cinder.volumes.create(1, name='cc')
        self.volume = self.wait_for_status(self.cinder.volumes, volume.id,
                                           'available')

    def test_reserve_unreserve(self):
        self.cinder.volumes.reserve(self.volume)
        self.assertEqual('attaching',
                         self.cinder.volumes.get(self.volume.id).status)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  self.cinder.volumes.reserve, self.volume)
        self.assertEqual("Invalid volume: volume status must be "
                         "'available', it is 'attaching'", error.message)
        self.cinder.volumes.unreserve(self.volume)
        self.assertEqual('available',
                         self.cinder.volumes.get(self.volume.id).status)
        stranger = self.client('user-b', 'project-b')
        self.assertRaises(cinder_exc.NotFound, stranger.volumes.reserve,
                          self.volume.id)

    def test_legacy_attach_and_detach(self):
        volumes = self.cinder.volumes
        instance = str(uuid.uuid4())
        volumes.reserve(self.volume)
        volumes.attach(self.volume, instance, '/dev/vdc', mode='rw')
        attached = volumes.get(self.volume.id)
        self.assertEqual('in-use', attached.status)
        (attachment,) = attached.attachments
        self.assertEqual(instance, attachment['server_id'])
        volumes.begin_detaching(self.volume)
        volumes.roll_detaching(self.volume)
        volumes.begin_detaching(self.volume)
        volumes.detach(self.volume, attachment['attachment_id'])
        self.assertEqual('available', volumes.get(self.volume.id).status)

    def test_extend_readonly_reset_state(self):
        volumes = self.cinder.volumes
        volumes.extend(self.volume, 3)
        extended = self.wait_for_status(volumes, self.volume.id, 'available')
        self.assertEqual(3, extended.size)
        error = self.assertRaises(cinder_exc.BadRequest, volumes.extend,
                                  self.volume, 2)
        self.assertEqual('Invalid volume: volume size must be less than 2, '
                         'it is 3', error.message)
        volumes.update_readonly_flag(self.volume, True)
        self.assertRaises(cinder_exc.Forbidden, volumes.reset_state,
                          self.volume, 'error')
        admin = self.client('admin', 'admin')
        admin.volumes.reset_state(self.volume.id, 'error')
        self.assertEqual('error', volumes.get(self.volume.id).status)

    def test_snapshots(self):
        snapshots = self.cinder.volume_snapshots
        snapshot = snapshots.create(self.volume.id, name='snap')
        snapshot = self.wait_for_status(snapshots, snapshot.id, 'available')
        self.assertEqual(('snap', 1), (snapshot.name, snapshot.size))
        self.assertEqual('100%', snapshot.progress)
        self.assertEqual([snapshot.id], [s.id for s in snapshots.list()])
        snapshots.update(snapshot, name='renamed')
        self.assertEqual('renamed', snapshots.get(snapshot.id).name)
        error = self.assertRaises(cinder_exc.BadRequest,
                                  self.cinder.volumes.delete, self.volume)
        self.assertIn('volume must have no snapshots', error.message)
        snapshots.delete(snapshot)
        vwf.wait_for(lambda: [s.id for s in snapshots.list()],
                     lambda ids: ids == [])

    def test_attachments(self):
        attachments = self.cinder.attachments
        instance = str(uuid.uuid4())
        created = attachments.create(self.volume.id, CONNECTOR, instance)
        self.assertEqual('attaching', created['status'])
        self.assertEqual('local',
                         created['connection_info']['driver_volume_type'])
        attachments.complete(created['id'])
        self.assertEqual('attached', attachments.show(created['id']).status)
        self.assertEqual('in-use',
                         self.cinder.volumes.get(self.volume.id).status)
        self.assertEqual([created['id']],
                         [a.id for a in attachments.list()])
        attachments.delete(created['id'])
        self.assertEqual('available',
                         self.cinder.volumes.get(self.volume.id).status)


class CLITest(CinderClientTestCase):
    """Each CLI call is a new Python process (seconds); what it exercises
    does not depend on the database, so it runs on SQLite only."""

    def setUp(self):
        if volapi_fixtures.backend_name() != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only; the Python API tests cover this backend')
        super().setUp()

    def cinder(self, *args, check=True, version='3.44', **caller):
        return cinder_cli.run(self, self.endpoint, *args, check=check,
                              version=version, **caller)

    field = staticmethod(cinder_cli.field)

    def test_snapshots_and_attachments(self):
        api = self.client()
        volume = api.volumes.create(1)
        self.wait_for_status(api.volumes, volume.id, 'available')

        created = self.cinder('snapshot-create', '--name', 's1',
                              volume.id).stdout
        snapshot_id = self.field(created, 'id')
        self.wait_for_status(api.volume_snapshots, snapshot_id, 'available')
        self.assertIn(snapshot_id, self.cinder('snapshot-list').stdout)
        self.cinder('snapshot-rename', snapshot_id, 's2')
        self.assertEqual('s2', self.field(
            self.cinder('snapshot-show', snapshot_id).stdout, 'name'))
        refused = self.cinder('delete', volume.id, check=False)
        self.assertIn('volume must have no snapshots',
                      refused.stdout + refused.stderr)
        self.cinder('snapshot-delete', snapshot_id)
        vwf.wait_for(lambda: self.cinder('snapshot-list').stdout,
                     lambda listed: snapshot_id not in listed)

        attached = self.cinder(
            'attachment-create', '--connect', 'True', '--initiator', 'iqn.x',
            '--ip', '10.0.0.1', '--host', 'compute-1', '--platform', 'x86_64',
            '--ostype', 'linux', '--multipath', 'False', '--mountpoint',
            '/dev/vdb', volume.id, str(uuid.uuid4())).stdout
        attachment_id = self.field(attached, 'id')
        self.assertEqual('attaching', self.field(attached, 'status'))
        self.assertEqual('local', api.attachments.show(
            attachment_id).connection_info['driver_volume_type'])
        self.cinder('attachment-complete', attachment_id)
        self.assertIn(attachment_id, self.cinder('attachment-list').stdout)
        self.assertEqual('in-use', api.volumes.get(volume.id).status)
        self.cinder('attachment-delete', attachment_id)
        self.assertEqual('available', api.volumes.get(volume.id).status)

    def test_snapshot_metadata_revert_and_force_delete(self):
        api = self.client()
        volume = api.volumes.create(1)
        self.wait_for_status(api.volumes, volume.id, 'available')
        snapshot_id = self.field(self.cinder(
            'snapshot-create', volume.id).stdout, 'id')
        self.wait_for_status(api.volume_snapshots, snapshot_id, 'available')
        self.cinder('snapshot-metadata', snapshot_id, 'set', 'a=1', 'b=2')
        self.cinder('snapshot-metadata', snapshot_id, 'unset', 'a')
        self.assertEqual({'b': '2'},
                         api.volume_snapshots.get(snapshot_id).metadata)
        self.assertEqual('2', self.field(self.cinder(
            'snapshot-metadata-show', snapshot_id).stdout, 'b'))

        self.cinder('revert-to-snapshot', snapshot_id, version='3.40')
        self.wait_for_status(api.volume_snapshots, snapshot_id, 'available')
        self.wait_for_status(api.volumes, volume.id, 'available')
        self.cinder('readonly-mode-update', volume.id, 'True')
        self.assertEqual('True', api.volumes.get(volume.id).metadata[
            'readonly'])

        self.cinder('snapshot-delete', snapshot_id)
        vwf.wait_for(lambda: self.cinder('snapshot-list').stdout,
                     lambda listed: snapshot_id not in listed)
        api.volumes.reserve(volume)
        refused = self.cinder('force-delete', volume.id, check=False)
        self.assertIn('Policy doesn', refused.stdout + refused.stderr)
        self.cinder('force-delete', volume.id, user='admin',
                    project='admin')
        vwf.wait_for(lambda: self.cinder('list', '--all-tenants').stdout,
                     lambda listed: volume.id not in listed)
