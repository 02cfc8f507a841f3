"""Volume transfers through the API (Cinder's os-volume-transfer and
volume-transfers): the offer and its withdrawal, the accept moving the
volume, its snapshots, both projects' quota and the placement consumers
in one transaction, Cinder's answers to what cannot be done, and one
winner among concurrent accepts and deletes. After each test the pools,
the allocations and the quota usage rows agree with the tables."""
import sqlalchemy as sa

from db import exceptions as db_exc
from db import models
from db import session
import objects
from objects import quota
from objects import type_quota
from objects.placement import allocation_reads
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import test_claim_races
from volapi.volume import api as volume_api
from volapi.volume import transfers
from volapi.volume.transitions import engine

ADMIN = api_fixtures.ADMIN
LATEST = '3.59'
OWNER = api_fixtures.caller('project-a', 'user-a', LATEST)
TAKER = api_fixtures.caller('project-b', 'user-b', LATEST)
ROUTES = ('/v3/volume-transfers', '/v3/os-volume-transfer')


class TransferTestCase(api_fixtures.APITestCase):
    pool_options = {'file_pools': ['pool:1000'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.addCleanup(self.assert_usage_rows_exact)

    def assert_usage_rows_exact(self):
        self.assertEqual([], quota.drift(self.context))
        self.assertEqual([], type_quota.drift(self.context))

    def volume(self, size=1, snapshots=0, **fields):
        """An available volume of project-a holding its pool, with
        ``snapshots`` available snapshots."""
        volume_id = self.create_volume(size=size, **fields).json[
            'volume']['id']
        self.make_available(volume_id)
        snapshot_ids = [self.snapshot(volume_id) for _ in range(snapshots)]
        return volume_id, snapshot_ids

    def snapshot(self, volume_id, status='available'):
        snapshot_id = self.app.post_json(
            '/v3/snapshots', {'snapshot': {'volume_id': volume_id}},
            headers=self.owner).json['snapshot']['id']
        self.app.post_json('/v3/admin/snapshots/%s/action' % snapshot_id,
                           {'os-reset_status': {'status': status}},
                           headers=ADMIN, status=202)
        return snapshot_id

    def offer(self, volume_id, route=ROUTES[0], headers=OWNER, expect=202,
              **fields):
        return self.app.post_json(route, {'transfer': dict(
            {'volume_id': volume_id}, **fields)}, headers=headers,
            status=expect)

    def accept(self, transfer, route=ROUTES[0], headers=TAKER, expect=202,
               key=None):
        return self.app.post_json(
            '%s/%s/accept' % (route, transfer['id']),
            {'accept': {'auth_key': key or transfer['auth_key']}},
            headers=headers, status=expect)

    def status_of(self, model, ident):
        table = model.__table__
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(sa.select(table).where(
                table.c.id == ident)).mappings().one()

    def usage(self, project):
        """What a transfer moves of the project's usage (its backups stay)."""
        return {name: count for name, count in quota.usage(
            self.context, project).items() if name in quota.VOLUME_COUNTED}

    def owner_of_consumer(self, uuid):
        held = allocation_reads.get_for_consumer(self.context, uuid)
        return held['project_id'], held['user_id']


class OfferTest(TransferTestCase):

    def test_create_show_list_delete(self):
        volume_id, _ = self.volume()
        created = self.offer(volume_id, name=' offer ').json['transfer']
        self.assertRegex(created['auth_key'], '^[0-9a-f]{16}$')
        self.assertEqual(
            {'id', 'created_at', 'name', 'volume_id', 'auth_key', 'links',
             'no_snapshots', 'destination_project_id', 'source_project_id',
             'accepted'}, set(created))
        self.assertEqual(('offer', volume_id, False, None, 'project-a',
                          False),
                         (created['name'], created['volume_id'],
                          created['no_snapshots'],
                          created['destination_project_id'],
                          created['source_project_id'], created['accepted']))
        self.assertTrue(created['links'][0]['href'].endswith(
            '/v3/project-a/os-volume-transfer/%s' % created['id']))
        self.assertEqual('awaiting-transfer', self.status_of(
            models.Volume, volume_id)['status'])
        # The key is kept only as its HMAC.
        row = self.status_of(models.Transfer, created['id'])
        self.assertNotIn(created['auth_key'], [str(v) for v in row.values()])
        self.assertEqual(8, len(row['salt']))
        path = '%s/%s' % (ROUTES[0], created['id'])
        shown = self.app.get(path, headers=OWNER).json['transfer']
        self.assertNotIn('auth_key', shown)
        self.assertEqual(created['created_at'], shown['created_at'])
        for route in ROUTES:
            listed = self.app.get(route, headers=OWNER).json['transfers']
            self.assertEqual([{'id': created['id'], 'volume_id': volume_id,
                               'name': 'offer', 'links': created['links']}],
                             listed)
            detailed = self.app.get(route + '/detail',
                                    headers=OWNER).json['transfers']
            self.assertEqual([shown], detailed)
        # Another project sees nothing of it.
        self.fault(self.app.get(path, headers=TAKER, status=404), 404)
        self.assertEqual([], self.app.get(ROUTES[0],
                                          headers=TAKER).json['transfers'])
        self.fault(self.app.delete(path, headers=TAKER, status=404), 404)
        # Nor can the volume be offered twice.
        self.assertEqual('Invalid volume: status must be available',
                         self.fault(self.offer(volume_id, expect=400), 400))
        self.app.delete(path, headers=OWNER, status=202)
        self.assertEqual('available', self.status_of(
            models.Volume, volume_id)['status'])
        self.assertTrue(self.status_of(models.Transfer,
                                       created['id'])['deleted'])
        self.assertEqual('Transfer %s could not be found.' % created['id'],
                         self.fault(self.app.get(path, headers=OWNER,
                                                 status=404), 404))

    def test_fields_by_microversion(self):
        volume_id, _ = self.volume()
        for version, fields in (
                ('3.0', set()), ('3.55', {'no_snapshots'}),
                ('3.57', {'no_snapshots', 'destination_project_id',
                          'source_project_id', 'accepted'})):
            headers = api_fixtures.caller('project-a', 'user-a', version)
            for route in ROUTES:
                created = self.offer(volume_id, route,
                                     headers=headers).json['transfer']
                self.assertEqual({'id', 'created_at', 'name', 'volume_id',
                                  'auth_key', 'links'} | fields,
                                 set(created))
                self.assertEqual(
                    {'id', 'created_at', 'name', 'volume_id', 'links'}
                    | fields, set(self.app.get(
                        '%s/%s' % (route, created['id']),
                        headers=headers).json['transfer']))
                self.app.delete('%s/%s' % (route, created['id']),
                                headers=headers, status=202)

    def test_bad_input_is_named_as_cinder_names_it(self):
        volume_id, _ = self.volume()
        self.assertIn("'not-a-uuid' is not a 'uuid'", self.fault(
            self.offer('not-a-uuid', expect=400), 400))
        self.assertEqual(
            "An invalid 'name' value was provided. The 'name' can not be "
            "empty.", self.fault(self.offer(volume_id, name='  ',
                                            expect=400), 400))
        # no_snapshots: volume-transfers from 3.55 only.
        self.assertIn("'no_snapshots' was unexpected", self.fault(
            self.offer(volume_id, ROUTES[1], no_snapshots=True,
                       expect=400), 400))
        self.assertIn("'no_snapshots' was unexpected", self.fault(
            self.offer(volume_id, headers=api_fixtures.caller(
                'project-a', 'user-a', '3.54'), no_snapshots=True,
                expect=400), 400))
        missing = '00000000-0000-4000-8000-000000000000'
        self.assertEqual('Volume %s could not be found.' % missing,
                         self.fault(self.offer(missing, expect=404), 404))
        self.assertEqual('Transfer %s could not be found.' % missing,
                         self.fault(self.app.post_json(
                             '%s/%s/accept' % (ROUTES[0], missing),
                             {'accept': {'auth_key': 'k'}}, headers=TAKER,
                             status=404), 404))
        self.assertIn("'auth_key' is a required property", self.fault(
            self.app.post_json('%s/%s/accept' % (ROUTES[0], missing),
                               {'accept': {}}, headers=TAKER, status=400),
            400))
        # The volume of another project is an unknown volume.
        self.fault(self.offer(volume_id, headers=TAKER, expect=404), 404)

    def test_a_volume_not_available_is_refused(self):
        volume_id = self.create_volume().json['volume']['id']  # creating
        self.assertEqual('Invalid volume: status must be available',
                         self.fault(self.offer(volume_id, expect=400), 400))
        self.assertEqual([], self.app.get(ROUTES[0],
                                          headers=OWNER).json['transfers'])

    def test_snapshots_not_available_are_refused(self):
        volume_id, [ready] = self.volume(snapshots=1)
        creating = self.snapshot(volume_id, status='creating')
        self.assertEqual(
            'Invalid snapshot: snapshot: %s status must be available'
            % creating, self.fault(self.offer(volume_id, expect=400), 400))
        self.assertEqual('available', self.status_of(
            models.Volume, volume_id)['status'])
        # Without its snapshots (3.55) the volume may go.
        self.assertTrue(self.offer(volume_id, no_snapshots=True).json[
            'transfer']['no_snapshots'])

    def test_lists_page_from_3_59(self):
        ids = []
        for _ in range(3):
            volume_id, _ = self.volume()
            ids.append(self.offer(volume_id).json['transfer']['id'])
        # 3.59 sorts by created_at descending unless told otherwise.
        page = self.app.get(ROUTES[0] + '?limit=2&sort=id:asc',
                            headers=OWNER).json
        self.assertEqual(sorted(ids)[:2], [t['id'] for t in
                                           page['transfers']])
        self.assertIn('marker=%s' % sorted(ids)[1],
                      page['transfers_links'][0]['href'])
        rest = self.app.get(ROUTES[0] + '?sort=id:asc&marker=%s'
                            % sorted(ids)[1], headers=OWNER).json
        self.assertEqual(sorted(ids)[2:], [t['id'] for t in
                                           rest['transfers']])
        self.assertIn('Invalid sort key', self.fault(self.app.get(
            ROUTES[0] + '?sort=salt', headers=OWNER, status=400), 400))
        self.fault(self.app.get(ROUTES[0] + '?marker=%s' % ids[0],
                                headers=TAKER, status=404), 404)
        # Before 3.59 (and on os-volume-transfer) the oldest come first,
        # and a parameter that is no column lists nothing, as in Cinder.
        old = api_fixtures.caller('project-a', 'user-a', '3.58')
        self.assertEqual(ids, [t['id'] for t in self.app.get(
            ROUTES[0], headers=old).json['transfers']])
        self.assertEqual([], self.app.get(ROUTES[1] + '?limit=1',
                                          headers=OWNER).json['transfers'])
        self.assertEqual([ids[1]], [t['id'] for t in self.app.get(
            ROUTES[1] + '?id=%s' % ids[1], headers=OWNER).json['transfers']])
        # A time no transfer can have: out of range once in UTC.
        for route in ROUTES:
            self.assertEqual([], self.app.get(
                route + '?created_at=9999-12-31T23:59:59-01:00',
                headers=OWNER).json['transfers'])

    def test_an_administrator_lists_every_project(self):
        volume_id, _ = self.volume()
        created = self.offer(volume_id).json['transfer']
        self.assertEqual([], self.app.get(ROUTES[0],
                                          headers=ADMIN).json['transfers'])
        self.assertEqual([created['id']], [t['id'] for t in self.app.get(
            ROUTES[0] + '?all_tenants=1', headers=ADMIN).json['transfers']])
        self.assertEqual([], self.app.get(
            ROUTES[0] + '?all_tenants=1&project_id=project-b',
            headers=ADMIN).json['transfers'])


class AcceptTest(TransferTestCase):

    def test_accept_moves_volume_snapshots_quota_and_consumers(self):
        volume_id, snapshots = self.volume(size=2, snapshots=2)
        generation = allocation_reads.get_for_consumer(
            self.context, volume_id)['consumer_generation']
        self.assertEqual({'volumes': 1, 'snapshots': 2, 'gigabytes': 6},
                         self.usage('project-a'))
        transfer = self.offer(volume_id).json['transfer']
        accepted = self.accept(transfer).json['transfer']
        links = [dict(link, href=link['href'].replace('project-a',
                                                      'project-b'))
                 for link in transfer['links']]
        self.assertEqual({'id': transfer['id'], 'volume_id': volume_id,
                          'name': None, 'links': links}, accepted)
        row = self.status_of(models.Volume, volume_id)
        self.assertEqual(('available', 'project-b', 'user-b'),
                         (row['status'], row['project_id'], row['user_id']))
        for snapshot_id in snapshots:
            row = self.status_of(models.Snapshot, snapshot_id)
            self.assertEqual(('project-b', 'user-b'),
                             (row['project_id'], row['user_id']))
        for consumer in [volume_id] + snapshots:
            self.assertEqual(('project-b', 'user-b'),
                             self.owner_of_consumer(consumer))
        self.assertEqual(generation + 1, allocation_reads.get_for_consumer(
            self.context, volume_id)['consumer_generation'])
        self.assertEqual({'volumes': 0, 'snapshots': 0, 'gigabytes': 0},
                         self.usage('project-a'))
        self.assertEqual({'volumes': 1, 'snapshots': 2, 'gigabytes': 6},
                         self.usage('project-b'))
        row = self.status_of(models.Transfer, transfer['id'])
        self.assertEqual((True, True, 'project-b'),
                         (row['deleted'], row['accepted'],
                          row['destination_project_id']))
        # The volume is the taker's now: the giver no longer sees it.
        self.app.get('/v3/volumes/%s' % volume_id, headers=TAKER)
        self.app.get('/v3/volumes/%s' % volume_id, headers=OWNER,
                     status=404)
        self.app.get('/v3/snapshots/%s' % snapshots[0], headers=TAKER)
        # The transfer is gone, for every route.
        for route in ROUTES:
            self.fault(self.accept(transfer, route, expect=404), 404)
            self.fault(self.app.get('%s/%s' % (route, transfer['id']),
                                    headers=ADMIN, status=404), 404)

    def test_accept_without_snapshots(self):
        volume_id, [snapshot_id] = self.volume(size=3, snapshots=1)
        transfer = self.offer(volume_id, no_snapshots=True).json['transfer']
        self.accept(transfer, ROUTES[1])
        self.assertEqual('project-a', self.status_of(
            models.Snapshot, snapshot_id)['project_id'])
        self.assertEqual(('project-a', 'user-a'),
                         self.owner_of_consumer(snapshot_id))
        self.assertEqual({'volumes': 0, 'snapshots': 1, 'gigabytes': 3},
                         self.usage('project-a'))
        self.assertEqual({'volumes': 1, 'snapshots': 0, 'gigabytes': 3},
                         self.usage('project-b'))

    def test_accept_with_a_wrong_key_changes_nothing(self):
        volume_id, _ = self.volume()
        transfer = self.offer(volume_id).json['transfer']
        self.assertEqual(
            'Invalid auth key: Attempt to transfer %s with invalid auth '
            'key.' % transfer['id'],
            self.fault(self.accept(transfer, key='0' * 16, expect=400),
                       400))
        self.fault(self.accept(transfer, key=12345, expect=400), 400)
        self.assertEqual('awaiting-transfer', self.status_of(
            models.Volume, volume_id)['status'])
        self.accept(transfer)

    def test_accept_over_quota_is_413_and_changes_nothing(self):
        self.app.post_json('/v3/types', {'volume_type': {'name': 'gold'}},
                           headers=ADMIN)
        # project-b holds a 5 GiB volume of its own.
        self.create_volume(size=5, headers=api_fixtures.caller(
            'project-b', 'user-b'))
        volume_id, [snapshot_id] = self.volume(size=5, snapshots=1,
                                               volume_type='gold')
        transfer = self.offer(volume_id).json['transfer']
        path = '/v3/os-quota-sets/project-b'
        for limits, message in (
                ({'volumes': 1}, "Maximum number of volumes allowed (1) "
                 "exceeded for quota 'volumes'."),
                ({'per_volume_gigabytes': 4}, 'Requested volume size 5G is '
                 'larger than maximum allowed limit 4G.'),
                ({'gigabytes': 7}, 'Requested volume or snapshot exceeds '
                 'allowed gigabytes quota. Requested 5G, quota is 7G and '
                 '5G has been consumed.'),
                ({'snapshots': 0}, 'Maximum number of snapshots allowed (0) '
                 'exceeded'),
                ({'volumes_gold': 0}, "Maximum number of volumes allowed "
                 "(0) exceeded for quota 'volumes_gold'.")):
            self.app.put_json(path, {'quota_set': limits}, headers=ADMIN)
            self.assertEqual(message, self.fault(
                self.accept(transfer, expect=413), 413))
            self.app.delete(path, headers=ADMIN)
            self.assertEqual('awaiting-transfer', self.status_of(
                models.Volume, volume_id)['status'])
            self.assertEqual(('project-a', 'user-a'),
                             self.owner_of_consumer(snapshot_id))
            self.assertFalse(self.status_of(models.Transfer,
                                            transfer['id'])['deleted'])
            self.assertEqual({'volumes': 1, 'snapshots': 0,
                              'gigabytes': 5}, self.usage('project-b'))
        self.accept(transfer)
        self.assertEqual({'volumes': 2, 'snapshots': 1, 'gigabytes': 15},
                         self.usage('project-b'))

    def test_a_snapshot_no_longer_available_fails_the_whole_accept(self):
        volume_id, [first, second] = self.volume(snapshots=2)
        transfer = self.offer(volume_id).json['transfer']
        # Deleting a snapshot is not prevented by the offer (nor in
        # Cinder); the accept then refuses, whatever it has done so far.
        self.app.delete('/v3/snapshots/%s' % second, headers=self.owner,
                        status=202)
        self.assertEqual(
            'Invalid snapshot: Transfer %s: Snapshot %s is not in the '
            'expected available state.' % (transfer['id'], second),
            self.fault(self.accept(transfer, expect=400), 400))
        self.assertEqual('project-a', self.status_of(
            models.Snapshot, first)['project_id'])
        self.assertEqual(('awaiting-transfer', 'project-a'), tuple(
            self.status_of(models.Volume, volume_id)[k]
            for k in ('status', 'project_id')))
        self.assertFalse(self.status_of(models.Transfer,
                                        transfer['id'])['deleted'])

    def test_a_volume_reset_meanwhile_is_refused(self):
        volume_id, _ = self.volume()
        transfer = self.offer(volume_id).json['transfer']
        self.app.post_json('/v3/admin/volumes/%s/action' % volume_id,
                           {'os-reset_status': {'status': 'error'}},
                           headers=ADMIN, status=202)
        self.assertEqual(
            'Invalid volume: Transfer %s: Volume id %s expected in '
            'awaiting-transfer state.' % (transfer['id'], volume_id),
            self.fault(self.accept(transfer, expect=400), 400))
        # Withdrawn all the same, as in Cinder; the volume is left as is.
        self.app.delete('%s/%s' % (ROUTES[0], transfer['id']),
                        headers=OWNER, status=202)
        self.assertEqual('error', self.status_of(models.Volume,
                                                 volume_id)['status'])

    def test_a_volume_deleted_takes_its_transfer_along(self):
        volume_id, _ = self.volume()
        transfer = self.offer(volume_id).json['transfer']
        self.app.delete('/v3/admin/volumes/%s?force=true' % volume_id,
                        headers=api_fixtures.caller('admin', 'admin',
                                                    LATEST), status=202)
        # What the worker does once the backend removed it.
        engine.apply(self.context, 'delete_done',
                     objects.Volume.get_by_id(self.context, volume_id))
        self.fault(self.accept(transfer, expect=404), 404)
        self.assertEqual([], self.app.get(
            ROUTES[0] + '?all_tenants=1', headers=ADMIN).json['transfers'])

    def test_a_request_authorized_on_the_giver_cannot_act_after(self):
        """An extend by the giver that read the volume before a transfer
        was created and accepted: its compare-and-swap finds the volume
        another project's (a 404), and charges nobody."""
        if self.backend == 'sqlite':
            self.skipTest('SQLite writers hold the database from their '
                          'first statement: a transfer cannot commit '
                          "between another request's read and its write")
        volume_id, _ = self.volume()
        giver = self.make_context('project-a', 'user-a')
        taker = self.make_context('project-b', 'user-b')

        def transfer_meanwhile(volume):
            def give():
                transfer, key = transfers.create(giver, volume.id)
                transfers.accept(taker, transfer.id, key)
            test_claim_races.concurrently(lambda i: give(), count=1)

        self.assertRaises(db_exc.NotFound, volume_api.extend, giver,
                          volume_id, 2, authorize=transfer_meanwhile)
        row = self.status_of(models.Volume, volume_id)
        self.assertEqual(('available', 1, 'project-b'),
                         (row['status'], row['size'], row['project_id']))
        self.assertEqual({'volumes': 1, 'snapshots': 0, 'gigabytes': 1},
                         self.usage('project-b'))

    def test_concurrent_accepts_have_one_winner(self):
        volume_id, _ = self.volume(snapshots=1)
        transfer = self.offer(volume_id).json['transfer']
        takers = [api_fixtures.caller('taker-%d' % i, 'user-%d' % i)
                  for i in range(8)]
        answers = test_claim_races.concurrently(
            lambda i: self.accept(transfer, headers=takers[i],
                                  expect='*'), count=8)
        statuses = sorted(a.status_int for a in answers)
        self.assertEqual([202] + [404] * 7, statuses)
        [winner] = [i for i, a in enumerate(answers) if a.status_int == 202]
        for answer in answers:
            if answer.status_int == 404:
                self.assertEqual('Transfer %s could not be found.'
                                 % transfer['id'],
                                 self.fault(answer, 404))
        project = 'taker-%d' % winner
        self.assertEqual(project, self.status_of(models.Volume,
                                                 volume_id)['project_id'])
        self.assertEqual({'volumes': 1, 'snapshots': 1, 'gigabytes': 2},
                         self.usage(project))

    def test_concurrent_accept_and_delete_have_one_winner(self):
        for _ in range(3):
            volume_id, _ = self.volume()
            transfer = self.offer(volume_id).json['transfer']
            path = '%s/%s' % (ROUTES[0], transfer['id'])
            answers = test_claim_races.concurrently(
                lambda i: self.accept(transfer, expect='*') if i % 2
                else self.app.delete(path, headers=OWNER, status='*'),
                count=4)
            statuses = sorted(a.status_int for a in answers)
            self.assertEqual([202, 404, 404, 404], statuses)
            owner = self.status_of(models.Volume, volume_id)['project_id']
            accepted = self.status_of(models.Transfer,
                                      transfer['id'])['accepted']
            self.assertEqual('project-b' if accepted else 'project-a',
                             owner)
            self.assertEqual('available', self.status_of(
                models.Volume, volume_id)['status'])
