"""Volume migration between pools (os-migrate_volume, retype with
migration_policy on-demand, os-migrate_volume_completion): the move is
claimed in one transaction with the transition that starts it, both pools
stay reserved while the data is copied, and one transaction ends it."""
import errno
import os
import time

import objects
from objects import type_quota
from objects.placement import allocation_reads as alloc_reads
from objects.placement import resource_provider as rp_obj
from objects.placement import trait as trait_obj
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import volume_worker_fixture as vwf
from tests.functional.test_claim_races import concurrently
from volapi.volume import pools

ADMIN = api_fixtures.ADMIN
ADMIN_316 = dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.16'})
SMALL = 'worker-1@file#small'
BIG = 'worker-1@file#big'


def give_trait(context, pool, name):
    """Pool ``pool`` has trait ``name`` too."""
    trait_obj.create(context, name)
    provider = rp_obj.get_by_uuid(context, pools.provider_uuid(pool))
    have = {t['name'] for t in trait_obj.get_all_for_provider(
        context, provider.id)}
    trait_obj.set_for_provider(context, provider, have | {name})


class MigrationTestCase(api_fixtures.APITestCase):
    # Thick pools with room for 10 and 12 GiB.
    pool_options = {'file_pools': ['small:10', 'big:12'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=-1, snapshots=-1, gigabytes=-1)
        self.worker = self.useFixture(vwf.RunningWorker(self)).worker
        self.driver = self.worker.driver
        self.useFixture(invariant.PoolInvariant(self))

    def show(self, volume_id):
        return self.app.get('/v3/admin/volumes/%s' % volume_id,
                            headers=ADMIN).json['volume']

    def available(self, size=1, **fields):
        volume_id = self.create(size, **fields)
        return vwf.wait_for(lambda: self.show(volume_id),
                            lambda v: v['status'] == 'available')

    def create(self, size=1, **fields):
        return self.create_volume(size=size, **fields).json['volume']['id']

    def migrate(self, volume_id, status=202, headers=ADMIN, **argument):
        return self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume_id,
            {'os-migrate_volume': argument}, headers=headers, status=status)

    def settled(self, volume_id):
        return vwf.wait_for(lambda: self.show(volume_id), lambda v: v[
            'os-vol-mig-status-attr:migstat'] in ('success', 'error'))

    def held(self, consumer):
        """{pool name: DISK_GB} the consumer holds."""
        found = alloc_reads.get_for_consumer(self.context, consumer)
        if not found:
            return {}
        names = {self.pools.providers[p]: p for p in self.pools.providers}
        return {'worker-1@file#' + names[uuid]: a['resources']['DISK_GB']
                for uuid, a in found['allocations'].items()}

    def allocated(self, pool):
        return invariant.disk_gb(self.context, pool).allocated

    def path(self, volume):
        return self.driver.volume_path(self.driver_view(volume))

    def driver_view(self, volume):
        return objects.Volume.get_by_id(self.context, volume['id'])

    def block_copy(self, volume):
        """Make the worker's copy of ``volume`` wait (its data is a FIFO,
        which the copy opens and blocks on until :meth:`release`)."""
        path = self.path(volume)
        os.unlink(path)
        os.mkfifo(path)
        self.addCleanup(self.release, path, 0)
        return path

    @staticmethod
    def release(path, timeout=10.0):
        """Let the copy waiting on the FIFO ``path`` go on (once the worker
        has opened it: a writer opening first would find no reader)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except FileNotFoundError:
                return  # the copy is over and its source removed
            except OSError as e:
                if e.errno != errno.ENXIO or time.monotonic() > deadline:
                    return  # no copy waits on it (any more)
                time.sleep(0.02)
                continue
            os.close(fd)
            return


class MigrateTest(MigrationTestCase):

    def test_migrate_moves_data_and_allocation(self):
        volume = self.available(size=2)
        self.assertEqual(BIG, volume['os-vol-host-attr:host'])
        with open(self.path(volume), 'r+b') as f:
            f.write(b'kept across pools')
        old_path = self.path(volume)
        self.migrate(volume['id'], host=SMALL)
        moved = self.settled(volume['id'])
        self.assertEqual(('success', SMALL, 'available'), (
            moved['os-vol-mig-status-attr:migstat'],
            moved['os-vol-host-attr:host'], moved['status']))
        name_id = moved['os-vol-mig-status-attr:name_id']
        self.assertIsNotNone(name_id)
        new_path = self.path(moved)
        self.assertEqual(os.path.join(self.driver.pool_dir('small'),
                                      'volume-%s' % name_id), new_path)
        with open(new_path, 'rb') as f:
            self.assertEqual(b'kept across pools', f.read(17))
        vwf.wait_for(lambda: os.path.exists(old_path), lambda e: not e)
        self.assertEqual({SMALL: 2}, self.held(volume['id']))
        self.assertEqual({}, self.held(name_id))
        self.assertEqual((2, 0), (self.allocated(SMALL), self.allocated(BIG)))

    def test_scheduler_chooses_another_pool_from_3_16(self):
        volume = self.available()
        self.migrate(volume['id'], headers=ADMIN_316, host=None)
        self.assertEqual(SMALL, self.settled(volume['id'])[
            'os-vol-host-attr:host'])

    def test_a_backend_lets_the_scheduler_choose_its_pool(self):
        volume = self.available()
        self.migrate(volume['id'], host='worker-1@file')
        self.assertEqual(SMALL, self.settled(volume['id'])[
            'os-vol-host-attr:host'])

    def test_host_is_required_before_3_16(self):
        volume = self.available()
        response = self.migrate(volume['id'], status=400)
        self.assertIn("'host' is a required property",
                      self.fault(response, 400))

    def test_same_pool_is_refused(self):
        volume = self.available()
        response = self.migrate(volume['id'], status=400, host=BIG)
        self.assertIn('volume must be on another host than the '
                      'destination', self.fault(response, 400))
        self.assertEqual({BIG: 1}, self.held(volume['id']))

    def test_no_room_at_the_destination_changes_nothing(self):
        volume = self.available(size=11)
        response = self.migrate(volume['id'], status=400, host=SMALL)
        self.assertIn('No valid host was found', self.fault(response, 400))
        self.assertIn('no room for 11 GiB', self.fault(response, 400))
        shown = self.show(volume['id'])
        self.assertEqual((None, 'available'), (
            shown['os-vol-mig-status-attr:migstat'], shown['status']))
        self.assertEqual({BIG: 11}, self.held(volume['id']))

    def test_unknown_pool_is_refused(self):
        volume = self.available()
        response = self.migrate(volume['id'], status=400,
                                host='nowhere@file#pool')
        self.assertIn('not on placement', self.fault(response, 400))

    def test_a_backend_with_no_pool_that_fits_is_refused(self):
        volume = self.available()
        response = self.migrate(volume['id'], status=400,
                                host='nowhere@file')
        self.assertIn('No valid host was found', self.fault(response, 400))

    def test_only_admins_migrate(self):
        volume = self.available()
        response = self.app.post_json(
            '/v3/volumes/%s/action' % volume['id'],
            {'os-migrate_volume': {'host': SMALL}}, headers=self.owner,
            status=403)
        self.fault(response, 403)

    def test_a_volume_with_snapshots_is_not_migrated(self):
        volume = self.available()
        self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume['id']}}, headers=self.owner, status=202)
        response = self.migrate(volume['id'], status=400, host=SMALL)
        self.assertIn('must have no snapshots', self.fault(response, 400))

    def test_lock_volume_holds_it_in_maintenance(self):
        volume = self.available()
        path = self.block_copy(volume)
        self.migrate(volume['id'], host=SMALL, lock_volume=True)
        shown = self.show(volume['id'])
        self.assertEqual(('maintenance', 'migrating'), (
            shown['status'], shown['os-vol-mig-status-attr:migstat']))
        self.release(path)
        self.assertEqual('available', self.settled(volume['id'])['status'])

    def test_both_pools_stay_reserved_while_copying(self):
        volume = self.available(size=5)
        path = self.block_copy(volume)
        self.migrate(volume['id'], host=SMALL)
        shown = self.show(volume['id'])
        migration = self.driver_view(volume).migration_id
        self.assertEqual('migrating', shown['os-vol-mig-status-attr:migstat'])
        self.assertEqual({SMALL: 5}, self.held(volume['id']))
        self.assertEqual({BIG: 5}, self.held(migration))
        self.assertEqual((5, 5), (self.allocated(SMALL), self.allocated(BIG)))
        # No attach, extend or delete while the data moves.
        for action in ({'os-reserve': None},
                       {'os-extend': {'new_size': 6}}):
            self.app.post_json('/v3/volumes/%s/action' % volume['id'],
                               action, headers=self.owner, status=400)
        self.app.delete('/v3/volumes/%s' % volume['id'], headers=self.owner,
                        status=400)
        self.release(path)
        self.settled(volume['id'])
        self.assertEqual((5, 0), (self.allocated(SMALL), self.allocated(BIG)))

    def test_concurrent_creates_never_exceed_either_pool(self):
        volume = self.available(size=5)
        path = self.block_copy(volume)
        self.migrate(volume['id'], host=SMALL)
        # Free: 5 on small, 7 on big (the source stays held): 12 of 16 fit.
        statuses = concurrently(lambda i: self.create_volume(
            size=1).json['volume']['status'], count=16)
        self.assertEqual({'creating': 12, 'error': 4},
                         {s: statuses.count(s) for s in set(statuses)})
        self.assertEqual((10, 12), (self.allocated(SMALL),
                                    self.allocated(BIG)))
        self.release(path)
        self.assertEqual('success', self.settled(volume['id'])[
            'os-vol-mig-status-attr:migstat'])
        self.assertEqual((10, 7), (self.allocated(SMALL), self.allocated(BIG)))

    def test_a_failed_copy_returns_the_allocations(self):
        volume = self.available(size=3)
        os.unlink(self.path(volume))  # nothing to copy: the copy fails
        self.migrate(volume['id'], host=SMALL)
        failed = self.settled(volume['id'])
        self.assertEqual(('error', BIG, 'available'), (
            failed['os-vol-mig-status-attr:migstat'],
            failed['os-vol-host-attr:host'], failed['status']))
        self.assertEqual({BIG: 3}, self.held(volume['id']))
        self.assertEqual({}, self.held(self.driver_view(volume).migration_id))
        self.assertEqual((0, 3), (self.allocated(SMALL), self.allocated(BIG)))
        self.assertEqual([], os.listdir(self.driver.pool_dir('small')))
        # The volume can move again.
        open(os.path.join(self.driver.pool_dir('big'),
                          'volume-%s' % volume['id']), 'wb').close()
        self.migrate(volume['id'], host=SMALL)
        self.assertEqual('success', self.settled(volume['id'])[
            'os-vol-mig-status-attr:migstat'])

    def test_completion_with_error_rolls_back_a_copy_in_flight(self):
        volume = self.available(size=2)
        path = self.block_copy(volume)
        self.migrate(volume['id'], host=SMALL)
        migration = self.driver_view(volume).migration_id
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume['id'],
            {'os-migrate_volume_completion': {'new_volume': migration,
                                              'error': True}},
            headers=ADMIN, status=200)
        self.assertEqual({'save_volume_id': volume['id']}, response.json)
        self.assertEqual({BIG: 2}, self.held(volume['id']))
        self.assertEqual({}, self.held(migration))
        self.release(path)
        # The late copy is discarded, not applied.
        vwf.wait_for(lambda: os.listdir(self.driver.pool_dir('small')),
                     lambda names: names == [])
        shown = self.show(volume['id'])
        self.assertEqual(('error', BIG), (
            shown['os-vol-mig-status-attr:migstat'],
            shown['os-vol-host-attr:host']))

    def test_a_late_copy_a_peer_ended_the_move_with_is_kept(self):
        # A worker thought dead copies on while a peer re-drives the move
        # and ends it with the copy of the same name: the late worker's
        # discard must not remove the data the volume now uses.
        volume = self.available(size=2)
        self.migrate(volume['id'], host=SMALL)
        self.settled(volume['id'])
        moved = self.driver_view(volume)
        self.worker.manager._discard_copy(self.context, moved)
        self.assertTrue(os.path.exists(moved.provider_location))

    def test_completion_error_must_be_a_boolean(self):
        volume = self.available()
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume['id'],
            {'os-migrate_volume_completion': {
                'new_volume': volume['id'], 'error': 'maybe'}},
            headers=ADMIN, status=400)
        self.assertIn("'maybe'", self.fault(response, 400))

    def test_completion_names_the_migration(self):
        volume = self.available()
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume['id'],
            {'os-migrate_volume_completion': {
                'new_volume': volume['id']}}, headers=ADMIN, status=400)
        self.assertIn('is not the migration of volume',
                      self.fault(response, 400))

    def test_reset_of_the_migration_status_ends_it_on_the_source(self):
        volume = self.available(size=2)
        path = self.block_copy(volume)
        self.migrate(volume['id'], host=SMALL)
        self.app.post_json('/v3/admin/volumes/%s/action' % volume['id'],
                           {'os-reset_status': {'migration_status': 'none'}},
                           headers=ADMIN, status=202)
        self.assertEqual({BIG: 2}, self.held(volume['id']))
        self.assertEqual((0, 2), (self.allocated(SMALL), self.allocated(BIG)))
        self.release(path)
        vwf.wait_for(lambda: os.listdir(self.driver.pool_dir('small')),
                     lambda names: names == [])


class RetypeMigrationTest(MigrationTestCase):
    pool_options = dict(MigrationTestCase.pool_options)

    def setUp(self):
        super().setUp()
        give_trait(self.context, SMALL, 'CUSTOM_FAST')  # only small is fast
        self.fast = self.app.post_json('/v3/types', {'volume_type': {
            'name': 'fast', 'extra_specs': {'trait:CUSTOM_FAST': 'required'}}},
            headers=ADMIN).json['volume_type']['id']

    def retype(self, volume_id, policy, status=202):
        return self.app.post_json(
            '/v3/volumes/%s/action' % volume_id,
            {'os-retype': {'new_type': 'fast', 'migration_policy': policy}},
            headers=self.owner, status=status)

    def test_on_demand_migrates_to_a_pool_the_type_allows(self):
        volume = self.available(size=2)
        self.assertEqual(BIG, volume['os-vol-host-attr:host'])
        self.retype(volume['id'], 'on-demand')
        moved = self.settled(volume['id'])
        self.assertEqual((SMALL, self.fast, 'available'), (
            moved['os-vol-host-attr:host'], self.driver_view(
                volume).volume_type_id, moved['status']))
        self.assertEqual('fast', moved['volume_type'])
        self.assertEqual({SMALL: 2}, self.held(volume['id']))

    def test_on_demand_moves_the_counts_to_the_new_type(self):
        volume = self.available(size=2)
        self.retype(volume['id'], 'on-demand')
        self.settled(volume['id'])
        self.assertEqual([], type_quota.drift(self.context))
        self.assertEqual({'volumes': 1, 'snapshots': 0, 'gigabytes': 2},
                         type_quota.reported_usage(
                             self.context, self.project, [self.fast])[
                                 self.fast])

    def test_on_demand_into_a_full_type_moves_nothing(self):
        self.app.put_json('/v3/os-quota-sets/%s' % self.project,
                          {'quota_set': {'gigabytes_fast': 1}},
                          headers=ADMIN)
        volume = self.available(size=2)
        self.assertIn('allowed gigabytes_fast quota', self.fault(
            self.retype(volume['id'], 'on-demand', status=413), 413))
        self.assertEqual((BIG, None, 'available'), (
            self.show(volume['id'])['os-vol-host-attr:host'],
            self.show(volume['id'])['os-vol-mig-status-attr:migstat'],
            self.show(volume['id'])['status']))
        self.assertEqual({BIG: 2}, self.held(volume['id']))

    def test_never_refuses_a_retype_that_needs_a_move(self):
        volume = self.available()
        response = self.retype(volume['id'], 'never', status=400)
        self.assertIn("needs a migration", self.fault(response, 400))
        self.assertEqual(BIG, self.show(volume['id'])['os-vol-host-attr:host'])

    def test_a_pool_with_the_traits_retypes_in_place(self):
        volume = self.available(volume_type='fast')
        self.assertEqual(SMALL, volume['os-vol-host-attr:host'])
        self.app.post_json('/v3/types', {'volume_type': {'name': 'plain'}},
                           headers=ADMIN)
        self.app.post_json(
            '/v3/volumes/%s/action' % volume['id'],
            {'os-retype': {'new_type': 'plain'}}, headers=self.owner,
            status=202)
        retyped = vwf.wait_for(lambda: self.show(volume['id']),
                               lambda v: v['volume_type'] == 'plain')
        self.assertEqual((SMALL, None), (
            retyped['os-vol-host-attr:host'],
            retyped['os-vol-mig-status-attr:migstat']))
