"""A concurrent change forced in between what a request reads and what it
writes (tests.functional.interleave): the write must not act on the state
it read when that state is gone. Each test fails where the decision was
taken in Python on a read and left out of the compare-and-swap."""
import uuid

from db import models
from db import session
import objects
from objects import type_quota
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import commit_after_read
from tests.functional.test_volume_migration import BIG
from tests.functional.test_volume_migration import SMALL
from tests.functional.test_volume_migration import give_trait
from volapi.api.v3 import types as types_api
from volapi import context as volapi_context
from volapi.volume import api as volume_api
from volapi.volume import attachments
from volapi.volume.transitions import engine

ADMIN = api_fixtures.ADMIN


def commit_update(model, ident, where=(), then=None, **values):
    """A change of the row ``ident`` (if ``where``, criteria on its table,
    hold; then ``then(conn)``), committed by a request of its own."""
    def change():
        table = model.__table__
        with session.writer.connection.using(
                volapi_context.get_admin_context()) as conn:
            changed = conn.execute(table.update().where(
                table.c.id == ident, *where).values(**values)).rowcount
            if changed and then is not None:
                then(conn)
    return change


class MigrationCompletionTest(api_fixtures.APITestCase):
    """os-migrate_volume_completion with error rolls back the migration it
    names, never one that began since the request looked."""

    def test_a_migration_begun_meanwhile_is_not_rolled_back(self):
        named, begun = str(uuid.uuid4()), str(uuid.uuid4())
        volume = rows.volume(self.context, project_id=self.project,
                             migration_status='migrating',
                             migration_id=named, previous_status='available')
        # The migration named ends and another begins, between the read
        # and the write.
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, migration_id=begun,
                migration_status='migrating')))
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume.id,
            {'os-migrate_volume_completion': {'new_volume': named,
                                              'error': True}},
            headers=ADMIN, expect_errors=True)
        # Refused; or, where the two run in turn (SQLite), done first.
        self.assertIn(response.status_int, (200, 400), response.text)
        change.wait()
        row = rows.row(self.context, models.Volume, volume.id)
        self.assertEqual((begun, 'migrating'),
                         (row['migration_id'], row['migration_status']))


class DefaultTypeDeleteTest(api_fixtures.APITestCase):
    """The type ``[api] default_volume_type`` names is never deleted, even
    when it takes that name while the delete is under way."""

    def test_a_type_renamed_to_the_default_is_not_deleted(self):
        self.config.set('api', default_volume_type='gold')
        type_id = rows.volume_type(self.context, name='silver')
        self.useFixture(commit_after_read.CommitAfterRead(
            self, types_api, '_get', commit_update(
                models.VolumeType, type_id, name='gold', live_name='gold')))
        response = self.app.delete('/v3/types/%s' % type_id, headers=ADMIN,
                                   expect_errors=True)
        self.assertEqual('Default volume type can not be deleted.',
                         self.fault(response, 400))
        self.assertFalse(rows.row(self.context, models.VolumeType,
                                  type_id)['deleted'])


class RetypeTest(api_fixtures.APITestCase):
    """os-retype decides on what it read (the pool has what the new type
    requires, whether multiattach changes, the type the counts move
    from); its compare-and-swap proves each still true."""

    pool_options = {'file_pools': ['small:10', 'big:12']}

    def retype(self, volume_id, new_type):
        return self.app.post_json(
            '/v3/volumes/%s/action' % volume_id,
            {'os-retype': {'new_type': new_type}}, headers=self.owner,
            expect_errors=True)

    def test_a_volume_moved_meanwhile_is_not_retyped_in_place(self):
        give_trait(self.context, BIG, 'CUSTOM_FAST')
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'fast', 'extra_specs': {
                'trait:CUSTOM_FAST': 'required'}}}, headers=ADMIN)
        volume = rows.volume(self.context, project_id=self.project, host=BIG,
                             volume_type_id=rows.volume_type(self.context))
        # A migration to a pool without the trait ends in between.
        self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, host=SMALL)))
        response = self.retype(volume.id, 'fast')
        self.assertEqual('Invalid volume: volume must still be on the pool '
                         'the retype was planned for',
                         self.fault(response, 400))
        self.assertEqual('available', rows.row(
            self.context, models.Volume, volume.id)['status'])

    def test_multiattach_changed_meanwhile_is_seen(self):
        volume = rows.volume(self.context, project_id=self.project,
                             status='in-use', attach_status='attached',
                             volume_type_id=rows.volume_type(self.context))
        # Between the load of the retype's transaction and its swap, the
        # volume becomes multiattach (as a retype that ended would make
        # it): a retype to a type without multiattach changes it, which an
        # attached volume may not.
        table = models.Volume.__table__
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, multiattach=True,
                where=[table.c.status == 'in-use']), after_call=2))
        response = self.retype(volume.id, rows.volume_type(self.context))
        change.wait()
        multiattach = rows.row(self.context, models.Volume,
                               volume.id)['multiattach']
        # Refused; or, where the two run in turn (SQLite), retyped first
        # (and the change, finding it retyping, not made).
        self.assertIn((response.status_int, multiattach),
                      {(400, True), (202, False)}, response.text)

    def test_counts_move_from_the_type_the_volume_has(self):
        old, ended, new = (rows.volume_type(self.context) for _ in range(3))
        volume = rows.volume(self.context, project_id=self.project,
                             host=None, volume_type_id=old)
        for type_id in (old, ended, new):
            type_quota.ensure_rows(self.context, self.project, type_id)
        usages = type_quota.USAGES

        def counts_follow(conn):
            for type_id, change in ((old, -1), (ended, 1)):
                conn.execute(usages.update().where(
                    usages.c.id == type_quota.row_id(self.project, type_id))
                    .values(volumes=usages.c.volumes + change))

        # Between the load of the retype's transaction and its swap, a
        # retype to ``ended`` ends (its counts moved when it began).
        table = models.Volume.__table__
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, volume_type_id=ended,
                where=[table.c.status == 'available',
                       table.c.volume_type_id == old],
                then=counts_follow), after_call=2))
        response = self.retype(volume.id, new)
        change.wait()
        usage = type_quota.reported_usage(self.context, self.project,
                                          (old, ended, new))
        volumes = tuple(usage[t]['volumes'] for t in (old, ended, new))
        # Refused, the volume in the ended retype's type; or, where the two
        # run in turn (SQLite), retyped from ``old`` first.
        self.assertIn((response.status_int, volumes),
                      {(400, (0, 1, 0)), (202, (0, 0, 1))}, response.text)


class CascadeDeleteTest(api_fixtures.APITestCase):
    """DELETE /volumes/{id}?cascade=true takes along every snapshot its
    compare-and-swap allowed, those made since the request began too."""

    def test_a_snapshot_made_meanwhile_is_deleted_with_the_volume(self):
        volume = rows.volume(self.context, project_id=self.project)

        def snapshot_made():
            # As POST /snapshots and its worker would: the snapshot is
            # inserted under a swap of the volume (refused once the volume
            # is deleting), then becomes available.
            ctx = volapi_context.get_admin_context()
            snapshot = objects.Snapshot(
                ctx, id=str(uuid.uuid4()), volume_id=volume.id,
                project_id=volume.project_id, user_id='user',
                volume_size=volume.size, deleted=False)
            try:
                engine.run(ctx, engine.prepare(ctx, 'snapshot_create',
                                               objects.Volume.get_by_id(
                                                   ctx, volume.id)),
                           engine.prepare(ctx, 'snapshot_new', snapshot))
            except engine.TransitionRefused:
                return
            engine.apply(ctx, 'snapshot_create_done', snapshot)

        # Between the load of the delete's transaction and its swap.
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', snapshot_made))
        response = self.app.delete('/v3/volumes/%s?cascade=true' % volume.id,
                                   headers=self.owner, expect_errors=True)
        change.wait()
        self.assertEqual(202, response.status_int, response.text)
        self.assertEqual('deleting', rows.row(self.context, models.Volume,
                                              volume.id)['status'])
        # Deleting with the volume; or, where the two run in turn (SQLite),
        # never made.
        self.assertLessEqual(
            {s.status for s in objects.Snapshot.get_all(
                self.context, volume_id=volume.id)}, {'deleting'})


class MigrateTest(api_fixtures.APITestCase):
    """os-migrate_volume without a host sends the volume to a pool chosen
    for its type: a type changed meanwhile is seen by the swap."""

    pool_options = {'file_pools': ['small:10', 'big:12']}

    def test_a_type_changed_meanwhile_is_seen(self):
        give_trait(self.context, BIG, 'CUSTOM_FAST')
        fast = self.app.post_json('/v3/types', {'volume_type': {
            'name': 'fast', 'extra_specs': {
                'trait:CUSTOM_FAST': 'required'}}},
            headers=ADMIN).json['volume_type']['id']
        volume = rows.volume(self.context, project_id=self.project, host=BIG,
                             volume_type_id=rows.volume_type(self.context))
        # A retype to a type only BIG has ends in between: SMALL, chosen
        # for the old type, does not have what the volume's type requires.
        self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, volume.id, volume_type_id=fast)))
        response = self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume.id,
            {'os-migrate_volume': {}},
            headers=dict(ADMIN, **{'OpenStack-API-Version': 'volume 3.16'}),
            expect_errors=True)
        self.assertEqual('Invalid volume: volume must still have the type '
                         'the move was planned for',
                         self.fault(response, 400))
        row = rows.row(self.context, models.Volume, volume.id)
        self.assertEqual((BIG, None), (row['host'], row['migration_status']))


class CloneTest(api_fixtures.APITestCase):
    """A clone is never smaller than its source, even one that grew while
    the create was under way."""

    def test_a_source_grown_meanwhile_is_cloned_at_its_new_size(self):
        source = rows.volume(self.context, project_id=self.project, size=1,
                             volume_type_id=rows.volume_type(self.context))
        # An extend of the source ends between the create's read of it
        # and the hold of its transaction.
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, source.id, size=2)))
        response = self.create_volume(size=None, source_volid=source.id,
                                      expect='*')
        self.assertEqual(202, response.status_int, response.text)
        # Where the two run in turn (SQLite), the clone came first.
        self.assertEqual(2 if change.in_between else 1,
                         response.json['volume']['size'])

    def test_a_size_below_the_grown_source_is_refused(self):
        source = rows.volume(self.context, project_id=self.project, size=1,
                             volume_type_id=rows.volume_type(self.context))
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, volume_api, 'get_volume', commit_update(
                models.Volume, source.id, size=2)))
        response = self.create_volume(size=1, source_volid=source.id,
                                      expect='*')
        if not change.in_between:
            # The two in turn (SQLite): the clone came first.
            self.assertEqual(202, response.status_int, response.text)
            return
        self.assertEqual(
            'Invalid input received: Volume size 1GB cannot be smaller than '
            'the volume size 2GB. They must be >= original volume size.',
            self.fault(response, 400))
        self.assertEqual(1, rows.count(self.context, models.Volume,
                                       deleted=False))


class AttachmentDeleteTest(api_fixtures.APITestCase):
    """DELETE /attachments/{id} records the termination of the connection
    of an attachment that has one when it is removed, even one given its
    connector after the request read it."""

    def test_a_connector_given_meanwhile_is_terminated(self):
        volume = rows.volume(self.context, project_id=self.project,
                             status='reserved')
        attachment = rows.attachment(self.context, volume,
                                     attach_status='reserved')
        table = models.VolumeAttachment.__table__
        # A PUT /attachments/{id} with a connector commits between the
        # load of the delete's transaction and its swap.
        change = self.useFixture(commit_after_read.CommitAfterRead(
            self, attachments, 'get', commit_update(
                models.VolumeAttachment, attachment.id,
                connector='{"host": "compute-2"}', attach_status='attaching',
                where=[table.c.attach_status == 'reserved'])))
        response = self.app.delete(
            '/v3/attachments/%s' % attachment.id,
            headers=dict(self.owner, **{
                'OpenStack-API-Version': 'volume 3.27'}), expect_errors=True)
        change.wait()
        self.assertEqual(200, response.status_int, response.text)
        row = rows.row(self.context, models.VolumeAttachment, attachment.id)
        self.assertTrue(row['deleted'])
        # Connected (PostgreSQL, MariaDB): its termination is recorded;
        # where the two run in turn (SQLite) the PUT found it gone.
        self.assertEqual(
            'terminating' if row['connector'] else None,
            rows.worker_status(self.context, 'attachment', attachment.id))
