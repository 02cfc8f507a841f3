"""Group snapshots under concurrent requests, on every backend: the
create is one transaction holding the group and each of its volumes, so
no group snapshot misses a volume of its group or outlives it, and
concurrent creates never exceed the snapshots quota; two snapshots of
one group snapshot ending at once still end it."""
import threading

import fixtures
import sqlalchemy as sa

from db import models
from db import session
import objects
from tests.functional import interleaving
from tests.functional import placement_invariant as invariant
from tests.functional import test_group_snapshots
from volapi import context as volapi_context
from volapi.volume import group_snapshots as group_snapshot_api
from volapi.volume import groups as group_api
from volapi.volume.transitions import engine

ROUNDS = 6
GROUP_SNAPSHOTS = models.GroupSnapshot.__table__
GROUPS = models.Group.__table__
SNAPSHOTS = models.Snapshot.__table__
VOLUMES = models.Volume.__table__


class GroupSnapshotRacesTest(
        test_group_snapshots.GroupSnapshotsAPITestCase):

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=-1, gigabytes=-1, groups=-1,
                        snapshots=-1)

    def at_once(self, *requests):
        """The results of ``requests`` (callables), sent at once."""
        barrier = threading.Barrier(len(requests))
        results = [None] * len(requests)

        def send(index, request):
            barrier.wait()
            results[index] = request()

        threads = [threading.Thread(target=send, args=(i, r))
                   for i, r in enumerate(requests)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results

    def count(self, query):
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(query).scalar()

    def snapshot_request(self, group_id):
        return lambda: self.snapshot_group(group_id, expect='*').status_int

    def snapshotted(self, group_id):
        """{group snapshot id: [volume ids of its snapshots]} of the
        group's live group snapshots."""
        with session.reader.connection.using(self.context) as conn:
            found = {}
            for gs_id, volume_id in conn.execute(
                    sa.select(GROUP_SNAPSHOTS.c.id, SNAPSHOTS.c.volume_id)
                    .select_from(GROUP_SNAPSHOTS.outerjoin(
                        SNAPSHOTS, SNAPSHOTS.c.group_snapshot_id ==
                        GROUP_SNAPSHOTS.c.id))
                    .where(GROUP_SNAPSHOTS.c.group_id == group_id,
                           GROUP_SNAPSHOTS.c.deleted == sa.false())):
                found.setdefault(gs_id, [])
                if volume_id:
                    found[gs_id].append(volume_id)
            return found

    def test_against_a_volume_add(self):
        for _ in range(ROUNDS):
            group_id, (first,) = self.group_with_volumes(1)
            late = self.available_volume('vt')
            added, snapped = self.at_once(
                lambda: self.update(group_id, add_volumes=late,
                                    expect='*').status_int,
                self.snapshot_request(group_id))
            self.assertEqual(202, snapped)
            self.assertIn(added, (202, 400))
            (volume_ids,), = [self.snapshotted(group_id).values()]
            # All of the group's volumes when it was taken: the first,
            # and the late one if it had joined.
            self.assertIn(sorted(volume_ids),
                          (sorted([first]), sorted([first, late])))
            if added == 400:
                self.assertEqual([first], volume_ids)

    def test_against_a_volume_remove(self):
        for _ in range(ROUNDS):
            group_id, volume_ids = self.group_with_volumes(2)
            removed, snapped = self.at_once(
                lambda: self.update(group_id, remove_volumes=volume_ids[1],
                                    expect='*').status_int,
                self.snapshot_request(group_id))
            self.assertEqual((202, 202), (removed, snapped))
            (taken,), = [self.snapshotted(group_id).values()]
            self.assertIn(sorted(taken), (sorted(volume_ids),
                                          [volume_ids[0]]))
            # Each snapshot is of a volume in the group then: the first
            # is still.
            self.assertIn(volume_ids[0], taken)

    def test_against_a_group_delete(self):
        for _ in range(ROUNDS):
            group_id, _volume_ids = self.group_with_volumes(1)
            deleted, snapped = self.at_once(
                lambda: self.delete(group_id, expect='*', **{
                    'delete-volumes': True}).status_int,
                self.snapshot_request(group_id))
            self.assertIn((deleted, snapped),
                          ((202, 404), (202, 400), (400, 202)))
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(GROUP_SNAPSHOTS.join(
                    GROUPS, GROUPS.c.id == GROUP_SNAPSHOTS.c.group_id))
                .where(GROUP_SNAPSHOTS.c.deleted == sa.false(),
                       GROUPS.c.deleted == sa.true())))
            # Nor a snapshot of a volume that is deleting.
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(SNAPSHOTS.join(
                    VOLUMES, VOLUMES.c.id == SNAPSHOTS.c.volume_id))
                .where(SNAPSHOTS.c.deleted == sa.false(),
                       VOLUMES.c.status == 'deleting')))

    def test_concurrent_creates_against_the_snapshots_quota(self):
        self.config.set('quota', snapshots=5)
        group_id, _volume_ids = self.group_with_volumes(2)
        statuses = self.at_once(*[self.snapshot_request(group_id)
                                  for _ in range(4)])
        # Two of 2 snapshots fit in 5, not a third.
        self.assertEqual(2, statuses.count(202), statuses)
        self.assertEqual(2, statuses.count(413), statuses)
        self.assertEqual(4, self.count(
            sa.select(sa.func.count()).select_from(SNAPSHOTS)
            .where(SNAPSHOTS.c.deleted == sa.false())))
        self.assertEqual((4, 6), self.usage())

    def test_delete_against_a_group_from_it(self):
        for _ in range(ROUNDS):
            group_id, _volume_ids = self.group_with_volumes(1)
            made = self.snapshot_group(group_id).json['group_snapshot']['id']
            snapshot, = self.snapshots_of(made)
            self.worker_ends(snapshot['id'], 'snapshot_create_done')
            deleted, copied = self.at_once(
                lambda: self.delete_snapshot(made, expect='*').status_int,
                lambda: self.app.post_json(
                    '/v3/groups/action', {'create-from-src': {
                        'group_snapshot_id': made}}, headers=self.user,
                    expect_errors=True).status_int)
            self.assertIn((deleted, copied),
                          ((202, 400), (202, 404), (400, 202)))
            # No volume is being made from a snapshot on its way out.
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(VOLUMES.join(
                    SNAPSHOTS, SNAPSHOTS.c.id == VOLUMES.c.snapshot_id))
                .where(VOLUMES.c.status == 'creating',
                       SNAPSHOTS.c.status == 'deleting')))

    def test_snapshots_ending_at_once_end_it(self):
        for _ in range(ROUNDS):
            group_id, _volume_ids = self.group_with_volumes(2)
            made = self.snapshot_group(group_id).json['group_snapshot']['id']
            snapshot_ids = [s['id'] for s in self.snapshots_of(made)]
            self.at_once(*[lambda s=s: self.worker_ends(
                s, 'snapshot_create_done') for s in snapshot_ids])
            self.assertEqual('available',
                             self.show_snapshot(made)['status'])
            self.delete_snapshot(made)
            self.at_once(*[lambda s=s: self.worker_ends(
                s, 'snapshot_delete_done') for s in snapshot_ids])
            self.show_snapshot(made, expect=404)


class CreateReadsAgainTest(test_group_snapshots.GroupSnapshotsAPITestCase):
    """A volume that joins or leaves the group between the create's read
    of its volumes and its transaction: the group's swap (the count) or
    the volume's (its group) refuses the stale list, and the create reads
    them again, so the group snapshot has exactly the group's volumes."""

    def read_then(self, change):
        read = objects.Group.volume_ids
        reads = []

        def read_then_change(group):
            found = read(group)
            reads.append(found)
            if len(reads) == 1:
                # Inside the request: another API process's use case.
                change()
            return found

        self.useFixture(fixtures.MonkeyPatch(
            'objects.group.Group.volume_ids', read_then_change))
        return reads

    def test_volume_added_after_the_read(self):
        group_id, (first,) = self.group_with_volumes(1)
        late = self.available_volume('vt')
        reads = self.read_then(lambda: group_api.update(
            self.context, group_id, add_volumes=late))
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        self.assertEqual(2, len(reads))
        self.assertEqual(sorted([first, late]), sorted(
            s['volume_id'] for s in self.snapshots_of(made)))

    def test_volume_removed_after_the_read(self):
        group_id, volume_ids = self.group_with_volumes(2)
        self.read_then(lambda: group_api.update(
            self.context, group_id, remove_volumes=volume_ids[1]))
        made = self.snapshot_group(group_id).json['group_snapshot']['id']
        self.assertEqual([volume_ids[0]], [
            s['volume_id'] for s in self.snapshots_of(made)])

    def test_group_deleted_after_the_read(self):
        group_id, volume_ids = self.group_with_volumes(1)
        self.read_then(lambda: group_api.delete(
            self.context, group_id, delete_volumes=True))
        response = self.snapshot_group(group_id, expect='*')
        self.assertIn(response.status_int, (400, 404))
        self.assertEqual([], group_snapshot_api.get_all(self.context))
        with session.reader.connection.using(self.context) as conn:
            self.assertEqual(0, conn.execute(
                sa.select(sa.func.count()).select_from(SNAPSHOTS)).scalar())


class InvariantHeld(test_group_snapshots.GroupSnapshotsAPITestCase):
    """The placement invariant after a create whose transaction failed
    late (the quota of its last snapshot): nothing of it stays."""

    def test_refused_create_leaves_no_claim(self):
        self.config.set('quota', snapshots=1)
        group_id, _volume_ids = self.group_with_volumes(2)
        self.snapshot_group(group_id, expect=413)
        self.assertEqual((0, 2), self.usage())
        self.assertEqual([], invariant.violations(self.context))
        self.assertEqual([], group_snapshot_api.get_all(self.context))


class CreateWaitingOnAnAddTest(interleaving.Interleaving,
                               test_group_snapshots.GroupSnapshotsAPITestCase):
    """A create whose swap of the group waits for an add that holds the
    group's row: once the add commits, the count of the group's volumes
    must be what the add left (a swap that rechecked only the group's own
    row against the snapshot of its statement, as PostgreSQL's READ
    COMMITTED does, would snapshot one volume of two)."""

    contended_table = 'groups'

    def test_create_after_an_add_commits(self):
        group_id, (first,) = self.group_with_volumes(1)
        late = self.available_volume('vt')
        group = objects.Group.get(self.context, group_id)
        volume = objects.Volume.get_by_id(self.context, late)

        def add(hold):
            engine.run(self.context, engine.prepare(
                self.context, 'group_hold', group, host=volume.host,
                volume_type_id=volume.volume_type_id), engine.prepare(
                self.context, 'group_add_volume', volume,
                group_id=group_id, host=volume.host), lambda ctx: hold())

        # The owner's request, as the API makes its context.
        owner = volapi_context.RequestContext(user_id='user-a',
                                              project_id=self.project,
                                              overwrite=False)

        def create():
            return group_snapshot_api.create(owner, group_id)

        _added, made = self.interleave(add, create)
        self.assertEqual(sorted([first, late]), sorted(
            s['volume_id'] for s in self.snapshots_of(made.id)))
