"""Races on provider generations: inventory, trait and aggregate writers
against each other and against allocation writers. Every writer swaps the
provider's generation first, so the loser either sees a stale generation
(409) or, where it read the generation itself, re-reads and finds the
change that beat it (an allocation: inventory in use)."""
import threading
import time
import uuid

import sqlalchemy as sa
from oslo_db import exception as db_exc

from db import models
from db import session
from objects.placement import allocation as alloc_obj
from objects.placement import exception
from objects.placement import inventory as inv_obj
from objects.placement import resource_provider as rp_obj
from tests.functional import test_placement_base as base

DISK_GB = 2
DATA = {'total': 100, 'reserved': 0, 'min_unit': 1, 'max_unit': 100,
        'step_size': 1, 'allocation_ratio': 1.0}


def _run_together(*functions):
    """Run each function in its own thread, released at once; return what
    each returned or raised."""
    barrier = threading.Barrier(len(functions))
    results = [None] * len(functions)

    def runner(index, fn):
        barrier.wait()
        try:
            results[index] = fn()
        except Exception as exc:  # the outcome under test
            results[index] = exc

    threads = [threading.Thread(target=runner, args=(i, fn))
               for i, fn in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


class TestGenerationRaces(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider()
        self.path = '/resource_providers/%s' % self.rp['uuid']

    def context_for_thread(self):
        return self.make_context(is_admin=True)

    def test_two_inventory_writers_at_one_generation(self):
        provider = rp_obj.get_by_uuid(self.context, self.rp['uuid'])

        def writer(total):
            return lambda: inv_obj.set_inventories(
                self.context_for_thread(), provider, 0,
                {'DISK_GB': dict(DATA, total=total)})

        results = _run_together(writer(10), writer(20))
        won = [r for r in results if isinstance(r, tuple)]
        lost = [r for r in results if isinstance(
            r, exception.ConcurrentUpdateDetected)]
        self.assertEqual((1, 1), (len(won), len(lost)), results)
        generation, inventories = won[0]
        self.assertEqual(1, generation)
        shown = self.get(self.path + '/inventories').json
        self.assertEqual(1, shown['resource_provider_generation'])
        self.assertEqual(inventories[0]['total'],
                         shown['inventories']['DISK_GB']['total'])

    def test_traits_and_aggregates_writers_at_one_generation(self):
        self.put('/traits/CUSTOM_A', status=201)
        responses = _run_together(
            lambda: self.put(self.path + '/traits', {
                'traits': ['CUSTOM_A'], 'resource_provider_generation': 0}),
            lambda: self.put(self.path + '/aggregates', {
                'aggregates': [str(uuid.uuid4())],
                'resource_provider_generation': 0}))
        self.assertEqual([200, 409], sorted(r.status_int for r in responses))
        self.assertEqual(1, self.get(self.path).json['generation'])

    def test_inventory_delete_waits_for_an_open_allocation(self):
        """An allocation writer holds the provider row (generation bumped,
        allocation inserted, not committed); the inventory delete queues
        behind it and then refuses: the class is in use."""
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 100}})
        holding = threading.Event()

        def allocate():
            ctx = self.context_for_thread()
            table = models.ResourceProvider.__table__
            with session.writer.connection.using(ctx) as conn:
                rp_id = conn.execute(sa.select(table.c.id).where(
                    table.c.uuid == self.rp['uuid'])).scalar_one()
                conn.execute(table.update().where(table.c.id == rp_id)
                             .values(generation=table.c.generation + 1))
                base.insert_allocations(conn, [{
                    'resource_provider_id': rp_id,
                    'resource_class_id': DISK_GB,
                    'consumer_id': str(uuid.uuid4()), 'used': 10}])
                holding.set()
                time.sleep(0.5)
            return 'committed'

        def delete_inventory():
            holding.wait(30)
            return self.delete(self.path + '/inventories/DISK_GB',
                               status=None)

        allocated, response = _run_together(allocate, delete_inventory)
        self.assertEqual('committed', allocated)
        self.assertError(response, 409, 'placement.inventory.inuse')
        self.assertIn('DISK_GB', self.get(self.path + '/inventories').json[
            'inventories'])


class TestAllocationWritersQueue(base.PlacementTestCase):
    """A claim that waits for a provider held by another writer goes on,
    once that writer commits, with what it allocated: it fits or is refused
    in its first attempt, on every backend (on PostgreSQL the claim locks
    the provider before its compare-and-swap's snapshot is taken, so it
    neither passes on a stale usage nor fails with a serialization error
    and starts again)."""

    def _hold_and_allocate(self, rp_uuid, used, holding):
        """A writer that bumps the provider, allocates ``used`` and holds
        the row half a second before committing."""
        def run():
            ctx = self.make_context(is_admin=True)
            table = models.ResourceProvider.__table__
            with session.writer.connection.using(ctx) as conn:
                rp_id = conn.execute(sa.select(table.c.id).where(
                    table.c.uuid == rp_uuid)).scalar_one()
                conn.execute(table.update().where(table.c.id == rp_id)
                             .values(generation=table.c.generation + 1))
                base.insert_allocations(conn, [{
                    'resource_provider_id': rp_id,
                    'resource_class_id': DISK_GB,
                    'consumer_id': str(uuid.uuid4()), 'used': used}])
                holding.set()
                time.sleep(0.5)
            return 'committed'
        return run

    def _claim(self, rp_uuid, amount, holding, attempts):
        """A claim of ``amount`` that starts once the holder holds the
        provider; ``attempts`` counts its transactions."""
        def run():
            holding.wait(30)
            ctx = self.make_context(is_admin=True)
            writer = alloc_obj.AllocationWriter(ctx, [
                alloc_obj.ConsumerAllocations(
                    str(uuid.uuid4()), {rp_uuid: {'DISK_GB': amount}},
                    project_id='p', user_id='u', generation=None)])
            write = writer.write

            def counted():
                # What ended each attempt: the reason it ran again, if any.
                try:
                    write()
                except db_exc.RetryRequest as exc:
                    attempts.append(type(exc.inner_exc).__name__)
                    raise
                except Exception as exc:
                    attempts.append(type(exc).__name__)
                    raise
                attempts.append('committed')
            writer.write = counted
            alloc_obj.run(ctx, writer)
            return 'claimed'
        return run

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider()
        self.set_inventory(self.rp['uuid'], {'DISK_GB': {'total': 10}})
        # The project and user exist, so the claims insert neither.
        self.put('/allocations/%s' % uuid.uuid4(), {
            'allocations': {self.rp['uuid']: {'resources': {'DISK_GB': 1}}},
            'project_id': 'p', 'user_id': 'u', 'consumer_generation': None},
            version='1.28', status=204)
        self.usage = lambda: self.get('/resource_providers/%s/usages' % (
            self.rp['uuid'])).json['usages']['DISK_GB']

    def test_refused_by_what_the_writer_ahead_allocated(self):
        holding, attempts = threading.Event(), []
        held, claimed = _run_together(
            self._hold_and_allocate(self.rp['uuid'], 9, holding),
            self._claim(self.rp['uuid'], 1, holding, attempts))
        self.assertEqual('committed', held)
        self.assertIsInstance(
            claimed, alloc_obj.InvalidAllocationCapacityExceeded)
        # Refused in the first attempt everywhere: never a serialization
        # failure. SQLite says why in it. MySQL/MariaDB explain from the
        # transaction's snapshot, taken before the wait, where the claim
        # still fits; PostgreSQL's swap made the claim's other writes in
        # its own statement (db.writes): these two run once more to say why.
        refused = 'InvalidAllocationCapacityExceeded'
        first = {'sqlite': refused,
                 'mysql': 'ResourceProviderConcurrentUpdateDetected',
                 'postgresql': 'SwapMissed'}[self.backend]
        self.assertEqual([first] if first == refused else [first, refused],
                         attempts)
        self.assertEqual(10, self.usage())

    def test_fits_beside_what_the_writer_ahead_allocated(self):
        holding, attempts = threading.Event(), []
        held, claimed = _run_together(
            self._hold_and_allocate(self.rp['uuid'], 8, holding),
            self._claim(self.rp['uuid'], 1, holding, attempts))
        self.assertEqual(('committed', 'claimed'), (held, claimed))
        self.assertEqual(['committed'], attempts)
        self.assertEqual(10, self.usage())


class TestTreeRaces(base.PlacementTestCase):
    """Moving a subtree while children are created under it: every
    provider must end up with its parent's root."""

    ROUNDS = 4

    def test_children_created_during_a_move_follow_it(self):
        for round_ in range(self.ROUNDS):
            old_root = self.create_provider('old-%d' % round_)
            new_root = self.create_provider('new-%d' % round_)
            middle = self.create_provider('mid-%d' % round_,
                                          parent=old_root['uuid'])

            def move():
                return self.put('/resource_providers/%s' % middle['uuid'], {
                    'name': middle['name'],
                    'parent_provider_uuid': new_root['uuid']},
                    version='1.37')

            def add_child(n):
                return lambda: self.post('/resource_providers', {
                    'name': 'leaf-%d-%d' % (round_, n),
                    'parent_provider_uuid': middle['uuid']},
                    version='1.37')

            responses = _run_together(move, add_child(0), add_child(1))
            self.assertEqual([200, 200, 200],
                             [r.status_int for r in responses],
                             [r.text for r in responses])
        self._assert_roots_consistent()

    def _assert_roots_consistent(self):
        providers = {p['uuid']: p for p in self.get(
            '/resource_providers').json['resource_providers']}
        for provider in providers.values():
            parent = provider['parent_provider_uuid']
            if parent is None:
                self.assertEqual(provider['uuid'],
                                 provider['root_provider_uuid'])
            else:
                self.assertEqual(providers[parent]['root_provider_uuid'],
                                 provider['root_provider_uuid'],
                                 provider['name'])


class TestInventoryAgainstAllocations(base.PlacementTestCase):
    """Claims through the allocation API race inventory shrinks and
    deletes; afterwards no allocation may lack inventory or exceed
    capacity."""

    ROUNDS = 8

    def test_invariant_holds(self):
        rp = self.create_provider()
        path = '/resource_providers/%s/inventories' % rp['uuid']
        project = str(uuid.uuid4())

        def claim(index):
            def run():
                return self.put('/allocations/%s' % uuid.uuid4(), {
                    'allocations': {rp['uuid']: {'resources': {
                        'DISK_GB': 10}}},
                    'project_id': project, 'user_id': 'u',
                    'consumer_generation': None}, version='1.28')
            return run

        def shrink():
            generation = self.get(path).json['resource_provider_generation']
            return self.put(path, {
                'resource_provider_generation': generation,
                'inventories': {'DISK_GB': {'total': 30}}})

        def drop():
            return self.delete(path + '/DISK_GB', status=None)

        for _ in range(self.ROUNDS):
            self.set_inventory(rp['uuid'], {'DISK_GB': {'total': 50}})
            responses = _run_together(claim(0), claim(1), claim(2),
                                      shrink, drop)
            for response in responses:
                self.assertNotIsInstance(response, Exception)
                self.assertLess(response.status_int, 500, response.text)
            inventory = self.get(path).json['inventories'].get('DISK_GB')
            used = self.get('/resource_providers/%s/usages'
                            % rp['uuid']).json['usages'].get('DISK_GB', 0)
            if inventory is None:
                self.assertEqual(0, self._allocated(rp['uuid']))
            else:
                self.assertLessEqual(used, inventory['total'])
            self._free(rp['uuid'])

    def _allocated(self, rp_uuid):
        table = models.Allocation.__table__
        providers = models.ResourceProvider.__table__
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(
                table.join(providers, table.c.resource_provider_id
                           == providers.c.id)).where(
                providers.c.uuid == rp_uuid)).scalar()

    def _free(self, rp_uuid):
        listing = self.get('/resource_providers/%s/allocations'
                           % rp_uuid).json['allocations']
        for consumer in listing:
            self.delete('/allocations/%s' % consumer)
