"""Cinder's quota API, enforced by the claims in their transactions, and
usage counted from placement (seed 004) with the legacy switch."""
import uuid

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from volapi.volume import placement_audit

ADMIN = api_fixtures.ADMIN
LIMITED = ('volumes', 'snapshots', 'gigabytes', 'per_volume_gigabytes')


class QuotaTestCase(api_fixtures.APITestCase):
    pool_options = {'file_pools': ['pool:1000'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.path = '/v3/os-quota-sets/%s' % self.project

    def set_quota(self, status=200, **limits):
        return self.app.put_json(self.path, {'quota_set': limits},
                                 headers=ADMIN, status=status)

    def show(self, query='', headers=None):
        return self.app.get(self.path + query,
                            headers=headers or self.owner).json['quota_set']


class QuotaAPITest(QuotaTestCase):

    def test_defaults_are_cinders(self):
        expected = {'volumes': 10, 'snapshots': 10, 'gigabytes': 1000,
                    'backups': 10, 'backup_gigabytes': 1000,
                    'per_volume_gigabytes': -1, 'groups': 10}
        self.assertEqual(dict(expected, id=self.project), self.show())
        self.assertEqual(dict(expected, id=self.project), self.app.get(
            self.path + '/defaults', headers=self.owner).json['quota_set'])

    def test_update_show_delete(self):
        self.assertEqual(3, self.set_quota(volumes=3, gigabytes='50').json[
            'quota_set']['volumes'])
        shown = self.show()
        self.assertEqual((3, 10, 50), (shown['volumes'], shown['snapshots'],
                                       shown['gigabytes']))
        self.set_quota(volumes=4)
        self.assertEqual((4, 50), (self.show()['volumes'],
                                   self.show()['gigabytes']))
        self.app.delete(self.path, headers=ADMIN)
        self.assertEqual(10, self.show()['volumes'])

    def test_class_defaults_apply_to_every_project(self):
        self.app.put_json('/v3/os-quota-class-sets/default',
                          {'quota_class_set': {'volumes': 7}},
                          headers=ADMIN)
        self.assertEqual(7, self.app.get(
            '/v3/os-quota-class-sets/default',
            headers=ADMIN).json['quota_class_set']['volumes'])
        self.assertEqual(7, self.show()['volumes'])
        self.set_quota(volumes=2)  # the project's own wins
        self.assertEqual(2, self.show()['volumes'])

    def test_only_admins_update_and_owners_read(self):
        self.fault(self.app.put_json(self.path, {'quota_set': {
            'volumes': 3}}, headers=self.owner, status=403), 403)
        self.fault(self.app.get('/v3/os-quota-sets/project-b',
                                headers=self.owner, status=403), 403)
        self.fault(self.app.get('/v3/os-quota-class-sets/default',
                                headers=self.owner, status=403), 403)

    def test_bad_input_is_named(self):
        self.assertEqual(
            'Invalid input received: Bad key(s) in quota set: bogus, x',
            self.fault(self.set_quota(status=400, bogus=1, x=2), 400))
        self.assertEqual(
            'Invalid input received: Bad key(s) in quota class set: bogus',
            self.fault(self.app.put_json(
                '/v3/os-quota-class-sets/default',
                {'quota_class_set': {'bogus': 1}}, headers=ADMIN,
                status=400), 400))
        self.assertIn('must be an integer', self.fault(
            self.set_quota(status=400, volumes='many'), 400))
        # Thousands of digits: more than int() converts.
        self.assertIn('Quota limit 99999', self.fault(
            self.set_quota(status=400, volumes='9' * 5000), 400))
        self.assertEqual(5, self.set_quota(volumes=' 5 ').json[
            'quota_set']['volumes'])
        self.assertIn('between -1 and', self.fault(
            self.set_quota(status=400, volumes=-2), 400))
        # Cinder's schema: the quota set alone, with some key.
        for body, expected in (
                ({'volumes': 1}, "'quota_set' is a required property"),
                ({'quota_set': {}}, 'Invalid input for field/attribute '
                                    'quota_set. Value: {}.'),
                ({'quota_set': {'volumes': 1}, 'x': 1},
                 "('x' was unexpected)")):
            self.assertIn(expected, self.fault(self.app.put_json(
                self.path, body, headers=ADMIN, status=400), 400))
        self.assertEqual(5, self.show()['volumes'])

    def test_scope_longer_than_its_column(self):
        # A 500 on PostgreSQL and MySQL, which refuse to store it.
        for path, key, name in (
                ('/v3/os-quota-sets/', 'quota_set', 'project_id'),
                ('/v3/os-quota-class-sets/', 'quota_class_set',
                 'quota_class_name')):
            self.assertEqual(
                'Invalid input received: %s has more than 255 characters.'
                % name, self.fault(self.app.put_json(
                    path + 'x' * 256, {key: {'volumes': 1}}, headers=ADMIN,
                    status=400), 400))
            self.app.put_json(path + 'x' * 255, {key: {'volumes': 1}},
                              headers=ADMIN, status=200)

    def test_usage(self):
        volume = self.create_volume(size=3).json['volume']
        self.make_available(volume['id'])
        self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume['id']}}, headers=self.owner, status=202)
        usage = self.show('?usage=True')
        self.assertEqual(
            {'volumes': (1, 10), 'snapshots': (1, 10),
             'gigabytes': (6, 1000), 'per_volume_gigabytes': (0, -1)},
            {name: (usage[name]['in_use'], usage[name]['limit'])
             for name in LIMITED})
        # A limit under what is used is refused, as Cinder does.
        self.assertEqual(
            'Quota volumes limit must be equal or greater than existing '
            'resources. Current usage is 1 and the requested limit is 0.',
            self.fault(self.set_quota(status=400, volumes=0), 400))


class EnforcementTest(QuotaTestCase):

    def test_volumes(self):
        self.set_quota(volumes=2)
        self.create_volume()
        self.create_volume()
        self.assertEqual(
            "Maximum number of volumes allowed (2) exceeded for quota "
            "'volumes'.", self.fault(self.create_volume(expect=413), 413))
        # A volume no pool could hold counts as a volume, as in Cinder.
        self.set_quota(volumes=3)
        self.assertEqual('error', self.create_volume(size=2000).json[
            'volume']['status'])
        self.fault(self.create_volume(expect=413), 413)

    def test_gigabytes_and_per_volume(self):
        self.set_quota(gigabytes=10, per_volume_gigabytes=6)
        self.assertEqual(
            'Requested volume size 7G is larger than maximum allowed limit '
            '6G.', self.fault(self.create_volume(size=7, expect=413), 413))
        volume = self.create_volume(size=6).json['volume']
        self.assertEqual(
            'Requested volume or snapshot exceeds allowed gigabytes quota. '
            'Requested 5G, quota is 10G and 6G has been consumed.',
            self.fault(self.create_volume(size=5, expect=413), 413))
        self.make_available(volume['id'])
        # An extend and a snapshot claim gigabytes too.
        self.fault(self.app.post_json(
            '/v3/volumes/%s/action' % volume['id'],
            {'os-extend': {'new_size': 11}}, headers=self.owner,
            status=413), 413)
        self.fault(self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume['id']}}, headers=self.owner, status=413),
            413)
        self.set_quota(gigabytes=12)
        self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume['id']}}, headers=self.owner, status=202)
        self.assertEqual(12, self.show('?usage=True')['gigabytes']['in_use'])

    def test_snapshots(self):
        self.set_quota(snapshots=1)
        volume = self.create_volume().json['volume']
        self.make_available(volume['id'])
        body = {'snapshot': {'volume_id': volume['id'], 'force': True}}
        self.app.post_json('/v3/snapshots', body, headers=self.owner,
                           status=202)
        self.assertEqual(
            'Maximum number of snapshots allowed (1) exceeded',
            self.fault(self.app.post_json('/v3/snapshots', body,
                                          headers=self.owner, status=413),
                       413))

    def test_projects_are_apart(self):
        self.set_quota(volumes=1)
        self.create_volume()
        self.create_volume(headers=api_fixtures.caller('project-b'))

    def test_projects_differing_in_case_are_apart(self):
        # On MariaDB 'PROJECT-A' found project-a's usage row: its create
        # was a 500, and its quota requests changed project-a's limits.
        other = '/v3/os-quota-sets/PROJECT-A'
        self.set_quota(volumes=1)
        self.create_volume()
        self.app.put_json(other, {'quota_set': {'volumes': 5}},
                          headers=ADMIN)
        self.assertEqual(1, self.show()['volumes'])
        other_volume = self.create_volume(
            headers=api_fixtures.caller('PROJECT-A')).json['volume']['id']
        self.app.delete(other, headers=ADMIN)
        self.assertEqual(1, self.show()['volumes'])
        self.assertEqual((10, 1), (
            self.app.get(other, headers=ADMIN).json['quota_set']['volumes'],
            self.show('?usage=true')['volumes']['in_use']))
        self.assertEqual([other_volume], [v['id'] for v in self.app.get(
            '/v3/volumes', headers=api_fixtures.caller('PROJECT-A')
        ).json['volumes']])


class CountingTest(QuotaTestCase):
    """Where usage is counted from."""

    def setUp(self):
        super().setUp()
        # A volume from before claims: no allocation.
        self.old = rows.volume(self.context, project_id=self.project,
                               size=5, host='worker-1@file#pool')

    def test_placement_count_falls_back_while_volumes_lack_allocations(self):
        self.create_volume(size=2)
        usage = self.show('?usage=True')
        # The legacy count: from the tables, the old volume included.
        self.assertEqual((2, 7), (usage['volumes']['in_use'],
                                  usage['gigabytes']['in_use']))
        rows.insert(self.context, models.Volume, id=str(uuid.uuid4()),
                    project_id=self.project, user_id='user', size=50,
                    status='deleted', attach_status='detached',
                    bootable=False, multiattach=False, deleted=True)
        self.assertEqual(7, self.show('?usage=True')['gigabytes']['in_use'])

    def test_placement_count_once_every_volume_has_its_allocation(self):
        self.assertEqual((1, 1), placement_audit.allocate_volumes(
            self.context, 50))
        self.create_volume(size=2)
        self.assertEqual(7, self.show('?usage=True')['gigabytes']['in_use'])
        self.config.set('quota', count_usage_from_placement=False)
        self.assertEqual(7, self.show('?usage=True')['gigabytes']['in_use'])
