"""A worker whose pools changed reshapes its provider tree at start-up
(volapi.volume.reshape): the allocations of volumes and snapshots follow
their data to the pool holding it, the volume rows name that pool, with one
write; ``volapi-manage placement reshape`` does the same offline."""
import os
import subprocess
import sys
import threading
import uuid

import fixtures
import sqlalchemy as sa

from db import models
from db import session
from objects.placement import allocation as alloc_obj
from objects.placement import allocation_reads as alloc_reads
from objects.placement import inventory as inv_obj
from objects.placement import resource_provider as rp_obj
from tests import base
from tests import fixtures as volapi_fixtures
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import volume_worker_fixture as vwf
from volapi import context as volapi_context
from volapi.volume import pools
from volapi.volume import reshape
from volapi.volume import worker as volume_worker
from volapi.volume.drivers import file as file_driver

ROOT = 'worker-1@file'
TWO_POOLS = {'file_pools': ['a:100', 'b:100'],
             'max_over_subscription_ratio': 1.0}
VOLUMES = models.Volume.__table__
SNAPSHOTS = models.Snapshot.__table__
PROVIDERS = models.ResourceProvider.__table__
CONSUMERS = models.Consumer.__table__


def host(pool):
    return '%s#%s' % (ROOT, pool)


class ReshapeTestCase(api_fixtures.APITestCase):
    """Volumes made by a worker on the one pool of an unconfigured file
    driver (``worker-1@file#file``: files right in volumes_dir)."""

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))
        self.config.set('quota', volumes=-1, snapshots=-1, gigabytes=-1)
        self.volumes_dir = self.useFixture(fixtures.TempDir()).path
        self.config.set('volume', volumes_dir=self.volumes_dir)
        self.config.set(host='worker-1')
        self.worker = None

    # -- the worker ----------------------------------------------------------
    def start_worker(self):
        self.worker = volume_worker.VolumeWorker(self.config.conf).start(
            unclaimed_timeout=0)
        self.addCleanup(self.stop_worker)
        return self.worker

    def stop_worker(self):
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def reporter(self, driver=None):
        driver = driver or file_driver.FileDriver(self.config.conf)
        driver.do_setup()
        return pools.PoolReporter(self.context, self.config.conf, driver,
                                  ROOT), driver

    # -- volumes ---------------------------------------------------------------
    def statuses(self, table, ids):
        with session.reader.connection.using(self.context) as conn:
            return dict(conn.execute(sa.select(table.c.id, table.c.status)
                                     .where(table.c.id.in_(ids))).all())

    def wait_all(self, table, ids, status='available'):
        vwf.wait_for(lambda: self.statuses(table, ids),
                     lambda found: set(found.values()) == {status},
                     timeout=120)

    def populate(self, count, snapshot_every=4):
        """``count`` volumes of 1 GiB and a snapshot of every
        ``snapshot_every``-th, made by the running worker through the API;
        ({volume id: [snapshot ids]})."""
        ids = [self.create_volume().json['volume']['id']
               for _ in range(count)]
        self.wait_all(VOLUMES, ids)
        made = {volume_id: [] for volume_id in ids}
        for volume_id in ids[::snapshot_every]:
            made[volume_id].append(self.app.post_json(
                '/v3/snapshots', {'snapshot': {'volume_id': volume_id}},
                headers=self.owner, status=202).json['snapshot']['id'])
        self.wait_all(SNAPSHOTS, [s for snaps in made.values()
                                  for s in snaps])
        return made

    def move_files(self, made, pool):
        """Move the files of the volumes ``made`` (and their snapshots')
        into ``pool``'s directory, as an operator splitting a pool does."""
        target = os.path.join(self.volumes_dir, pool)
        os.makedirs(target, exist_ok=True)
        for volume_id, snapshot_ids in made.items():
            for name in ['volume-%s' % volume_id] + [
                    'snapshot-%s' % s for s in snapshot_ids]:
                os.rename(os.path.join(self.volumes_dir, name),
                          os.path.join(target, name))

    # -- placement ---------------------------------------------------------------
    def held(self, consumer):
        """{provider name: DISK_GB} the consumer holds."""
        record = alloc_reads.get_for_consumer(self.context, consumer)
        names = {p.uuid: p.name for p in
                 rp_obj.get_all_by_filters(self.context)}
        return {names[rp]: held['resources'][pools.DISK_GB]
                for rp, held in (record or {'allocations': {}})[
                    'allocations'].items()}

    def generations(self):
        with session.reader.connection.using(self.context) as conn:
            return dict(conn.execute(sa.select(PROVIDERS.c.name,
                                               PROVIDERS.c.generation)).all())

    def row(self, table, ident):
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(sa.select(table).where(
                table.c.id == ident)).mappings().one()

    def assert_where_the_data_is(self, made, moved):
        """Every volume and snapshot of ``made`` is on pool b if in
        ``moved``, else on a (the flat files count as the first pool's):
        its allocation, its volume's host and its provider_location."""
        for volume_id, snapshot_ids in made.items():
            pool = 'b' if volume_id in moved else 'a'
            directory = os.path.join(self.volumes_dir, pool) \
                if pool == 'b' else self.volumes_dir
            volume = self.row(VOLUMES, volume_id)
            self.assertEqual(
                (host(pool), {host(pool): 1},
                 os.path.join(directory, 'volume-%s' % volume_id)),
                (volume['host'], self.held(volume_id),
                 volume['provider_location']))
            for snapshot_id in snapshot_ids:
                self.assertEqual(
                    ({host(pool): 1}, os.path.join(
                        directory, 'snapshot-%s' % snapshot_id)),
                    (self.held(snapshot_id), self.row(
                        SNAPSHOTS, snapshot_id)['provider_location']))
        self.assertEqual([], invariant.violations(self.context))
        names = set(self.generations())
        self.assertEqual({ROOT, host('a'), host('b')}, names)


class StartUpReshapeTest(ReshapeTestCase):

    def test_one_pool_split_in_two_with_100_volumes(self):
        self.start_worker()
        made = self.populate(100)
        self.stop_worker()
        self.config.set('volume', **TWO_POOLS)
        moved = dict(list(made.items())[::2])
        self.move_files(moved, 'b')
        self.start_worker()
        self.assert_where_the_data_is(made, moved)
        # Every snapshot's volume (each 4th) is among those moved.
        self.assertEqual((50 + 25, 50), (
            invariant.disk_gb(self.context, host('b')).allocated,
            invariant.disk_gb(self.context, host('a')).allocated))
        # The worker serves them where they are now: a moved volume and
        # its snapshot are deleted from pool b.
        volume_id = next(iter(moved))
        for snapshot_id in moved[volume_id]:
            self.app.delete('/v3/snapshots/%s' % snapshot_id,
                            headers=self.owner, status=202)
            vwf.wait_for(lambda: self.statuses(SNAPSHOTS, [snapshot_id]),
                         lambda found: not found or found[snapshot_id] ==
                         'deleted')
        self.app.delete('/v3/volumes/%s' % volume_id, headers=self.owner,
                        status=202)
        vwf.wait_for(lambda: self.row(VOLUMES, volume_id)['deleted'],
                     bool)
        self.assertEqual([], [n for n in os.listdir(os.path.join(
            self.volumes_dir, 'b')) if volume_id in n])

    def test_upgrade_from_inventory_on_the_backend_provider(self):
        self.start_worker()
        made = self.populate(8)
        self.stop_worker()
        root = rp_obj.get_by_uuid(self.context, pools.provider_uuid(ROOT))
        child = rp_obj.get_by_uuid(self.context,
                                   pools.provider_uuid(host('file')))
        # The layout of before pools: DISK_GB and every allocation on the
        # backend's provider, no pool provider.
        reporter, driver = self.reporter()
        inv_obj.set_inventories(self.context, root, root.generation, {
            pools.DISK_GB: reporter.inventory(driver.get_pools()[0])})
        consumers = list(made) + [s for snaps in made.values() for s in snaps]
        alloc_obj.replace_all(self.context, [alloc_obj.ConsumerAllocations(
            consumer, {root.uuid: {pools.DISK_GB: 1}},
            project_id=self.project, user_id='user-a')
            for consumer in consumers])
        # One from before consumer records, too.
        legacy = next(iter(made))
        with session.writer.connection.using(self.context) as conn:
            conn.execute(CONSUMERS.delete().where(
                CONSUMERS.c.uuid == legacy))
        inv_obj.delete_all(self.context, rp_obj.get_by_uuid(
            self.context, child.uuid))
        rp_obj.destroy(self.context, rp_obj.get_by_uuid(self.context,
                                                        child.uuid))
        self.start_worker()
        for consumer in consumers:
            self.assertEqual({host('file'): 1}, self.held(consumer))
        self.assertEqual([], inv_obj.get_all_by_provider(
            self.context, rp_obj.get_by_uuid(self.context, root.uuid).id))
        self.assertEqual(len(consumers), invariant.disk_gb(
            self.context, host('file')).allocated)
        self.assertEqual({ROOT, host('file')}, set(self.generations()))
        # It has a record now, of placement's incomplete owner.
        self.assertEqual(
            (self.config.conf.placement.incomplete_consumer_project_id, 1),
            tuple(alloc_reads.get_for_consumer(self.context, legacy)[k]
                  for k in ('project_id', 'consumer_generation')))

    def test_nothing_to_do_writes_nothing(self):
        self.config.set('volume', **TWO_POOLS)
        self.start_worker()
        made = self.populate(6)
        self.stop_worker()
        before = self.generations()
        reporter, driver = self.reporter()
        self.assertIsNone(reshape.reshape_needed(self.context, reporter,
                                                 driver))
        self.start_worker()
        self.assertEqual(before, self.generations())
        self.assertEqual(len(made), len([
            v for v in made if self.held(v) == {self.row(VOLUMES, v)[
                'host']: 1}]))

    def test_data_moved_between_pools_of_the_same_shape(self):
        self.config.set('volume', **TWO_POOLS)
        self.start_worker()
        made = self.populate(6, snapshot_every=2)
        self.stop_worker()
        on_a = {v: s for v, s in made.items()
                if self.row(VOLUMES, v)['host'] == host('a')}
        self.assertTrue(on_a)
        for volume_id, snapshot_ids in on_a.items():
            for name in ['volume-%s' % volume_id] + [
                    'snapshot-%s' % s for s in snapshot_ids]:
                os.rename(os.path.join(self.volumes_dir, 'a', name),
                          os.path.join(self.volumes_dir, 'b', name))
        reporter, driver = self.reporter()
        self.assertIn('data in another pool', reshape.reshape_needed(
            self.context, reporter, driver))
        self.start_worker()
        for volume_id, snapshot_ids in made.items():
            self.assertEqual((host('b'), {host('b'): 1}), (
                self.row(VOLUMES, volume_id)['host'], self.held(volume_id)))
            for snapshot_id in snapshot_ids:
                self.assertEqual({host('b'): 1}, self.held(snapshot_id))
        self.assertEqual(0, invariant.disk_gb(self.context,
                                              host('a')).allocated)

    def test_a_volume_being_migrated_stays_as_it_is(self):
        self.config.set('volume', **TWO_POOLS)
        self.start_worker()
        made = self.populate(6, snapshot_every=10)
        self.stop_worker()
        on_a = [v for v in made if self.row(VOLUMES, v)['host'] == host('a')
                and not made[v]]
        moving, moved = on_a[0], on_a[1]
        # The move is claimed (no worker copies it): the volume holds b, its
        # migration a.
        self.app.post_json('/v3/admin/volumes/%s/action' % moving,
                           {'os-migrate_volume': {'host': host('b')}},
                           headers=api_fixtures.ADMIN, status=202)
        migration = self.row(VOLUMES, moving)['migration_id']
        before = (self.held(moving), self.held(migration))
        self.assertEqual(({host('b'): 1}, {host('a'): 1}), before)
        os.rename(os.path.join(self.volumes_dir, 'a', 'volume-%s' % moved),
                  os.path.join(self.volumes_dir, 'b', 'volume-%s' % moved))
        reporter, driver = self.reporter()
        self.assertIn('1 volume(s) or snapshot(s)', reshape.reshape_needed(
            self.context, reporter, driver))
        result = reshape.reshape(self.context, reporter, driver)
        self.assertEqual(['volume %s: %s -> %s' % (moved, host('a'),
                                                   host('b'))],
                         [str(m) for m in result.moves])
        self.assertEqual(before, (self.held(moving), self.held(migration)))
        self.assertEqual((host('a'), 'migrating'), tuple(
            self.row(VOLUMES, moving)[k] for k in ('host',
                                                   'migration_status')))

    def test_cluster_pools_and_cluster_names_follow(self):
        self.config.set(cluster='c1')
        # Only the cluster's pools take volumes.
        inv_obj.delete_all(self.context, rp_obj.get_by_uuid(
            self.context, pools.provider_uuid(host('file'))))
        self.start_worker()
        made = self.populate(4, snapshot_every=10)
        self.stop_worker()
        self.config.set('volume', **TWO_POOLS)
        moved = dict(list(made.items())[:2])
        self.move_files(moved, 'b')
        self.start_worker()
        for volume_id in made:
            pool = 'c1@file#%s' % ('b' if volume_id in moved else 'a')
            self.assertEqual(((pool, pool), {pool: 1}), (tuple(
                self.row(VOLUMES, volume_id)[k] for k in (
                    'host', 'cluster_name')), self.held(volume_id)))
        self.assertNotIn('c1@file#file', self.generations())

    def test_no_room_in_the_new_pools_refuses_to_start(self):
        self.start_worker()
        made = self.populate(3, snapshot_every=10)
        self.stop_worker()
        before = self.generations()
        self.config.set('volume', file_pools=['a:2'],
                        max_over_subscription_ratio=1.0)
        error = self.assertRaises(
            reshape.ReshapeFailed,
            volume_worker.VolumeWorker(self.config.conf).start)
        self.assertIn('reshape of %s failed' % ROOT, str(error))
        self.assertIn(pools.provider_uuid(host('a')), str(error))
        # Nothing moved: the pool provider made for the reshape aside,
        # placement and the volumes are as they were.
        after = self.generations()
        self.assertEqual(before, {n: g for n, g in after.items()
                                  if n != host('a')})
        for volume_id in made:
            self.assertEqual((host('file'), {host('file'): 1}), (
                self.row(VOLUMES, volume_id)['host'], self.held(volume_id)))


class _CreatingOnFirstLocate(file_driver.FileDriver):
    """A file driver that, the first time the reshape asks where a
    volume's data is, has a volume created through the API: a create
    landing between the reshape's read and its write."""

    create = None

    def locate(self, kind, resource):
        if self.create is not None:
            create, self.create = self.create, None
            create()
        return super().locate(kind, resource)


class ReshapeRaceTest(ReshapeTestCase):

    def test_create_between_read_and_write_makes_it_plan_again(self):
        self.start_worker()
        made = self.populate(4, snapshot_every=10)
        self.stop_worker()
        self.config.set('volume', **TWO_POOLS)
        created = []
        driver = _CreatingOnFirstLocate(self.config.conf)
        driver.create = lambda: created.append(
            self.create_volume().json['volume'])
        reporter, driver = self.reporter(driver)
        result = reshape.reshape(self.context, reporter, driver)
        self.assertEqual(2, result.attempts)
        self.assertEqual('creating', created[0]['status'])
        # The volume created meanwhile moved with the others.
        for volume_id in list(made) + [created[0]['id']]:
            self.assertEqual((host('a'), {host('a'): 1}), (
                self.row(VOLUMES, volume_id)['host'], self.held(volume_id)))
        self.assertEqual([host('file')], result.deleted)

    def test_out_of_attempts_it_fails_and_nothing_moved(self):
        self.start_worker()
        made = self.populate(2, snapshot_every=10)
        self.stop_worker()
        self.config.set('volume', **TWO_POOLS)
        driver = _CreatingOnFirstLocate(self.config.conf)
        driver.create = self.create_volume
        reporter, driver = self.reporter(driver)
        error = self.assertRaises(reshape.ReshapeFailed, reshape.reshape,
                                  self.context, reporter, driver, attempts=1)
        self.assertIn('still racing other writers after 1 attempts',
                      str(error))
        for volume_id in made:
            self.assertEqual((host('file'), {host('file'): 1}), (
                self.row(VOLUMES, volume_id)['host'], self.held(volume_id)))

    def test_reshape_racing_16_creates(self):
        self.start_worker()
        made = self.populate(40, snapshot_every=40)
        self.stop_worker()
        self.config.set('volume', file_pools=['a:40', 'b:40'],
                        max_over_subscription_ratio=1.0)
        self.move_files(dict(list(made.items())[::2]), 'b')
        reporter, driver = self.reporter()
        barrier = threading.Barrier(18)
        done = threading.Event()
        statuses, outcome, overfull = [], [], []

        def create():
            barrier.wait()
            statuses.append(self.create_volume().json['volume']['status'])

        def run_reshape():
            barrier.wait()
            try:
                outcome.append(reshape.reshape(
                    volapi_context.get_admin_context(), reporter, driver,
                    attempts=30))
            except reshape.ReshapeFailed as exc:
                outcome.append(exc)

        def sample():
            barrier.wait()
            context = volapi_context.get_admin_context()
            while not done.is_set():
                overfull.extend(self.overfull(context))

        threads = [threading.Thread(target=create) for _ in range(16)] + [
            threading.Thread(target=run_reshape),
            threading.Thread(target=sample)]
        for thread in threads[:-1]:
            thread.start()
        threads[-1].start()
        for thread in threads[:-1]:
            thread.join()
        done.set()
        threads[-1].join()
        self.assertIsInstance(outcome[0], reshape.Result, outcome[0])
        self.assertEqual([], overfull)
        self.assertEqual(16, len(statuses))
        # Every volume placed holds its allocation where its host says
        # (the invariant), none of the old pool is left, and the pools
        # hold exactly the live volumes and snapshots.
        self.assertEqual([], invariant.violations(self.context))
        self.assertNotIn(host('file'), self.generations())
        placed = statuses.count('creating')
        self.assertEqual(40 + 1 + placed, sum(
            invariant.disk_gb(self.context, host(p)).allocated
            for p in 'ab'))
        self.assertEqual([], self.overfull())

    def overfull(self, context=None):
        """Pools holding more than their capacity."""
        context = context or self.context
        found = []
        for provider in rp_obj.get_all_by_filters(context):
            for row in inv_obj.get_all_by_provider(context, provider.id):
                if row['allocated'] > inv_obj.capacity(row):
                    found.append((provider.name, row['allocated']))
        return found


class OfflineReshapeTest(ReshapeTestCase):

    def manage(self, *args, **volume_options):
        """volapi-manage with this test's database and [volume] options."""
        return self.command('manage', *args, **volume_options)

    def command(self, command, *args, **volume_options):
        """volapi.cmd.<command> with this test's database and [volume]
        options."""
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'volapi.conf')
        options = {'volumes_dir': self.volumes_dir}
        options.update({k: ','.join(v) if isinstance(v, list) else v
                        for k, v in volume_options.items()})
        volapi_fixtures.write_config(path, {
            None: {'host': 'worker-1', 'state_path': directory},
            'database': {'connection': self.database.url},
            'volume': options})
        return subprocess.run(
            [sys.executable, '-m', 'volapi.cmd.%s' % command,
             '--config-file', path] + list(args), capture_output=True,
            text=True, timeout=120)

    def test_offline_split_then_nothing_to_do(self):
        self.start_worker()
        made = self.populate(20)
        self.stop_worker()
        moved = dict(list(made.items())[::2])
        self.move_files(moved, 'b')
        done = self.manage('placement', 'reshape', '--backend', ROOT,
                           **TWO_POOLS)
        self.assertEqual(0, done.returncode, done.stdout + done.stderr)
        self.assertIn('pool(s) no longer reported: %s' % host('file'),
                      done.stdout)
        self.assertIn('20 volume(s), 5 snapshot(s), 0 other consumer(s) '
                      'moved in 1 attempt(s); pool providers deleted: %s'
                      % host('file'), done.stdout)
        self.assertIn('volume %s: %s -> %s' % (next(iter(moved)),
                                               host('file'), host('b')),
                      done.stdout)
        self.assert_where_the_data_is(made, moved)
        before = self.generations()
        again = self.manage('placement', 'reshape', '--backend', ROOT,
                            **TWO_POOLS)
        self.assertEqual((0, '%s: nothing to reshape\n' % ROOT),
                         (again.returncode, again.stdout), again.stderr)
        self.assertEqual(before, self.generations())
        # The worker, started with the same pools, finds nothing to do.
        self.config.set('volume', **TWO_POOLS)
        self.start_worker()
        self.assertEqual(before, self.generations())

    def test_bad_backend_and_no_room(self):
        wrong = self.manage('placement', 'reshape', '--backend', 'worker-1')
        self.assertEqual(1, wrong.returncode)
        self.assertIn('--backend must be <host or cluster>@file',
                      wrong.stdout)
        self.start_worker()
        made = self.populate(3, snapshot_every=10)
        self.stop_worker()
        full = self.manage('placement', 'reshape', '--backend', ROOT,
                           file_pools=['a:1'],
                           max_over_subscription_ratio=1.0)
        self.assertEqual(1, full.returncode, full.stdout + full.stderr)
        self.assertIn('reshape of %s failed' % ROOT, full.stdout)
        for volume_id in made:
            self.assertEqual({host('file'): 1}, self.held(volume_id))
        # volapi-volume refuses to start the same way, with the reason.
        worker = self.command('volume', file_pools=['a:1'],
                              max_over_subscription_ratio=1.0)
        self.assertEqual(1, worker.returncode, worker.stdout)
        self.assertIn('reshape of %s failed: Unable to create allocation '
                      'for \'DISK_GB\'' % ROOT, worker.stdout + worker.stderr)
        self.assertNotIn('Traceback', worker.stdout + worker.stderr)


class AllocationsOfTreeTest(base.DatabaseTestCase):
    """allocation_reads.get_for_provider_tree: what the reshape gathers."""

    def test_every_allocation_of_the_consumers_on_the_tree(self):
        inside, outside = [rp_obj.create(
            self.context, str(uuid.uuid4()), name) for name in ('in', 'out')]
        for provider in (inside, outside):
            inv_obj.set_inventories(self.context, provider, 0, {
                pools.DISK_GB: dict(total=10, reserved=0, min_unit=1,
                                    max_unit=10, step_size=1,
                                    allocation_ratio=1.0)})
        both, elsewhere = str(uuid.uuid4()), str(uuid.uuid4())
        alloc_obj.replace_all(self.context, [
            alloc_obj.ConsumerAllocations(
                both, {inside.uuid: {pools.DISK_GB: 2},
                       outside.uuid: {pools.DISK_GB: 3}},
                project_id='p', user_id='u', generation=None),
            alloc_obj.ConsumerAllocations(
                elsewhere, {outside.uuid: {pools.DISK_GB: 1}},
                project_id='p', user_id='u', generation=None)])
        found = alloc_reads.get_for_provider_tree(self.context,
                                                  [inside.uuid])
        self.assertEqual({both: alloc_reads.get_for_consumer(self.context,
                                                             both)}, found)
        self.assertEqual({inside.uuid: {pools.DISK_GB: 2},
                          outside.uuid: {pools.DISK_GB: 3}},
                         {rp: held['resources'] for rp, held in
                          found[both]['allocations'].items()})
        self.assertEqual({}, alloc_reads.get_for_provider_tree(
            self.context, [str(uuid.uuid4())]))
