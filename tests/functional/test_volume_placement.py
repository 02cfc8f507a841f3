"""Volumes on placement: pools as providers, scheduling, claims written
with the state change that needs them, user messages."""
import sqlalchemy as sa

from db import models
from db import session
from db import writes as db_writes
from objects.placement import aggregate as agg_obj
from objects.placement import allocation_reads as alloc_reads
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from tests import fixtures as volapi_fixtures
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import volume_worker_fixture as vwf
from volapi.volume import pools

ADMIN = api_fixtures.ADMIN
ROOT = 'worker-1@file'


def host(pool):
    return '%s#%s' % (ROOT, pool)


class PlacementTestCase(api_fixtures.APITestCase):
    # Two pools with room for 10 and 30 GiB, thick (allocation ratio 1).
    pool_options = {'file_pools': ['small:10', 'big:30'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        # Quota is tested on its own: here it stays out of the way.
        self.config.set('quota', volumes=-1, snapshots=-1, gigabytes=-1)

    def create(self, size=1, expect=202, headers=None, **fields):
        return self.create_volume(headers=headers, expect=expect, size=size,
                                  **fields)

    def allocation(self, consumer):
        return alloc_reads.get_for_consumer(self.context, consumer)


class PoolsTest(PlacementTestCase):

    def test_pools_are_children_of_the_backend(self):
        root = rp_obj.get_by_uuid(self.context, pools.provider_uuid(ROOT))
        self.assertEqual(ROOT, root.name)
        for pool, total in (('small', 10), ('big', 30)):
            provider = rp_obj.get_by_uuid(self.context,
                                          pools.provider_uuid(host(pool)))
            self.assertEqual((host(pool), root.uuid, root.uuid),
                             (provider.name, provider.parent_provider_uuid,
                              provider.root_provider_uuid))
            self.assertEqual((total, 0, 1.0, 0), tuple(
                invariant.disk_gb(self.context, host(pool))))
            traits = {t['name'] for t in trait_obj.get_all_for_provider(
                self.context, provider.id)}
            self.assertEqual({'CUSTOM_VOLAPI_BACKEND_FILE',
                              pools.THIN_TRAIT, pools.MULTIATTACH_TRAIT},
                             traits)
            self.assertEqual([pools.zone_aggregate('nova')],
                             agg_obj.get_for_provider(self.context,
                                                      provider.id))

    def test_report_changes_only_what_changed(self):
        provider = rp_obj.get_by_uuid(self.context,
                                      pools.provider_uuid(host('small')))
        self.pools.reporter.report()
        self.assertEqual(provider.generation, rp_obj.get_by_uuid(
            self.context, provider.uuid).generation)
        self.config.set('volume', reserved_percentage=10,
                        max_over_subscription_ratio=2.0)
        self.pools.reporter.report()
        self.assertEqual((10, 1, 2.0, 0), tuple(
            invariant.disk_gb(self.context, host('small'))))

    def test_every_pool_is_a_provider(self):
        names = {rp.name for rp in rp_obj.get_all_by_filters(self.context)}
        self.assertEqual({ROOT, host('small'), host('big')}, names)


class ScheduleTest(PlacementTestCase):

    def test_most_free_pool_first_and_claimed(self):
        volume = self.create(size=4).json['volume']
        row = self.app.get('/v3/volumes/%s' % volume['id'],
                           headers=ADMIN).json['volume']
        self.assertEqual(host('big'), row['os-vol-host-attr:host'])
        held = self.allocation(volume['id'])
        self.assertEqual(
            {pools.provider_uuid(host('big')): {pools.DISK_GB: 4}},
            {rp: a['resources'] for rp, a in held['allocations'].items()})
        self.assertEqual((self.project, 'user-a'),
                         (held['project_id'], held['user_id']))
        self.assertEqual(4, invariant.disk_gb(self.context,
                                              host('big')).allocated)

    def test_least_free_weigher_packs(self):
        self.config.set('volume', pool_weigher='least_free')
        volume = self.create(size=4).json['volume']
        self.assertIn(pools.provider_uuid(host('small')),
                      self.allocation(volume['id'])['allocations'])

    def test_full_pools_are_skipped(self):
        self.create(size=25)  # big: 5 left, small: 10
        self.create(size=8)   # only small has room
        volume = self.create(size=5).json['volume']  # big again
        self.assertIn(pools.provider_uuid(host('big')),
                      self.allocation(volume['id'])['allocations'])

    def test_shared_rows_are_taken_by_the_last_statements(self):
        # Every create of the project queues on its usage rows, and every
        # create on the pool on its provider, each until the commit: the
        # volume's rows go in before them. On PostgreSQL the volume's rows
        # ride in the project's usage swap, and the allocation's in the
        # provider's.
        self.create(size=1)  # the project's and user's records exist
        statements = volapi_fixtures.statements_sent(
            lambda: self.create(size=1, metadata={'k': 'v'}))
        first = next(i for i, s in enumerate(statements)
                     if 'UPDATE quota_usages SET' in s)
        inserts = ('INSERT INTO volumes ', 'INSERT INTO volume_metadata ',
                   'INSERT INTO workers ')
        if self.backend == 'postgresql':
            for insert in inserts:
                self.assertIn(insert, statements[first])
            # BEGIN and COMMIT aside: the type's read; the usage swap,
            # the usage of the type, the provider's lock, its swap.
            self.assertEqual(1, first, statements[:first])
            self.assertEqual(4, len(statements[first:]))
            self.assertIn('INSERT INTO allocations', statements[-1])
        else:
            for insert in inserts:
                self.assertTrue(any(s.startswith(insert)
                                    for s in statements[:first]), insert)
        volume = self.app.get('/v3/volumes/%s' % self.create(
            size=1, metadata={'a': '1', 'b': '2'}).json['volume']['id'],
            headers=self.owner).json['volume']
        self.assertEqual({'a': '1', 'b': '2'}, volume['metadata'])
        # A type of its own: every create of it writes the type's row (a
        # delete of the type conflicts with it), as its last statement.
        self.app.post_json('/v3/types', {'volume_type': {'name': 'gold'}},
                           headers=ADMIN)
        statements = volapi_fixtures.statements_sent(
            lambda: self.create(size=1, volume_type='gold'))
        self.assertTrue(statements[-1].startswith('UPDATE volume_types'),
                        statements[-1])

    def test_rows_past_what_a_swap_carries_go_in_before_it(self):
        # More metadata rows than db.writes.MAX_CARRIED: every insert is
        # made apart, before the usage swap, on every backend.
        metadata = {'k%02d' % i: 'v' for i in range(db_writes.MAX_CARRIED)}
        self.create(size=1)
        made = []
        statements = volapi_fixtures.statements_sent(
            lambda: made.append(self.create(size=1, metadata=metadata)))
        first = next(i for i, s in enumerate(statements)
                     if 'UPDATE quota_usages SET' in s)
        self.assertNotIn('INSERT INTO', statements[first])
        for insert in ('INSERT INTO volumes ', 'INSERT INTO volume_metadata ',
                       'INSERT INTO workers '):
            self.assertTrue(any(s.startswith(insert)
                                for s in statements[:first]), insert)
        self.assertEqual(metadata, self.app.get(
            '/v3/volumes/%s' % made[0].json['volume']['id'],
            headers=self.owner).json['volume']['metadata'])

    def test_no_pool_with_room_leaves_the_volume_in_error(self):
        volume = self.create(size=31).json['volume']
        self.assertEqual('error', volume['status'])
        self.assertIsNone(self.allocation(volume['id']))
        messages = self.app.get('/v3/messages', headers=api_fixtures.caller(
            self.project, version='3.3')).json['messages']
        self.assertEqual(1, len(messages))
        self.assertEqual(
            ('VOLUME', volume['id'], 'VOLUME_VOLUME_001_003', 'ERROR',
             'schedule allocate volume:Could not find any available '
             'weighted backend.'),
            tuple(messages[0][k] for k in (
                'resource_type', 'resource_uuid', 'event_id',
                'message_level', 'user_message')))
        # Before 3.3 there are no messages; another project sees none.
        self.app.get('/v3/messages', headers=self.owner, status=404)
        self.assertEqual([], self.app.get(
            '/v3/messages', headers=api_fixtures.caller(
                'project-b', version='3.3')).json['messages'])
        url = '/v3/messages/%s' % messages[0]['id']
        self.app.delete(url, headers=api_fixtures.caller(
            self.project, version='3.3'), status=204)
        self.app.get(url, headers=api_fixtures.caller(
            self.project, version='3.3'), status=404)

    def test_type_traits_are_required(self):
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'fast', 'extra_specs': {
                'trait:CUSTOM_FAST': 'required'}}}, headers=ADMIN)
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'filed', 'extra_specs': {
                'volume_backend_name': 'file'}}}, headers=ADMIN)
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'elsewhere', 'extra_specs': {
                'volume_backend_name': 'ceph'}}}, headers=ADMIN)
        # No pool has CUSTOM_FAST, nor the ceph backend's trait.
        for name in ('fast', 'elsewhere'):
            self.assertEqual('error', self.create(
                volume_type=name).json['volume']['status'])
        self.assertEqual('creating', self.create(
            volume_type='filed').json['volume']['status'])
        trait_obj.create(self.context, 'CUSTOM_FAST')
        small = rp_obj.get_by_uuid(self.context,
                                   pools.provider_uuid(host('small')))
        trait_obj.set_for_provider(self.context, small, [
            'CUSTOM_FAST', 'CUSTOM_VOLAPI_BACKEND_FILE'])
        volume = self.create(volume_type='fast').json['volume']
        self.assertIn(small.uuid,
                      self.allocation(volume['id'])['allocations'])

    def test_another_availability_zone_has_no_pool(self):
        self.config.set('api', storage_availability_zone='az2')
        self.assertEqual('error', self.create().json['volume']['status'])


class LifeTest(PlacementTestCase):
    """With a running worker: what each step holds."""

    def setUp(self):
        super().setUp()
        self.useFixture(vwf.RunningWorker(self))

    def wait(self, volume_id, status):
        return vwf.wait_for(
            lambda: self.app.get('/v3/volumes/%s' % volume_id,
                                 headers=self.owner).json['volume'],
            lambda v: v['status'] == status)

    def wait_gone(self, path):
        vwf.wait_for(lambda: self.app.get(path, headers=self.owner,
                                          expect_errors=True).status_int,
                     lambda status: status == 404)

    def test_create_extend_snapshot_clone_delete(self):
        snapshots = []
        volume = self.create(size=2).json['volume']
        self.wait(volume['id'], 'available')
        self.app.post_json('/v3/volumes/%s/action' % volume['id'],
                           {'os-extend': {'new_size': 3}},
                           headers=self.owner, status=202)
        # The pool holds the new size from the request on.
        self.assertEqual(3, invariant.disk_gb(self.context,
                                              host('big')).allocated)
        self.wait(volume['id'], 'available')
        statements = volapi_fixtures.statements_sent(
            lambda: snapshots.append(self.app.post_json(
                '/v3/snapshots', {'snapshot': {'volume_id': volume['id']}},
                headers=self.owner, status=202).json['snapshot']))
        snapshot = snapshots[0]
        self.assertEqual(6, invariant.disk_gb(self.context,
                                              host('big')).allocated)
        # As a volume's: the snapshot's rows before the shared rows.
        verbs = [' '.join(s.split()[:3]) for s in statements]
        self.assertLess(verbs.index('INSERT INTO snapshots'),
                        verbs.index('UPDATE quota_usages SET'))
        vwf.wait_for(lambda: self.app.get(
            '/v3/snapshots/%s' % snapshot['id'],
            headers=self.owner).json['snapshot']['status'],
            lambda status: status == 'available')
        # A volume from the snapshot goes to its pool, though 'small' has
        # more room now.
        clone = self.create(size=3, snapshot_id=snapshot['id']).json[
            'volume']
        self.assertIn(pools.provider_uuid(host('big')),
                      self.allocation(clone['id'])['allocations'])
        self.wait(clone['id'], 'available')
        self.app.delete('/v3/volumes/%s' % clone['id'], headers=self.owner,
                        status=202)
        self.app.delete('/v3/snapshots/%s' % snapshot['id'],
                        headers=self.owner, status=202)
        self.wait_gone('/v3/snapshots/%s' % snapshot['id'])
        self.wait_gone('/v3/volumes/%s' % clone['id'])
        self.app.delete('/v3/volumes/%s' % volume['id'],
                        headers=self.owner, status=202)
        self.wait_gone('/v3/volumes/%s' % volume['id'])
        self.assertEqual(0, invariant.disk_gb(self.context,
                                              host('big')).allocated)
        self.assertIsNone(self.allocation(volume['id']))

    def test_extend_beyond_the_pool_is_refused_up_front(self):
        volume = self.create(size=25).json['volume']
        self.wait(volume['id'], 'available')
        message = self.fault(self.app.post_json(
            '/v3/volumes/%s/action' % volume['id'],
            {'os-extend': {'new_size': 31}}, headers=self.owner,
            status=400), 400)
        self.assertIn('no room for 31 GiB', message)
        self.assertEqual('available', self.wait(volume['id'],
                                                'available')['status'])
        self.assertEqual(25, invariant.disk_gb(self.context,
                                               host('big')).allocated)

    def test_reset_status_gives_back_an_unfinished_extend(self):
        volume = self.create(size=2).json['volume']
        self.wait(volume['id'], 'available')
        with session.writer.connection.using(self.context) as conn:
            # An extend whose worker never ran: 'extending', holding 5.
            conn.execute(sa.update(models.Volume.__table__).where(
                models.Volume.__table__.c.id == volume['id']).values(
                status='extending'))
        from volapi.volume import claims
        import objects
        with session.writer.connection.using(self.context):
            claims.resize_volume(self.context, objects.Volume.get_by_id(
                self.context, volume['id']), 5)
        self.app.post_json('/v3/admin/volumes/%s/action' % volume['id'],
                           {'os-reset_status': {'status': 'available'}},
                           headers=ADMIN, status=202)
        self.assertEqual(2, invariant.disk_gb(self.context,
                                              host('big')).allocated)


class GroupScheduleTest(PlacementTestCase):
    """A group's first volume goes to a pool serving every type of the
    group: the group's later volumes, of its other types, go there too."""

    def test_the_pool_serves_every_type(self):
        trait_obj.create(self.context, 'CUSTOM_FAST')
        # The small pool serves the fast type; the big one (more room, so
        # the weigher's first choice for a plain type) does not.
        small = rp_obj.get_by_uuid(self.context,
                                   pools.provider_uuid(host('small')))
        trait_obj.set_for_provider(self.context, small, [
            'CUSTOM_FAST', 'CUSTOM_VOLAPI_BACKEND_FILE'])
        for name, specs in (('plain', {}),
                            ('fast', {'trait:CUSTOM_FAST': 'required'})):
            self.app.post_json('/v3/types', {'volume_type': {
                'name': name, 'extra_specs': specs}}, headers=ADMIN)
        self.assertIn(pools.provider_uuid(host('big')), self.allocation(
            self.create(volume_type='plain').json['volume']['id'])[
            'allocations'])
        admin = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.13'})
        self.app.post_json('/v3/group_types', {'group_type': {
            'name': 'gt'}}, headers=admin)
        user = api_fixtures.caller(self.project, version='3.13')
        group_id = self.app.post_json('/v3/groups', {'group': {
            'group_type': 'gt', 'volume_types': ['plain', 'fast']}},
            headers=user).json['group']['id']
        first = self.create(volume_type='plain', group_id=group_id,
                            headers=user).json['volume']
        self.assertIn(small.uuid,
                      self.allocation(first['id'])['allocations'])
        second = self.create(volume_type='fast', group_id=group_id,
                             headers=user).json['volume']
        self.assertIn(small.uuid,
                      self.allocation(second['id'])['allocations'])
