"""cinder snapshot-manage, snapshot-manageable-list and snapshot-unmanage
through the API, with a volume worker whose file driver holds files
nobody manages: a file taken becomes a snapshot of a volume, holding its
pool and quota like a created one; let go, it stays on disk and is
manageable again."""
import os

import fixtures

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import cinder_cli
from tests.functional import placement_invariant as invariant
from tests.functional import test_attachments
from tests.functional import test_claim_races
from tests.functional import volume_worker_fixture as vwf

ADMIN = api_fixtures.ADMIN
GiB = 1024 ** 3
HOST = 'worker-1@file'


class SnapshotManageTest(test_attachments.ConnectedTestCase):

    version = '3.17'

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.admin = dict(ADMIN, **{'OpenStack-API-Version':
                                    'volume %s' % self.version})
        self.driver = self.worker.worker.driver
        self.pool = self.driver.pool_names()[0]

    def file(self, name, size=GiB):
        path = os.path.join(self.driver.pool_dir(self.pool), name)
        with open(path, 'wb') as f:
            f.truncate(size)
        return path

    def manageable(self, status=200, detail=False, **params):
        params.setdefault('host', HOST)
        return self.app.get(
            '/v3/manageable_snapshots%s' % ('/detail' if detail else ''),
            params, headers=self.admin, status=status)

    def manage(self, status=202, headers=None, path='manageable_snapshots',
               **spec):
        spec.setdefault('volume_id', self.volume.id)
        return self.app.post_json('/v3/%s' % path, {'snapshot': spec},
                                  headers=headers or self.admin,
                                  status=status)

    def unmanage(self, snapshot_id, status=202, headers=None, body=None):
        return self.app.post_json(
            '/v3/snapshots/%s/action' % snapshot_id,
            body or {'os-unmanage': None}, headers=headers or self.admin,
            status=status)

    def wait_status(self, snapshot_id, *statuses):
        return vwf.wait_for(
            lambda: (rows.row(self.context, models.Snapshot, snapshot_id)
                     or {}).get('status'),
            lambda status: status in statuses)

    def usage(self, project='admin'):
        quota_set = self.app.get(
            '/v3/os-quota-sets/%s?usage=True' % project,
            headers=ADMIN).json['quota_set']
        return quota_set['snapshots']['in_use'], \
            quota_set['gigabytes']['in_use']

    def test_manage_list_and_unmanage(self):
        path = self.file('old-snap', size=GiB + GiB // 2)
        listed = self.manageable(detail=True).json['manageable-snapshots']
        # Cinder's default order: by reference, descending.
        self.assertEqual(
            [({'source-name': 'volume-%s' % self.volume.id}, 1, False,
              'already managed as a volume', self.volume.id, None, None),
             ({'source-name': 'old-snap'}, 2, True, None, None, None,
              None)],
            [(e['reference'], e['size'], e['safe_to_manage'],
              e['reason_not_safe'], e['cinder_id'], e['extra_info'],
              e['source_reference']) for e in listed])
        self.assertEqual(
            {'reference', 'size', 'safe_to_manage', 'source_reference'},
            set(self.manageable().json['manageable-snapshots'][0]))

        snapshot = self.manage(ref={'source-name': 'old-snap'}, name='old',
                               description='kept',
                               metadata={'from': 'old'}).json['snapshot']
        # Cinder's status while the storage is taken.
        self.assertEqual(
            ('creating', 2, 'old', 'kept', {'from': 'old'}, self.volume.id),
            (snapshot['status'], snapshot['size'], snapshot['name'],
             snapshot['description'], snapshot['metadata'],
             snapshot['volume_id']))
        self.wait_status(snapshot['id'], 'available')
        managed = os.path.join(os.path.dirname(self.driver.volume_path(
            self.volume)), 'snapshot-%s' % snapshot['id'])
        self.assertFalse(os.path.exists(path))
        self.assertEqual(GiB + GiB // 2, os.path.getsize(managed))
        self.assertEqual((1, 2), self.usage())
        shown = self.app.get('/v3/snapshots/%s' % snapshot['id'],
                             headers=self.admin).json['snapshot']
        self.assertEqual(('available', '100%', {'from': 'old'}),
                         (shown['status'],
                          shown['os-extended-snapshot-attributes:progress'],
                          shown['metadata']))
        self.assertIn(
            ({'source-name': 'snapshot-%s' % snapshot['id']}, False,
             'already managed as a snapshot', snapshot['id']),
            [(e['reference'], e['safe_to_manage'], e['reason_not_safe'],
              e['cinder_id']) for e in self.manageable(
                detail=True).json['manageable-snapshots']])

        self.unmanage(snapshot['id'])
        self.wait_status(snapshot['id'], None, 'deleted')
        self.assertEqual((0, 0), self.usage())
        self.assertEqual(GiB + GiB // 2, os.path.getsize(managed))
        listed = self.manageable(sort='size:asc').json['manageable-snapshots']
        self.assertEqual(
            [({'source-name': 'volume-%s' % self.volume.id}, False),
             ({'source-name': 'snapshot-%s' % snapshot['id']}, True)],
            [(e['reference'], e['safe_to_manage']) for e in listed])

    def test_the_extension_path_and_versions(self):
        self.file('disk')
        old = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.7'})
        self.app.get('/v3/manageable_snapshots', {'host': HOST},
                     headers=old, status=404)
        self.manage(status=404, headers=old, ref={'source-name': 'disk'})
        self.assertEqual([{'source-name': 'disk'}], [
            e['reference'] for e in self.app.get(
                '/v3/os-snapshot-manage/detail', {'host': HOST},
                headers=old).json['manageable-snapshots']
            if e['safe_to_manage']])
        # Before 3.17 a list names its host only.
        self.assertIn('Host field is missing.', self.fault(self.app.get(
            '/v3/os-snapshot-manage', {'cluster': 'c@file'}, headers=old,
            status=400), 400))
        snapshot = self.manage(headers=old, path='os-snapshot-manage',
                               ref={'source-name': 'disk'}).json['snapshot']
        self.wait_status(snapshot['id'], 'available')
        # The owner of the volume sees the admin's snapshot of it only
        # as a snapshot the volume has: it is the admin project's.
        self.assertEqual('admin', rows.row(
            self.context, models.Snapshot, snapshot['id'])['project_id'])
        self.assertEqual((1, 1), self.usage())

    def test_refusals(self):
        self.file('disk')
        taken = self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': self.volume.id}}, headers=self.headers).json[
            'snapshot']
        self.wait_status(taken['id'], 'available')
        missing = '00000000-0000-4000-8000-000000000000'
        for spec, status, message in (
                ({'ref': {'source-name': 'missing'}}, 400,
                 'Manage existing volume failed due to invalid backend '
                 'reference {source-name: missing}: no pool of this backend '
                 'has a file named missing'),
                ({'ref': {'source-name': '../disk'}}, 400, "'source-name'"),
                ({'ref': None}, 400, "'source-name'"),
                ({'ref': 'disk'}, 400, "'source-name'"),
                ({'ref': {'source-name': 'volume-%s' % self.volume.id}},
                 400, 'it is the storage of volume %s' % self.volume.id),
                ({'ref': {'source-name': 'snapshot-%s' % taken['id']}},
                 400, 'it is the storage of snapshot %s' % taken['id']),
                ({'ref': {'source-name': 'disk'}, 'volume_id': missing},
                 404, 'could not be found'),
                ({'ref': {'source-name': 'disk'}, 'volume_id': 'x'}, 400,
                 "'x' does not match"),
                ({'ref': {'source-name': 'disk'}, 'size': 1}, 400,
                 'Additional properties are not allowed'),
                ({'ref': {'source-name': 'disk'}, 'name': 'x' * 256}, 400,
                 'is too long'),
                ({'ref': {'source-name': 'disk'}, 'metadata': []}, 400,
                 "is not of type 'object', 'null'"),
                ({'volume_id': self.volume.id}, 400,
                 "'ref' is a required property")):
            self.assertIn(message, self.fault(self.manage(
                status=status, **spec), status))
        self.assertIn("'volume_id' is a required property", self.fault(
            self.app.post_json('/v3/manageable_snapshots', {'snapshot': {
                'ref': 'disk'}}, headers=self.admin, status=400), 400))
        # Only administrators: the owner of the volume is refused.
        self.manage(status=403, headers=dict(self.headers, **{
            'OpenStack-API-Version': 'volume 3.17'}),
            ref={'source-name': 'disk'})
        # A volume in error is neither available nor in-use.
        self.app.post_json('/v3/volumes/%s/action' % self.volume.id,
                           {'os-reset_status': {'status': 'error'}},
                           headers=ADMIN)
        self.assertIn(
            "must be one of 'available', 'in-use', it is 'error'",
            self.fault(self.manage(status=400, ref={'source-name': 'disk'}),
                       400))
        self.assertTrue(os.path.exists(os.path.join(
            self.driver.pool_dir(self.pool), 'disk')))
        # os-unmanage: administrators only, of a snapshot at rest.
        self.unmanage(taken['id'], status=403, headers=self.headers)
        self.app.post_json('/v3/snapshots/%s/action' % taken['id'],
                           {'os-reset_status': {'status': 'creating'}},
                           headers=ADMIN)
        self.assertIn("'creating'", self.fault(self.unmanage(
            taken['id'], status=400), 400))
        self.unmanage(missing, status=404)
        self.assertEqual((0, 0), self.usage())
        for params, message in (
                ({'host': HOST, 'sort': 'name'},
                 'Invalid sort keys passed: name'),
                ({'host': HOST, 'marker': '{'}, 'can not be analysed'),
                ({}, 'One and only one of cluster and host must be set.'),
                ({'host': 'nowhere@file'}, "Host 'nowhere@file' not found")):
            response = self.app.get('/v3/manageable_snapshots', params,
                                    headers=self.admin, status=400)
            self.assertIn(message, self.fault(response, 400))
        self.app.get('/v3/manageable_snapshots', {'host': HOST},
                     headers=self.headers, status=403)

    def test_quota_and_a_worker_down(self):
        self.file('disk', size=3 * GiB)
        self.app.put_json('/v3/os-quota-sets/admin',
                          {'quota_set': {'gigabytes': 2}}, headers=ADMIN)
        self.assertIn("exceeds allowed gigabytes quota", self.fault(
            self.manage(status=413, ref={'source-name': 'disk'}), 413))
        self.worker.mark_down()
        self.assertIn('no volume worker serving it is up', self.fault(
            self.manage(status=503, ref={'source-name': 'disk'}), 503))
        self.assertEqual((0, 0), self.usage())

    def test_the_worker_fails(self):
        path = self.file('disk')

        def fail(driver, snapshot, volume, reference):
            raise OSError('disk on fire')

        self.useFixture(fixtures.MonkeyPatch(
            'volapi.volume.drivers.file.FileDriver.manage_existing_snapshot',
            fail))
        snapshot = self.manage(ref={'source-name': 'disk'}).json['snapshot']
        self.wait_status(snapshot['id'], 'error')
        self.assertEqual((1, 1), self.usage())
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             snapshot['id']))
        # An errored snapshot is deleted as any; the file is not its own.
        self.app.delete('/v3/snapshots/%s' % snapshot['id'],
                        headers=self.admin)
        self.wait_status(snapshot['id'], None, 'deleted')
        self.assertTrue(os.path.exists(path))
        self.assertEqual((0, 0), self.usage())

    def test_one_file_managed_twice_at_once(self):
        # Both requests may pass the API's checks: one snapshot gets the
        # file, the other ends in error (or is refused, if the file was
        # taken before it asked) and can be deleted.
        path = self.file('disk')
        answers = test_claim_races.concurrently(
            lambda i: self.app.post_json(
                '/v3/manageable_snapshots', {'snapshot': {
                    'volume_id': self.volume.id,
                    'ref': {'source-name': 'disk'}}},
                headers=self.admin, expect_errors=True), count=2)
        made = [a.json['snapshot']['id'] for a in answers
                if a.status_int == 202]
        self.assertTrue(made)
        self.assertEqual([400] * (2 - len(made)),
                         [a.status_int for a in answers
                          if a.status_int != 202])
        ends = sorted(self.wait_status(i, 'available', 'error')
                      for i in made)
        self.assertEqual(['available'] + ['error'] * (len(made) - 1), ends)
        self.assertFalse(os.path.exists(path))
        for snapshot_id in made:
            if rows.row(self.context, models.Snapshot,
                        snapshot_id)['status'] == 'error':
                self.app.delete('/v3/snapshots/%s' % snapshot_id,
                                headers=self.admin)
                self.wait_status(snapshot_id, None, 'deleted')
        self.assertEqual((1, 1), self.usage())

    def test_cinder_cli(self):
        self.file('disk')
        endpoint = self.serve()

        def cinder(*args):
            return cinder_cli.run(self, endpoint, *args, user='admin',
                                  project='admin', version='3.8').stdout

        self.assertIn("| {'source-name': 'disk'} ",
                      cinder('snapshot-manageable-list', HOST))
        shown = cinder('snapshot-manage', '--name', 'cli', '--metadata',
                       'k=v', self.volume.id, 'disk')
        snapshot_id = cinder_cli.field(shown, 'id')
        self.assertEqual('cli', cinder_cli.field(shown, 'name'))
        self.wait_status(snapshot_id, 'available')
        cinder('snapshot-unmanage', snapshot_id)
        self.wait_status(snapshot_id, None, 'deleted')
        self.assertIn(
            "| {'source-name': 'snapshot-%s'} | 1    | True " % snapshot_id,
            cinder('snapshot-manageable-list', HOST))

    def test_a_group_snapshots_snapshot_is_not_unmanaged(self):
        # Cinder's rule: it goes with its group snapshot only.
        admin = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.14'})
        user = api_fixtures.caller(self.project, version='3.14')
        self.app.post_json('/v3/group_types', {'group_type': {
            'name': 'gt'}}, headers=admin)
        group_id = self.app.post_json('/v3/groups', {'group': {
            'group_type': 'gt', 'volume_types': ['__DEFAULT__']}},
            headers=user).json['group']['id']
        self.app.put_json('/v3/groups/%s' % group_id, {'group': {
            'add_volumes': self.volume.id}}, headers=user)
        group_snapshot_id = self.app.post_json('/v3/group_snapshots', {
            'group_snapshot': {'group_id': group_id}}, headers=user).json[
            'group_snapshot']['id']
        snapshot_id = vwf.wait_for(
            lambda: [s['id'] for s in self.app.get(
                '/v3/snapshots/detail', headers=user).json['snapshots']
                if s['group_snapshot_id'] == group_snapshot_id],
            bool)[0]
        self.wait_status(snapshot_id, 'available')
        self.assertIn('group_snapshot_id', self.fault(
            self.unmanage(snapshot_id, status=400), 400))
        self.assertEqual('available', rows.row(
            self.context, models.Snapshot, snapshot_id)['status'])
