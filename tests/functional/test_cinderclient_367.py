"""python-cinderclient at microversion 3.67 (its library on every backend,
its ``cinder`` CLI on SQLite): the projects' default types (3.62), the
fields of volume and snapshot details up to 3.65, time comparison
filters (3.60) and snapshots of in-use volumes without force (3.66)."""
import datetime

from cinderclient import exceptions as cinder_exc

from tests.functional import cinder_cli
from tests.functional import test_actions_cli

VERSION = '3.67'


class CinderClient367Test(test_actions_cli.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.admin = self.client('admin', 'admin', VERSION)
        self.cinder = self.client(version=VERSION)

    def cli(self, *args, admin=True):
        user = 'admin' if admin else 'user-a'
        project = 'admin' if admin else 'project-a'
        return cinder_cli.run(self, self.endpoint, *args, user=user,
                              project=project, version=VERSION).stdout

    def test_default_types(self):
        gold = self.admin.volume_types.create('gold')
        default = self.admin.default_types.create('gold', 'project-a')
        self.assertEqual(('project-a', gold.id),
                         (default.project_id, default.volume_type_id))
        self.assertEqual([('project-a', gold.id)], [
            (d.project_id, d.volume_type_id)
            for d in self.admin.default_types.list()])
        self.assertEqual(gold.id, self.admin.default_types.list(
            'project-a').volume_type_id)
        self.assertRaises(cinder_exc.Forbidden,
                          self.cinder.default_types.list)
        volume = self.cinder.volumes.create(1)
        self.assertEqual('gold', volume.volume_type)
        self.assertEqual(gold.id, volume.volume_type_id)
        self.wait_for_status(self.cinder.volumes, volume.id, 'available')
        self.assertRaises(cinder_exc.BadRequest,
                          self.admin.volume_types.delete, gold)
        self.admin.default_types.delete('project-a')
        self.assertRaises(cinder_exc.NotFound,
                          self.admin.default_types.list, 'project-a')
        self.assertEqual('__DEFAULT__',
                         self.cinder.volumes.create(1).volume_type)

    def test_details_and_filters(self):
        volume = self.cinder.volumes.create(1)
        self.wait_for_status(self.cinder.volumes, volume.id, 'available')
        shown = self.cinder.volumes.get(volume.id)
        self.assertTrue(shown.consumes_quota)
        self.assertFalse(hasattr(shown, 'cluster_name'))
        self.assertFalse(hasattr(shown, 'encryption_key_id'))
        self.assertTrue(hasattr(self.admin.volumes.get(volume.id),
                                'cluster_name'))
        before = (datetime.datetime.utcnow() -
                  datetime.timedelta(hours=1)).isoformat()
        for query, listed in (({'created_at': 'gt:' + before}, [volume.id]),
                              ({'created_at': 'lt:' + before}, []),
                              ({'consumes_quota': 'true'}, [volume.id]),
                              ({'consumes_quota': 'false'}, [])):
            self.assertEqual(listed, [v.id for v in self.cinder.volumes.list(
                search_opts=query)], query)
        self.assertRaises(cinder_exc.BadRequest, self.cinder.volumes.list,
                          search_opts={'created_at': 'after:' + before})

    def test_snapshot_of_an_in_use_volume(self):
        volume = self.cinder.volumes.create(1)
        self.wait_for_status(self.cinder.volumes, volume.id, 'available')
        self.cinder.volumes.attach(volume, '%s' % volume.id, '/dev/vdb')
        self.wait_for_status(self.cinder.volumes, volume.id, 'in-use')
        snapshot = self.cinder.volume_snapshots.create(volume.id)
        self.assertTrue(snapshot.consumes_quota)
        self.wait_for_status(self.cinder.volume_snapshots, snapshot.id,
                             'available')
        old = self.client(version='3.65')
        self.assertRaises(cinder_exc.BadRequest,
                          old.volume_snapshots.create, volume.id)

    def test_cli(self):
        if self.backend != 'sqlite':
            self.skipTest('the cinder CLI runs against the SQLite backend '
                          'only (wire compatibility is backend-independent)')
        gold = self.admin.volume_types.create('gold')
        shown = self.cli('default-type-set', 'gold', 'project-a')
        self.assertEqual(gold.id, cinder_cli.field(shown, 'volume_type_id'))
        listed = self.cli('default-type-list')
        self.assertIn('project-a', listed)
        self.assertIn(gold.id, listed)
        self.assertEqual(gold.id, cinder_cli.field(self.cli(
            'default-type-list', '--project-id', 'project-a'),
            'volume_type_id'))
        created = self.cli('create', '1', admin=False)
        volume_id = cinder_cli.field(created, 'id')
        self.assertEqual(('gold', gold.id, 'True'), (
            cinder_cli.field(created, 'volume_type'),
            cinder_cli.field(created, 'volume_type_id'),
            cinder_cli.field(created, 'consumes_quota')))
        self.assertIn(volume_id, self.cli(
            'list', '--filters', 'created_at=gte:2020-01-01', admin=False))
        self.assertNotIn(volume_id, self.cli(
            'list', '--filters', 'created_at=lt:2020-01-01', admin=False))
        self.cli('default-type-unset', 'project-a')
        self.assertNotIn('project-a', self.cli('default-type-list'))
