"""openstacksdk's block_storage proxy against the volume API over HTTP on
127.0.0.1 (noauth tokens as admin_token): volumes, the quota calls and
an operator's views of services, zones and pools."""
import openstack

from tests.functional import test_actions_cli


def connect(endpoint, token):
    """openstacksdk's connection to the volume API at ``endpoint``, as
    ``token`` (noauth), with nothing from the environment."""
    return openstack.connect(
        auth_type='admin_token', auth={'token': token, 'endpoint': endpoint},
        block_storage_endpoint_override=endpoint,
        block_storage_api_version='3', load_yaml_config=False,
        load_envvars=False)


class OpenStackSDKTest(test_actions_cli.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=10, snapshots=10, gigabytes=1000)

    def connect(self, token):
        return connect(self.endpoint, token)

    def test_quota_calls(self):
        admin = self.connect('admin:admin').block_storage
        tenant = self.connect('user-a:project-a').block_storage
        self.assertEqual(10, admin.get_quota_set_defaults('project-a').volumes)
        admin.update_quota_set('project-a', volumes=2)
        self.assertEqual(2, admin.get_quota_set('project-a').volumes)
        volume = tenant.create_volume(size=1)
        tenant.wait_for_status(volume, status='available', wait=30)
        used = admin.get_quota_set('project-a', usage=True)
        self.assertEqual((2, 1), (used.volumes, used.usage['volumes']))
        tenant.create_volume(size=1)
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  tenant.create_volume, size=1)
        self.assertEqual(413, error.status_code)
        admin.revert_quota_set('project-a')
        self.assertEqual(10, admin.get_quota_set('project-a').volumes)

    def test_operator_views(self):
        admin = self.connect('admin:admin').block_storage
        tenant = self.connect('user-a:project-a').block_storage
        services = list(admin.services())
        self.assertEqual(['up'], list({s.state for s in services}))
        self.assertEqual(['nova'], [zone.name for zone in
                                    tenant.availability_zones()])
        pools = {pool.name: pool for pool in admin.backend_pools()}
        self.assertTrue(pools)
        for pool in pools.values():
            self.assertIn('total_capacity_gb', pool.capabilities)
        error = self.assertRaises(openstack.exceptions.HttpException, list,
                                  tenant.backend_pools())
        self.assertEqual(403, error.status_code)

    def test_default_types_and_details(self):
        """The calls openstacksdk makes at 3.67 (it asks 3.67 for default
        types) and the fields it reads up to 3.65."""
        admin = self.connect('admin:admin').block_storage
        tenant = self.connect('user-a:project-a').block_storage
        gold = admin.create_type(name='gold')
        default = admin.set_default_type('project-a', gold)
        self.assertEqual(('project-a', gold.id),
                         (default.project_id, default.volume_type_id))
        self.assertEqual(gold.id,
                         admin.show_default_type('project-a').volume_type_id)
        self.assertEqual([('project-a', gold.id)], [
            (d.project_id, d.volume_type_id) for d in admin.default_types()])
        volume = tenant.create_volume(size=1)
        volume = tenant.wait_for_status(volume, status='available', wait=30)
        self.assertEqual(('gold', gold.id, True),
                         (volume.volume_type, volume.volume_type_id,
                          volume.consumes_quota))
        snapshot = tenant.create_snapshot(volume_id=volume.id)
        self.assertTrue(tenant.get_snapshot(snapshot.id).consumes_quota)
        error = self.assertRaises(openstack.exceptions.HttpException,
                                  tenant.show_default_type, 'project-a')
        self.assertEqual(403, error.status_code)
        admin.unset_default_type('project-a')
        self.assertRaises(openstack.exceptions.NotFoundException,
                          admin.show_default_type, 'project-a')
