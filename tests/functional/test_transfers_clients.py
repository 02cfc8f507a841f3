"""Volume transfers as the real clients drive them, over HTTP on
127.0.0.1 with a volume worker: python-cinderclient's library (before 3.55
it speaks os-volume-transfer, from 3.55 volume-transfers), its ``cinder
transfer-*`` commands, and openstacksdk's block_storage transfer calls."""
import openstack

from cinderclient import exceptions as cinder_exc
from tests.functional import cinder_cli
from tests.functional import placement_invariant as invariant
from tests.functional import test_actions_cli
from tests.functional import test_openstacksdk


class TransferClientTestCase(test_actions_cli.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))

    def available_volume(self, cinder, snapshots=0):
        volume = cinder.volumes.create(1)
        self.wait_for_status(cinder.volumes, volume.id, 'available')
        for _ in range(snapshots):
            snapshot = cinder.volume_snapshots.create(volume.id)
            self.wait_for_status(cinder.volume_snapshots, snapshot.id,
                                 'available')
        return volume


class CinderClientTransferTest(TransferClientTestCase):

    def test_library_at_each_route(self):
        for version in ('3.0', '3.55', '3.59'):
            giver = self.client(version=version)
            taker = self.client('user-b', 'project-b', version=version)
            volume = self.available_volume(giver, snapshots=1)
            transfer = giver.transfers.create(volume.id, name='gift')
            self.assertEqual(16, len(transfer.auth_key))
            self.assertEqual('awaiting-transfer',
                             giver.volumes.get(volume.id).status)
            self.assertEqual(['gift'], [t.name for t in
                                        giver.transfers.list()])
            self.assertEqual(volume.id,
                             giver.transfers.get(transfer.id).volume_id)
            self.assertRaises(cinder_exc.NotFound, taker.transfers.get,
                              transfer.id)
            error = self.assertRaises(cinder_exc.BadRequest,
                                      taker.transfers.accept, transfer.id,
                                      'not-the-key')
            self.assertIn('Invalid auth key', error.message)
            taker.transfers.accept(transfer.id, transfer.auth_key)
            self.assertEqual('available',
                             taker.volumes.get(volume.id).status)
            self.assertEqual(1, len(taker.volume_snapshots.list(
                search_opts={'volume_id': volume.id})))
            self.assertRaises(cinder_exc.NotFound, giver.volumes.get,
                              volume.id)
            self.assertEqual([], giver.transfers.list())
            # A withdrawn offer gives the volume back.
            again = taker.transfers.create(volume.id)
            taker.transfers.delete(again.id)
            self.assertEqual('available',
                             taker.volumes.get(volume.id).status)

    def test_cli(self):
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only (wire compatibility is backend-independent)')
        giver = self.client()
        volume = self.available_volume(giver)

        def cinder(*args, project='project-a', user='user-a', **kwargs):
            return cinder_cli.run(self, self.endpoint, *args, user=user,
                                  project=project, **kwargs).stdout

        created = cinder('--os-volume-api-version', '3.55',
                         'transfer-create', '--name', 'cli-gift',
                         '--no-snapshots', volume.id)
        transfer_id = cinder_cli.field(created, 'id')
        auth_key = cinder_cli.field(created, 'auth_key')
        self.assertEqual('True', cinder_cli.field(created, 'no_snapshots'))
        self.assertIn(transfer_id, cinder('transfer-list'))
        self.assertEqual('cli-gift', cinder_cli.field(
            cinder('transfer-show', transfer_id), 'name'))
        accepted = cinder('transfer-accept', transfer_id, auth_key,
                          project='project-b', user='user-b')
        self.assertEqual(volume.id, cinder_cli.field(accepted, 'volume_id'))
        self.assertNotIn(transfer_id, cinder('transfer-list'))
        self.assertEqual('project-b', getattr(
            self.client('admin', 'admin').volumes.get(volume.id),
            'os-vol-tenant-attr:tenant_id'))
        again = cinder('transfer-create', volume.id, project='project-b',
                       user='user-b')
        again_id = cinder_cli.field(again, 'id')
        cinder('transfer-delete', again_id, project='project-b',
               user='user-b')
        refused = cinder_cli.run(self, self.endpoint, 'transfer-show',
                                 again_id, user='user-b',
                                 project='project-b', check=False)
        self.assertNotEqual(0, refused.returncode)


class OpenStackSDKTransferTest(TransferClientTestCase):

    def connect(self, token):
        return test_openstacksdk.connect(self.endpoint, token).block_storage

    def test_transfer_calls(self):
        giver = self.connect('user-a:project-a')
        taker = self.connect('user-b:project-b')
        volume = giver.create_volume(size=1)
        giver.wait_for_status(volume, status='available', wait=30)
        transfer = giver.create_transfer(volume_id=volume.id, name='sdk')
        self.assertTrue(transfer.auth_key)
        self.assertFalse(transfer.no_snapshots)
        self.assertEqual([transfer.id], [t.id for t in giver.transfers()])
        self.assertEqual('sdk', giver.get_transfer(transfer.id).name)
        self.assertEqual(transfer.id, giver.find_transfer('sdk').id)
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  taker.accept_transfer, transfer.id,
                                  'wrong')
        self.assertEqual(400, error.status_code)
        taker.accept_transfer(transfer.id, transfer.auth_key)
        self.assertEqual('project-b', getattr(
            self.client('admin', 'admin').volumes.get(volume.id),
            'os-vol-tenant-attr:tenant_id'))
        self.assertEqual([], list(giver.transfers()))
        again = taker.create_transfer(volume_id=volume.id)
        taker.delete_transfer(again)
        self.assertRaises(openstack.exceptions.NotFoundException,
                          taker.get_transfer, again.id)
        self.assertEqual('available', taker.get_volume(volume.id).status)
