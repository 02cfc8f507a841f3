"""cinder manage, manageable-list and unmanage through the API, with a
volume worker whose file driver holds files nobody manages: a file taken
becomes a volume, holding its pool and quota like a created one; let go,
it stays on disk and is manageable again."""
import json
import os

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


class ManageTest(test_attachments.ConnectedTestCase):

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
            '/v3/manageable_volumes%s' % ('/detail' if detail else ''),
            params, headers=self.admin, status=status)

    def manage(self, status=202, headers=None, **spec):
        spec.setdefault('host', HOST)
        return self.app.post_json('/v3/manageable_volumes',
                                  {'volume': spec},
                                  headers=headers or self.admin,
                                  status=status)

    def action(self, volume_id, body, status=202, headers=None):
        return self.app.post_json('/v3/volumes/%s/action' % volume_id, body,
                                  headers=headers or self.admin,
                                  status=status)

    def wait_status(self, volume_id, *statuses):
        return vwf.wait_for(
            lambda: (rows.row(self.context, models.Volume, volume_id)
                     or {}).get('status'),
            lambda status: status in statuses)

    def usage(self, project='admin'):
        quota_set = self.app.get(
            '/v3/os-quota-sets/%s?usage=True' % project,
            headers=ADMIN).json['quota_set']
        return quota_set['volumes']['in_use'], \
            quota_set['gigabytes']['in_use']

    def test_manage_list_and_unmanage(self):
        path = self.file('legacy-disk', size=GiB + GiB // 2)
        listed = self.manageable(detail=True).json['manageable-volumes']
        # Cinder's default order: by reference, descending.
        self.assertEqual(
            [({'source-name': 'volume-%s' % self.volume.id}, 1, False,
              'already managed as a volume', self.volume.id),
             ({'source-name': 'legacy-disk'}, 2, True, None, None)],
            [(e['reference'], e['size'], e['safe_to_manage'],
              e['reason_not_safe'], e['cinder_id']) for e in listed])
        self.assertEqual({'reference', 'size', 'safe_to_manage'},
                         set(self.manageable().json['manageable-volumes'][0]))

        volume = self.manage(ref={'source-name': 'legacy-disk'},
                             name=' legacy ', bootable='true',
                             metadata={'from': 'old'}).json['volume']
        self.assertEqual(('managing', 2, 'legacy', 'true', {'from': 'old'}),
                         (volume['status'], volume['size'], volume['name'],
                          volume['bootable'], volume['metadata']))
        self.wait_status(volume['id'], 'available')
        managed = os.path.join(os.path.dirname(path),
                               'volume-%s' % volume['id'])
        self.assertFalse(os.path.exists(path))
        self.assertEqual(2 * GiB, os.path.getsize(managed))
        self.assertEqual((1, 2), self.usage())
        self.assertEqual('%s#%s' % (HOST, self.pool), rows.row(
            self.context, models.Volume, volume['id'])['host'])

        self.action(volume['id'], {'os-unmanage': None})
        self.wait_status(volume['id'], None, 'deleted')
        self.assertEqual((0, 0), self.usage())
        self.assertEqual(2 * GiB, os.path.getsize(managed))
        listed = self.manageable(sort='size:asc').json['manageable-volumes']
        self.assertEqual(
            [({'source-name': 'volume-%s' % self.volume.id}, False),
             ({'source-name': 'volume-%s' % volume['id']}, True)],
            [(e['reference'], e['safe_to_manage']) for e in listed])

    def test_paging(self):
        for name in ('b', 'c', 'a'):
            self.file(name)

        def names(response):
            return [e['reference']['source-name']
                    for e in response.json['manageable-volumes']]

        self.assertEqual(['volume-%s' % self.volume.id, 'c', 'b', 'a'],
                         names(self.manageable()))
        # Cinder's paging: past the marker, then past the offset.
        self.assertEqual(['c'], names(self.manageable(
            sort='reference:asc', limit=1, offset=1,
            marker=json.dumps({'source-name': 'a'}))))
        for params, message in (
                ({'host': HOST, 'sort': 'name'},
                 'Invalid sort keys passed: name'),
                ({'host': HOST, 'marker': '{'}, 'can not be analysed'),
                # Valid JSON nested past Python's recursion limit (a 500).
                ({'host': HOST, 'marker': '[' * 3000 + ']' * 3000},
                 'can not be analysed'),
                ({'host': HOST, 'marker': '{"source-name": "z"}'},
                 'marker not found'),
                ({}, 'One and only one of cluster and host must be set.'),
                ({'host': HOST, 'cluster': 'c@file'},
                 'One and only one of cluster and host must be set.'),
                ({'host': 'nowhere@file'}, "Host 'nowhere@file' not found"),
                ({'cluster': 'c@file'}, "Cluster 'c@file' not found")):
            response = self.app.get('/v3/manageable_volumes', params,
                                    headers=self.admin, status=400)
            self.assertIn(message, self.fault(response, 400))

    def test_refusals(self):
        self.file('disk')
        snapshot = self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': self.volume.id}}, headers=self.headers).json[
            'snapshot']
        for spec, message in (
                ({'ref': {'source-name': 'missing'}},
                 'Manage existing volume failed due to invalid backend '
                 'reference {source-name: missing}: no pool of this backend '
                 'has a file named missing'),
                ({'ref': {'source-name': '../disk'}}, "'source-name'"),
                ({'ref': {'source-name': '.disk.partial'}}, "'source-name'"),
                ({'ref': {'name': 'disk'}}, "'source-name'"),
                ({'ref': 'disk'}, "'source-name'"),
                ({'ref': {'source-name': 'volume-%s' % self.volume.id}},
                 'it is the storage of volume %s' % self.volume.id),
                ({'ref': {'source-name': 'disk'},
                  'host': HOST + '#elsewhere'},
                 'it is in pool %s, not in pool elsewhere' % self.pool),
                ({'ref': {'source-name': 'disk'}, 'volume_type': 'gold'},
                 "Cannot find requested 'gold' volume type"),
                ({'ref': {'source-name': 'disk'}, 'host': 'x@file'},
                 "Host 'x@file' not found"),
                ({'ref': {'source-name': 'disk'},
                  'availability_zone': 'elsewhere'},
                 "Availability zone 'elsewhere' is invalid"),
                ({'ref': {'source-name': 'disk'}, 'size': 1},
                 "Additional properties are not allowed"),
                ({'host': HOST}, "'ref' is a required property")):
            self.assertIn(message, self.fault(self.manage(status=400,
                                                          **spec), 400))
        vwf.wait_for(lambda: rows.row(self.context, models.Snapshot,
                                      snapshot['id'])['status'],
                     lambda status: status == 'available')
        self.assertIn(
            'it is the storage of snapshot %s' % snapshot['id'],
            self.fault(self.manage(
                status=400, ref={'source-name': 'snapshot-%s'
                                 % snapshot['id']}), 400))
        # Only administrators; the list came with 3.8, the cluster with
        # 3.16 (manage) and 3.17 (list).
        self.assertEqual(403, self.manage(
            status=403, headers=dict(self.headers, **{
                'OpenStack-API-Version': 'volume 3.17'}),
            ref={'source-name': 'disk'}).status_int)
        old = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.7'})
        self.app.get('/v3/manageable_volumes', {'host': HOST}, headers=old,
                     status=404)
        self.assertEqual(200, self.app.get(
            '/v3/os-volume-manage', {'host': HOST}, headers=old).status_int)
        self.assertIn("('cluster' was unexpected)", self.fault(
            self.app.post_json('/v3/os-volume-manage', {'volume': {
                'cluster': 'c@file', 'ref': {'source-name': 'disk'}}},
                headers=dict(ADMIN, **{'OpenStack-API-Version':
                                       'volume 3.15'}), status=400), 400))
        # The volume with a snapshot cannot be let go, nor by its owner.
        self.assertIn('must have no snapshots', self.fault(self.action(
            self.volume.id, {'os-unmanage': None}, status=400), 400))
        self.action(self.volume.id, {'os-unmanage': None}, status=403,
                    headers=self.headers)
        self.assertTrue(os.path.exists(os.path.join(
            self.driver.pool_dir(self.pool), 'disk')))

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

    def test_one_file_managed_twice_at_once(self):
        # Both requests may pass the API's checks: one volume gets the
        # file, the other ends in error_managing (or is refused, if the
        # file was taken before it asked) and can be deleted.
        path = self.file('disk')
        answers = test_claim_races.concurrently(
            lambda i: self.app.post_json(
                '/v3/manageable_volumes', {'volume': {
                    'host': HOST, 'ref': {'source-name': 'disk'}}},
                headers=self.admin, expect_errors=True), count=2)
        made = [a.json['volume']['id'] for a in answers
                if a.status_int == 202]
        self.assertTrue(made)
        ends = sorted(self.wait_status(i, 'available', 'error_managing')
                      for i in made)
        self.assertEqual(['available'], ends[:1])
        self.assertEqual(['error_managing'] * (len(made) - 1), ends[1:])
        self.assertFalse(os.path.exists(path))
        for volume_id in made:
            if rows.row(self.context, models.Volume,
                        volume_id)['status'] == 'error_managing':
                self.app.delete('/v3/volumes/%s' % volume_id,
                                headers=self.admin)
                self.wait_status(volume_id, None, 'deleted')
        self.assertEqual((1, 1), self.usage())

    def test_cinder_cli(self):
        self.file('disk')
        endpoint = self.serve()

        def cinder(*args):
            return cinder_cli.run(self, endpoint, *args, user='admin',
                                  project='admin', version='3.17').stdout

        self.assertIn("| {'source-name': 'disk'} ",
                      cinder('manageable-list', HOST))
        shown = cinder('manage', '--name', 'cli', HOST, 'disk')
        volume_id = cinder_cli.field(shown, 'id')
        self.wait_status(volume_id, 'available')
        cinder('unmanage', volume_id)
        self.wait_status(volume_id, None, 'deleted')
        self.assertIn("| {'source-name': 'volume-%s'} | 1    | True " % volume_id,
                      cinder('manageable-list', HOST))
