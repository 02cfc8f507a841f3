"""openstacksdk's block_storage proxy through a volume's life, over HTTP
on 127.0.0.1 with a running worker: the calls a tenant or an operator
makes, each read back through the SDK's own resources.

The SDK's ``wait_for_status`` returns at once when the object it is given
already has the status, so an operation that starts from and ends in
'available' is waited for by reading the resource again (:meth:`settle`).
Its metadata calls keep the caller's object up to date with the keys sent
only, so they are given ids."""
import openstack

from tests.functional import test_actions_cli
from tests.functional import test_openstacksdk
from tests.functional import volume_worker_fixture as vwf


class SDKTestCase(test_actions_cli.CinderClientTestCase):

    pool_options = {'file_pools': ['file:50']}

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=10, snapshots=10, gigabytes=1000)
        self.admin = test_openstacksdk.connect(
            self.endpoint, 'admin:admin').block_storage
        self.tenant = test_openstacksdk.connect(
            self.endpoint, 'user-a:project-a').block_storage

    def available(self, **fields):
        volume = self.tenant.create_volume(size=fields.pop('size', 1),
                                           **fields)
        return self.tenant.wait_for_status(volume, status='available',
                                           wait=30)

    def settle(self, get, ident, done):
        """``get(ident)`` once ``done`` holds of it."""
        return vwf.wait_for(lambda: get(ident), done, timeout=30)


class VolumeLifeTest(SDKTestCase):

    def test_create_update_metadata_extend_delete(self):
        volume = self.available(name='v1', description='d',
                                metadata={'a': '1'})
        self.assertEqual(('v1', 'd', {'a': '1'}, 1),
                         (volume.name, volume.description, volume.metadata,
                          volume.size))
        self.assertEqual(volume.id, self.tenant.find_volume('v1').id)
        self.tenant.update_volume(volume, name='v2', description='e')
        self.tenant.set_volume_metadata(volume.id, b='2')
        self.tenant.delete_volume_metadata(volume.id, keys=['a'])
        shown = self.tenant.get_volume(volume.id)
        self.assertEqual(('v2', 'e', {'b': '2'}),
                         (shown.name, shown.description, shown.metadata))
        self.assertEqual([volume.id], [v.id for v in self.tenant.volumes(
            details=True, name='v2')])
        self.tenant.extend_volume(volume, 3)
        extended = self.settle(self.tenant.get_volume, volume.id,
                               lambda v: v.status == 'available' and
                               v.size == 3)
        self.assertEqual(3, extended.size)
        self.tenant.set_volume_bootable_status(volume, True)
        self.admin.set_volume_readonly(volume, True)
        shown = self.tenant.get_volume(volume.id)
        self.assertEqual((True, 'True'),
                         (shown.is_bootable, shown.metadata.get('readonly')))
        self.tenant.delete_volume(volume)
        self.tenant.wait_for_delete(volume, wait=30)
        self.assertIsNone(self.tenant.find_volume(volume.id,
                                                  ignore_missing=True))

    def test_reserve_and_attachments(self):
        volume = self.available()
        self.tenant.reserve_volume(volume)
        self.assertEqual('attaching',
                         self.tenant.get_volume(volume.id).status)
        self.tenant.unreserve_volume(volume)
        attachment = self.tenant.create_attachment(
            volume, instance='11111111-2222-3333-4444-555555555555')
        self.assertEqual('reserved', attachment.status)
        attachment = self.tenant.update_attachment(
            attachment, connector={'host': 'h', 'initiator': 'iqn.x'})
        self.assertEqual('local',
                         attachment.connection_info['driver_volume_type'])
        self.tenant.complete_attachment(attachment)
        self.assertEqual('in-use', self.tenant.get_volume(volume.id).status)
        self.assertEqual([attachment.id],
                         [a.id for a in self.tenant.attachments()])
        self.tenant.delete_attachment(attachment)
        self.settle(self.tenant.get_volume, volume.id,
                    lambda v: v.status == 'available')

    def test_snapshots(self):
        volume = self.available()
        snapshot = self.tenant.create_snapshot(volume_id=volume.id,
                                               name='s1',
                                               metadata={'k': 'v'})
        snapshot = self.tenant.wait_for_status(snapshot, status='available',
                                               wait=30)
        self.assertEqual(('s1', {'k': 'v'}, volume.id),
                         (snapshot.name, snapshot.metadata,
                          snapshot.volume_id))
        self.tenant.update_snapshot(snapshot, name='s2')
        self.tenant.set_snapshot_metadata(snapshot.id, k2='v2')
        self.tenant.delete_snapshot_metadata(snapshot.id, keys=['k'])
        shown = self.tenant.get_snapshot(snapshot.id)
        self.assertEqual(('s2', {'k2': 'v2'}), (shown.name, shown.metadata))
        self.assertEqual({'k2': 'v2'}, self.tenant.get_snapshot_metadata(
            snapshot.id).metadata)
        self.assertEqual([snapshot.id], [s.id for s in self.tenant.snapshots(
            details=True, volume_id=volume.id)])
        self.tenant.revert_volume_to_snapshot(volume, snapshot)
        self.settle(self.tenant.get_volume, volume.id,
                    lambda v: v.status == 'available')
        clone = self.tenant.create_volume(size=1, snapshot_id=snapshot.id)
        clone = self.tenant.wait_for_status(clone, status='available',
                                            wait=30)
        self.assertEqual(snapshot.id, clone.snapshot_id)
        self.admin.reset_snapshot_status(snapshot, 'error')
        self.assertEqual('error',
                         self.tenant.get_snapshot(snapshot.id).status)
        self.tenant.delete_snapshot(snapshot)
        self.tenant.wait_for_delete(snapshot, wait=30)

    def test_types_retype_and_limits(self):
        gold = self.admin.create_type(name='gold', extra_specs={'x': 'y'})
        self.admin.update_type_extra_specs(gold, z='w')
        self.assertEqual({'x': 'y', 'z': 'w'},
                         self.admin.get_type(gold.id).extra_specs)
        self.admin.delete_type_extra_specs(gold, ['x'])
        self.assertEqual({'z': 'w'}, self.admin.get_type(gold.id).extra_specs)
        private = self.admin.create_type(name='private', is_public=False)
        self.admin.add_type_access(private, 'project-a')
        self.assertEqual(['project-a'], [a['project_id'] for a in
                                         self.admin.get_type_access(private)])
        self.assertIn('private', [t.name for t in self.tenant.types()])
        self.admin.remove_type_access(private, 'project-a')
        self.assertNotIn('private', [t.name for t in self.tenant.types()])
        volume = self.available()
        self.tenant.retype_volume(volume, 'gold')
        retyped = self.settle(self.tenant.get_volume, volume.id,
                              lambda v: v.status == 'available' and
                              v.volume_type == 'gold')
        self.assertEqual('gold', retyped.volume_type)
        limits = self.tenant.get_limits()
        self.assertEqual((10, 1), (limits.absolute.max_total_volumes,
                                   limits.absolute.total_volumes_used))
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  self.admin.delete_type, gold)
        self.assertEqual(400, error.status_code)
        self.admin.delete_type(private)

    def test_groups(self):
        self.admin.create_type(name='vt')
        kind = self.admin.create_group_type(name='gold',
                                            group_specs={'a': 'b'})
        self.assertEqual({'a': 'b'}, self.admin.fetch_group_type_group_specs(
            kind).group_specs)
        group = self.tenant.create_group(group_type=kind.id,
                                         volume_types=['vt'], name='g')
        group = self.tenant.wait_for_status(group, status='available',
                                            wait=30)
        volume = self.available(volume_type='vt')
        self.tenant.update_group(group, add_volumes=volume.id)
        self.assertEqual(group.id,
                         self.tenant.get_volume(volume.id).group_id)
        self.assertEqual(['g'], [g.name for g in self.tenant.groups()])
        self.tenant.delete_group(group, delete_volumes=True)
        self.tenant.wait_for_delete(group, wait=30)
        self.tenant.wait_for_delete(volume, wait=30)

    def test_summary_and_messages(self):
        self.available(size=2)
        summary = self.tenant.summary(all_projects=False)
        self.assertEqual((1, 2), (summary.total_count, summary.total_size))
        # No pool has room: 202, then 'error' and a message saying why.
        failed = self.tenant.create_volume(size=60)
        self.tenant.wait_for_status(failed, status='error',
                                    failures=['available'], wait=30)
        # (Its message calls ask no microversion, and before 3.3 Cinder has
        # no messages either: they are made with the one they need.)
        message = self.tenant.get(
            '/messages', microversion='3.3').json()['messages'][0]
        self.assertEqual((failed.id, 'VOLUME_VOLUME_001_003'),
                         (message['resource_uuid'], message['event_id']))
        self.tenant.delete('/messages/%s' % message['id'],
                           microversion='3.3').raise_for_status()
        self.assertEqual([], self.tenant.get(
            '/messages', microversion='3.3').json()['messages'])
        self.tenant.delete_volume(failed)
        self.tenant.wait_for_delete(failed, wait=30)

    def test_force_delete(self):
        volume = self.available()
        self.tenant.reserve_volume(volume)
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  self.tenant.delete_volume, volume,
                                  force=True)
        self.assertEqual(403, error.status_code)
        self.admin.delete_volume(volume, force=True)
        self.tenant.wait_for_delete(volume, wait=30)


class OperatorCallsTest(SDKTestCase):
    """An operator's and a compute service's calls through the SDK."""

    def test_legacy_attach_detach_and_connections(self):
        volume = self.available()
        self.tenant.reserve_volume(volume)
        self.tenant.attach_volume(volume, '/dev/vdb',
                                  instance='11111111-2222-3333-4444-'
                                           '555555555555')
        attached = self.tenant.get_volume(volume.id)
        self.assertEqual(('in-use', '/dev/vdb'),
                         (attached.status,
                          attached.attachments[0]['device']))
        info = self.tenant.init_volume_attachment(
            volume, {'host': 'h', 'initiator': 'iqn.x'})
        self.assertEqual('local', info['driver_volume_type'])
        self.tenant.terminate_volume_attachment(
            volume, {'host': 'h', 'initiator': 'iqn.x'})
        self.tenant.begin_volume_detaching(volume)
        self.assertEqual('detaching',
                         self.tenant.get_volume(volume.id).status)
        self.tenant.abort_volume_detaching(volume)
        self.tenant.detach_volume(volume,
                                  attached.attachments[0]['attachment_id'])
        self.assertEqual('available',
                         self.tenant.get_volume(volume.id).status)

    def test_admin_actions(self):
        volume = self.available()
        self.admin.reset_volume_status(volume, status='error',
                                       attach_status='detached',
                                       migration_status=None)
        self.assertEqual('error', self.tenant.get_volume(volume.id).status)
        self.admin.reset_volume_status(volume, status='available',
                                       attach_status='detached',
                                       migration_status=None)
        self.tenant.set_volume_image_metadata(volume.id, os_distro='x')
        self.assertEqual({'os_distro': 'x'}, self.tenant.get_volume(
            volume.id).volume_image_metadata)
        self.tenant.delete_volume_image_metadata(volume.id,
                                                 keys=['os_distro'])
        self.assertFalse(self.tenant.get_volume(
            volume.id).volume_image_metadata)
        services = list(self.admin.services())
        host = [s.host for s in services if s.binary == 'volapi-volume'
                or s.binary == 'cinder-volume'][0]
        capabilities = self.admin.get_capabilities(host)
        self.assertEqual('file', capabilities.volume_backend_name)
        self.assertTrue([e.alias for e in self.tenant.extensions()])
        disabled = self.admin.disable_service(
            [s for s in services if s.host == host][0], reason='maint')
        self.assertEqual('disabled', disabled.status)
        self.admin.enable_service(disabled)

    def test_snapshot_status_and_filters(self):
        volume = self.available()
        snapshot = self.tenant.create_snapshot(volume_id=volume.id)
        snapshot = self.tenant.wait_for_status(snapshot, status='available',
                                               wait=30)
        self.admin.reset_snapshot_status(snapshot, 'creating')
        self.tenant.set_snapshot_status(snapshot, 'available', '100%')
        shown = self.tenant.get_snapshot(snapshot.id)
        self.assertEqual(('available', '100%'),
                         (shown.status, shown.progress))
        filters = {f.resource: f.filters
                   for f in self.tenant.resource_filters()}
        self.assertIn('volume_id', filters['snapshot'])
