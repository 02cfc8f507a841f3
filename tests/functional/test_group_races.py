"""Groups under concurrent requests, on every backend: each rule is one
compare-and-swap (with the hold of the group's row in its transaction),
so whichever request wins, no volume is in two groups or in a deleted
group, and no live group has a deleted group type."""
import threading

import fixtures
import sqlalchemy as sa

from db import models
from db import session
import objects
from objects import volume_type as type_obj
from tests.functional import test_groups
from volapi.volume import api as volume_api
from volapi.volume import groups as group_api
from volapi.volume.transitions import engine

ROUNDS = 6
ADMIN = test_groups.ADMIN


class GroupRacesTest(test_groups.GroupsAPITestCase):

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=-1, gigabytes=-1, groups=-1)
        self.volume_type('vt')

    def at_once(self, *requests):
        """The statuses of ``requests`` (callables), sent at once."""
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

    def add(self, group_id, volume_id):
        return lambda: self.app.put_json(
            '/v3/groups/%s' % group_id,
            {'group': {'add_volumes': volume_id}}, headers=self.user,
            expect_errors=True).status_int

    def count(self, query):
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(query).scalar()

    def test_concurrent_adds_to_two_groups_leave_one(self):
        self.group_type('gold')
        first = self.group('gold', ['vt']).json['group']['id']
        second = self.group('gold', ['vt']).json['group']['id']
        for _ in range(ROUNDS):
            volume_id = self.available_volume('vt')
            statuses = self.at_once(*[self.add((first, second)[i % 2],
                                               volume_id)
                                      for i in range(8)])
            self.assertEqual(1, statuses.count(202), statuses)
            self.assertEqual(7, statuses.count(400), statuses)
            self.assertIn(self.volume(volume_id)['group_id'],
                          (first, second))

    def test_no_volume_joins_a_deleted_group(self):
        self.group_type('gold')
        volumes = models.Volume.__table__
        groups = models.Group.__table__
        for _ in range(ROUNDS):
            group_id = self.group('gold', ['vt']).json['group']['id']
            volume_id = self.available_volume('vt')
            added, deleted = self.at_once(
                self.add(group_id, volume_id),
                lambda: self.delete(group_id, expect='*').status_int)
            # A group deleted before the add reads it is a 404.
            self.assertIn((added, deleted),
                          ((202, 400), (400, 202), (404, 202)))
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(volumes.join(
                    groups, volumes.c.group_id == groups.c.id)).where(
                    volumes.c.deleted == sa.false(),
                    groups.c.deleted == sa.true())))
            if added == 202:
                self.update(group_id, remove_volumes=volume_id)
                self.delete(group_id)

    def test_no_live_group_keeps_a_deleted_type(self):
        groups = models.Group.__table__
        types = models.GroupType.__table__
        for round_number in range(ROUNDS):
            kind = self.group_type('gold-%d' % round_number)
            created, deleted = self.at_once(
                lambda: self.group(kind['id'], ['vt'], expect='*').status_int,
                lambda: self.app.delete(
                    '/v3/group_types/%s' % kind['id'], headers=ADMIN,
                    expect_errors=True).status_int)
            self.assertIn((created, deleted),
                          ((202, 400), (404, 202), (400, 202)))
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(groups.join(
                    types, groups.c.group_type_id == types.c.id)).where(
                    groups.c.deleted == sa.false(),
                    types.c.deleted == sa.true())))

    def test_no_live_group_allows_a_deleted_volume_type(self):
        self.group_type('gold')
        groups = models.Group.__table__
        mappings = models.GroupVolumeTypeMapping.__table__
        types = models.VolumeType.__table__
        for round_number in range(ROUNDS):
            kind = self.volume_type('vt-%d' % round_number)
            created, deleted = self.at_once(
                lambda: self.group('gold', [kind['id']],
                                   expect='*').status_int,
                lambda: self.app.delete(
                    '/v3/types/%s' % kind['id'], headers=ADMIN,
                    expect_errors=True).status_int)
            self.assertIn((created, deleted),
                          ((202, 400), (404, 202), (400, 202)))
            self.assertEqual(0, self.count(
                sa.select(sa.func.count()).select_from(groups.join(
                    mappings, mappings.c.group_id == groups.c.id).join(
                    types, mappings.c.volume_type_id == types.c.id)).where(
                    groups.c.deleted == sa.false(),
                    types.c.deleted == sa.true())))

    def test_delete_with_volumes_against_an_attach(self):
        """A delete with its volumes and a reservation of one of them
        (os-reserve): either the volume is attaching and the group stays,
        or the volume is deleting and cannot be reserved."""
        self.group_type('gold')
        for _ in range(ROUNDS):
            group_id = self.group('gold', ['vt']).json['group']['id']
            volume_id = self.available_volume('vt')
            self.update(group_id, add_volumes=volume_id)
            reserved, deleted = self.at_once(
                lambda: self.app.post_json(
                    '/v3/volumes/%s/action' % volume_id,
                    {'os-reserve': None}, headers=self.user,
                    expect_errors=True).status_int,
                lambda: self.delete(group_id, expect='*',
                                    **{'delete-volumes': True}).status_int)
            status = self.volume(volume_id)['status']
            if deleted == 202:
                self.assertEqual('deleting', status)
                self.assertEqual(400, reserved)
            else:
                self.assertEqual((202, 400, 'attaching'),
                                 (reserved, deleted, status))


class DeleteReadsAgainTest(test_groups.GroupsAPITestCase):
    """A volume that joins the group between the delete's read of its
    volumes and its transaction: the count in the group's swap refuses the
    stale list, and the delete reads them again (both volumes go)."""

    def test_volume_added_after_the_read(self):
        self.volume_type('vt')
        self.group_type('gold')
        group_id = self.group('gold', ['vt']).json['group']['id']
        first = self.available_volume('vt')
        late = self.available_volume('vt')
        self.update(group_id, add_volumes=first)
        read = objects.Group.volume_ids
        reads = []

        def read_then_add(group):
            found = read(group)
            reads.append(found)
            if len(reads) == 1:
                # Inside a request: the use case, as another API process
                # would run it.
                group_api.update(self.context, group_id, add_volumes=late)
            return found

        self.useFixture(fixtures.MonkeyPatch(
            'objects.group.Group.volume_ids', read_then_add))
        self.delete(group_id, **{'delete-volumes': True})
        self.assertEqual([[first], sorted([first, late])],
                         [reads[0], sorted(reads[1])])
        for volume_id in (first, late):
            self.assertEqual('deleting', self.volume(volume_id)['status'])


class AddAfterRetypeTest(test_groups.GroupsAPITestCase):
    """A retype that completes between the add's read of the volume and
    its transaction: the volume's swap checks the type the row holds then,
    so a type the group does not allow never joins it."""

    def test_volume_retyped_after_the_read(self):
        self.volume_type('vt')
        other = self.volume_type('other')
        self.group_type('gold')
        group_id = self.group('gold', ['vt']).json['group']['id']
        volume_id = self.available_volume('vt')
        read = group_api._volume_to_add

        def read_then_retype(context, group, volume_id):
            found = read(context, group, volume_id)
            # Another API process retypes it, and its worker finishes.
            volume_api.retype(self.context, volume_id, 'other')
            engine.run(self.context, engine.prepare(
                self.context, 'retype_done',
                objects.Volume.get_by_id(self.context, volume_id),
                volume_type_id=other['id']))
            return found

        self.useFixture(fixtures.MonkeyPatch(
            'volapi.volume.groups._volume_to_add', read_then_retype))
        response = self.update(group_id, add_volumes=volume_id, expect=400)
        self.assertIn('group allowing its type', self.fault(response, 400))
        volume = self.volume(volume_id)
        self.assertEqual((None, 'other', 'available'),
                         (volume['group_id'], volume['volume_type'],
                          volume['status']))


class TypeDeletedAfterTheReadTest(test_groups.GroupsAPITestCase):
    """A volume type deleted between a group create's read of its types
    and its transaction: the create's hold of the type's row finds it
    gone, so no live group allows a deleted volume type."""

    def test_volume_type_deleted_after_the_read(self):
        self.group_type('gold')
        kind = self.volume_type('vt')
        read = group_api._volume_types

        def read_then_delete(context, names):
            found = read(context, names)
            # Another API process deletes the type: nothing uses it yet.
            type_obj.VolumeType.get(self.context, kind['id']).destroy()
            return found

        self.useFixture(fixtures.MonkeyPatch(
            'volapi.volume.groups._volume_types', read_then_delete))
        response = self.group('gold', ['vt'], expect=404)
        self.assertEqual('Volume type %s could not be found.' % kind['id'],
                         self.fault(response, 404))
        groups = models.Group.__table__
        self.assertEqual(0, self.count_rows(
            sa.select(sa.func.count()).select_from(groups).where(
                groups.c.deleted == sa.false())))
        quota = self.app.get('/v3/os-quota-sets/%s?usage=True'
                             % self.project, headers=ADMIN).json
        self.assertEqual(0, quota['quota_set']['groups']['in_use'])

    def count_rows(self, query):
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(query).scalar()
