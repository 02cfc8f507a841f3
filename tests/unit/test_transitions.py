"""The transition table on the backend under test: each transition's
conditions as SQL (what passes, what is refused) and the precise message of
each refusal, its values, its workers-row bookkeeping, microversion and
admin gates. The generated documentation must match the table."""
import os

from db import exceptions as db_exc
from db import models
from db import session
import objects
from tests import base
from tests import volume_rows as rows
from volapi import policies
from volapi.volume.transitions import doc
from volapi.volume.transitions import engine
from volapi.volume.transitions import table

NEW_TYPE = 'c0ffee00-0000-4000-8000-000000000001'
MIGRATING = ("volume migration_status must be one of None, 'deleting', "
             "'error', 'success', it is 'migrating'")


class TableTest(base.TestCase):

    def test_names_are_unique(self):
        self.assertEqual(len(table.TABLE), len(table.TRANSITIONS))

    def test_every_tracked_status_has_a_repair(self):
        for transition in table.TABLE:
            if transition.workers_row == 'track':
                key = (table.WORKER_TYPES[transition.resource],
                       transition.workers_status
                       or transition.values['status'])
                self.assertIn(key, set(table.CLEANUP) |
                              set(table.NOTHING_TO_REPAIR), transition.name)
        self.assertFalse(set(table.CLEANUP) & set(table.NOTHING_TO_REPAIR))

    def test_repairs_start_from_the_status_they_repair(self):
        # A row whose status is not its resource's (workers_status): the
        # status its tracking transition gives the resource.
        resource_status = {
            (table.WORKER_TYPES[t.resource], t.workers_status):
            t.values.get('status') for t in table.TABLE if t.workers_status}
        for (resource_type, status), name in table.CLEANUP.items():
            repair = table.TRANSITIONS[name]
            self.assertEqual(resource_type, table.WORKER_TYPES[repair.resource])
            # From the status, or (a migration) from the migration status.
            allowed = repair.source or (repair.expect['migration_status'],)
            self.assertTrue(
                status in allowed or
                resource_status.get((resource_type, status)) in allowed,
                name)
            self.assertEqual('finish', repair.workers_row, name)

    def test_worker_side_transitions_end_the_workers_row(self):
        for transition in table.TABLE:
            if transition.side == 'worker' and not transition.lenient:
                self.assertEqual('finish', transition.workers_row,
                                 transition.name)
                self.assertEqual((3, 0), transition.min_version)

    def test_documentation_is_generated_from_the_table(self):
        path = os.path.join(os.path.dirname(__file__), '..', '..', 'doc',
                            'transitions.md')
        with open(path) as f:
            self.assertEqual(doc.markdown(), f.read(),
                             'regenerate: python -m volapi.volume.transitions'
                             ' > doc/transitions.md')
        for name in table.TRANSITIONS:
            self.assertIn('`%s`' % name, doc.markdown())


class TransitionTestCase(base.DatabaseTestCase):

    def assertRefused(self, message, name, obj, version=None, **params):
        error = self.assertRaises(engine.TransitionRefused, engine.apply, self.context,
                                  name, obj, version=version, **params)
        self.assertEqual(message, str(error))
        self.assertEqual(name, error.transition.name)
        return error

    def reread(self, obj):
        return rows.row(self.context, obj.model, obj.id)


class ApiVolumeTransitionsTest(TransitionTestCase):

    # -- delete -----------------------------------------------------------------
    def test_delete_from_each_source_status(self):
        for status in table.TRANSITIONS['delete'].source:
            volume = rows.volume(self.context, status=status)
            self.assertTrue(engine.apply(self.context, 'delete', volume))
            row = self.reread(volume)
            self.assertEqual('deleting', row['status'])
            self.assertIsNotNone(row['terminated_at'])
            self.assertEqual('deleting', rows.worker_status(
                self.context, 'volume', volume.id))

    def test_delete_refusals(self):
        cases = [
            (dict(status='in-use'),
             "volume status must be one of 'available', 'error', "
             "'error_restoring', 'error_extending', 'error_managing', "
             "it is 'in-use'"),
            (dict(attach_status='attached'),
             "volume attach_status must not be 'attached', it is 'attached'"),
            (dict(migration_status='migrating'), MIGRATING),
            (dict(group_id=NEW_TYPE),
             "volume group_id must be unset, it is '%s'" % NEW_TYPE),
        ]
        for values, message in cases:
            with self.subTest(values=values):
                volume = rows.volume(self.context, **values)
                self.assertRefused(message, 'delete', volume)
                self.assertIsNone(rows.worker_status(
                    self.context, 'volume', volume.id))

    def test_delete_refused_while_snapshots_or_attachments_exist(self):
        volume = rows.volume(self.context)
        rows.snapshot(self.context, volume)
        self.assertRefused(
            'volume must have no snapshots (or, with cascade, only '
            'snapshots that are available, error, deleting)',
            'delete', volume)
        other = rows.volume(self.context)
        rows.attachment(self.context, other, attach_status='reserved')
        self.assertRefused('volume must have no attachments', 'delete',
                           other)

    def test_cascade_delete_allows_only_deletable_snapshots(self):
        volume = rows.volume(self.context)
        rows.snapshot(self.context, volume, status='available')
        rows.snapshot(self.context, volume, status='deleting')
        creating = rows.snapshot(self.context, volume, status='creating')
        self.assertRaises(engine.TransitionRefused, engine.apply, self.context,
                          'delete', volume, cascade=True)
        engine.apply(self.context, 'snapshot_create_failed', creating)
        self.assertTrue(engine.apply(self.context, 'delete', volume,
                                     cascade=True))

    def test_force_delete(self):
        volume = rows.volume(self.context, status='creating')
        self.assertRefused(
            "volume status must be one of 'available', 'error', "
            "'error_restoring', 'error_extending', 'error_managing', "
            "it is 'creating'", 'delete', volume)
        self.assertTrue(engine.apply(self.context, 'force_delete', volume,
                                     version=(3, 23)))
        self.assertRefused("volume status must not be 'deleting', it is "
                           "'deleting'", 'force_delete', volume)
        # os-force_delete has no microversion of its own.
        other = rows.volume(self.context, status='creating')
        self.assertTrue(engine.apply(self.context, 'force_delete', other,
                                     version=(3, 0)))

    # -- extend -----------------------------------------------------------------
    def test_extend(self):
        volume = rows.volume(self.context, size=1)
        self.assertTrue(engine.apply(self.context, 'extend', volume,
                                     version=(3, 0), new_size=2))
        row = self.reread(volume)
        self.assertEqual(('extending', 'available', 1),
                         (row['status'], row['previous_status'],
                          row['size']))
        self.assertEqual('extending', rows.worker_status(
            self.context, 'volume', volume.id))

    def test_extend_in_use_needs_3_42(self):
        volume = rows.volume(self.context, status='in-use',
                             attach_status='attached')
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'extend', volume, version=(3, 41),
                           new_size=2)
        self.assertTrue(engine.apply(self.context, 'extend', volume,
                                     version=(3, 42), new_size=2))
        self.assertEqual('in-use', self.reread(volume)['previous_status'])

    def test_extend_must_grow_from_the_size_seen(self):
        volume = rows.volume(self.context, size=2)
        self.assertRefused('volume size must be less than 2, it is 2',
                           'extend', volume, new_size=2)
        seen = rows.volume(self.context, size=1)
        stale = objects.Volume.get_by_id(self.context, seen.id)
        engine.apply(self.context, 'extend', seen, new_size=3)
        engine.apply(self.context, 'extend_done', seen, size=3)
        # ``stale`` was read at size 1; the row is at 3 now.
        self.assertRefused('volume size must be less than 3, it is 3',
                           'extend', stale, new_size=3)
        self.assertRefused('volume size must be 1, it is 3', 'extend',
                           stale, new_size=4)

    def test_extend_is_of_the_status_seen(self):
        # The API chose the policy (extend, or extend an attached volume)
        # by the status it read: a volume attached since is refused.
        seen = rows.volume(self.context)
        stale = objects.Volume.get_by_id(self.context, seen.id)
        engine.apply(self.context, 'attach', seen, mode='rw')
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'extend', stale, version=(3, 42),
                           new_size=2)

    # -- reserve/unreserve -----------------------------------------------
    def test_reserve_and_unreserve(self):
        volume = rows.volume(self.context)
        self.assertTrue(engine.apply(self.context, 'reserve', volume))
        self.assertEqual('attaching', self.reread(volume)['status'])
        self.assertRefused("volume status must be 'available', it is "
                           "'attaching'", 'reserve',
                           rows.volume(self.context, status='attaching'))
        self.assertTrue(engine.apply(self.context, 'unreserve', volume))
        self.assertEqual('available', self.reread(volume)['status'])

    def test_reserve_in_use_only_if_multiattach(self):
        single = rows.volume(self.context, status='in-use')
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'reserve', single)
        multi = rows.volume(self.context, status='in-use', multiattach=True)
        self.assertTrue(engine.apply(self.context, 'reserve', multi))

    def test_reserve_decides_multiattach_on_the_row_not_on_the_read(self):
        # What an older read saw does not matter: the UPDATE tests the row.
        multi = rows.volume(self.context, status='in-use', multiattach=True)
        multi.multiattach = False
        multi.obj_reset_changes()
        self.assertTrue(engine.apply(self.context, 'reserve', multi))
        self.assertEqual('attaching', self.reread(multi)['status'])
        single = rows.volume(self.context, status='in-use')
        single.multiattach = True
        single.obj_reset_changes()
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'reserve', single)

    def test_reserve_explains_multiattach_statuses(self):
        multi = rows.volume(self.context, status='error', multiattach=True)
        self.assertRefused("volume status must be one of 'available', "
                           "'in-use', it is 'error'", 'reserve', multi)

    def test_unreserve_is_lenient_and_follows_attachments(self):
        volume = rows.volume(self.context)
        self.assertFalse(engine.apply(self.context, 'unreserve', volume))
        self.assertEqual('available', self.reread(volume)['status'])
        attached = rows.volume(self.context, status='attaching',
                               multiattach=True)
        rows.attachment(self.context, attached)
        engine.apply(self.context, 'unreserve', attached)
        self.assertEqual('in-use', self.reread(attached)['status'])

    # -- detaching ------------------------------------------------------------
    def test_begin_and_roll_detaching(self):
        volume = rows.volume(self.context, status='in-use',
                             attach_status='attached')
        engine.apply(self.context, 'begin_detaching', volume)
        self.assertEqual('detaching', self.reread(volume)['status'])
        engine.apply(self.context, 'roll_detaching', volume)
        self.assertEqual('in-use', self.reread(volume)['status'])
        self.assertFalse(engine.apply(self.context, 'roll_detaching', volume))

    def test_begin_detaching_refusals(self):
        self.assertRefused(
            "volume attach_status must be 'attached', it is 'detached'",
            'begin_detaching', rows.volume(self.context, status='in-use'))
        self.assertRefused(
            MIGRATING, 'begin_detaching',
            rows.volume(self.context, status='in-use',
                        attach_status='attached',
                        migration_status='migrating'))

    # -- attach/detach -----------------------------------------------------
    def test_attach_refused_rw_on_readonly(self):
        volume = rows.volume(self.context, status='attaching')
        rows.admin_metadata(self.context, volume, 'readonly', 'True')
        self.assertRefused(
            "volume must not be read-only to be attached in mode 'rw'",
            'attach', volume, mode='rw')
        self.assertTrue(engine.apply(self.context, 'attach', volume, mode='ro'))
        row = self.reread(volume)
        self.assertEqual(('in-use', 'attached'),
                         (row['status'], row['attach_status']))

    def test_detach_keeps_in_use_while_others_are_attached(self):
        volume = rows.volume(self.context, status='in-use',
                             attach_status='attached', multiattach=True)
        first = rows.attachment(self.context, volume)
        second = rows.attachment(self.context, volume)
        engine.run(self.context,
                   engine.prepare(self.context, 'detach', volume,
                                  attachment_id=first.id),
                   engine.prepare(self.context, 'attachment_remove', first))
        row = self.reread(volume)
        self.assertEqual(('in-use', 'attached'),
                         (row['status'], row['attach_status']))
        self.assertTrue(rows.row(self.context, models.VolumeAttachment,
                                 first.id)['deleted'])
        engine.run(self.context,
                   engine.prepare(self.context, 'detach', volume,
                                  attachment_id=second.id),
                   engine.prepare(self.context, 'attachment_remove', second))
        row = self.reread(volume)
        self.assertEqual(('available', 'detached'),
                         (row['status'], row['attach_status']))

    def test_detach_needs_the_attachment(self):
        volume = rows.volume(self.context, status='in-use',
                             attach_status='attached')
        self.assertRefused('volume must have attachment %s' % NEW_TYPE,
                           'detach', volume, attachment_id=NEW_TYPE)

    # -- reset_status -----------------------------------------------------
    def test_reset_status_ends_the_workers_row(self):
        volume = rows.volume(self.context)
        engine.apply(self.context, 'extend', volume, new_size=2)
        engine.apply(self.context, 'reset_status', volume, version=(3, 0),
                     status='available', migration_status=None)
        row = self.reread(volume)
        self.assertEqual(('available', None, 1), (
            row['status'], row['migration_status'], row['size']))
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             volume.id))

    def test_reset_status_writes_only_what_is_given(self):
        volume = rows.volume(self.context, status='error',
                             migration_status='error')
        engine.apply(self.context, 'reset_status', volume,
                     attach_status='attached')
        row = self.reread(volume)
        self.assertEqual(('error', 'attached', 'error'), (
            row['status'], row['attach_status'], row['migration_status']))

    # -- retype -------------------------------------------------------------
    def test_retype(self):
        volume = rows.volume(self.context, status='in-use')
        engine.apply(self.context, 'retype', volume, new_type_id=NEW_TYPE,
                     multiattach=False)
        row = self.reread(volume)
        self.assertEqual(('retyping', 'in-use'),
                         (row['status'], row['previous_status']))
        self.assertEqual('retyping', rows.worker_status(
            self.context, 'volume', volume.id))

    def test_retype_refusals(self):
        type_id = rows.volume_type(self.context)
        same = rows.volume(self.context, volume_type_id=type_id)
        self.assertRefused("volume volume_type_id must not be '%s', it is "
                           "'%s'" % (type_id, type_id), 'retype', same,
                           new_type_id=type_id)
        in_use = rows.volume(self.context, status='in-use')
        self.assertRefused("volume must be 'available' for a retype that "
                           "changes multiattach", 'retype', in_use,
                           new_type_id=NEW_TYPE, multiattach=True)
        self.assertRefused(MIGRATING, 'retype',
                           rows.volume(self.context,
                                       migration_status='migrating'),
                           new_type_id=NEW_TYPE)

    # -- snapshot_create / readonly ----------------------------------------
    def test_snapshot_create_conditions(self):
        self.assertRefused("volume host must be set, it is unset",
                           'snapshot_create',
                           rows.volume(self.context, host=None))
        in_use = rows.volume(self.context, status='in-use')
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'snapshot_create', in_use)
        self.assertTrue(engine.apply(self.context, 'snapshot_create', in_use,
                                     force=True))
        self.assertEqual('in-use', self.reread(in_use)['status'])

    def test_snapshot_create_refused_if_the_size_changed_since_read(self):
        # The snapshot row copies the size the request read.
        volume = rows.volume(self.context)
        volume.size = 3  # what an older read saw
        volume.obj_reset_changes()
        self.assertRefused('volume size must be 3, it is 1',
                           'snapshot_create', volume)

    def test_update_readonly_flag_needs_available(self):
        self.assertRefused("volume status must be 'available', it is "
                           "'in-use'", 'update_readonly_flag',
                           rows.volume(self.context, status='in-use'))

    # -- generic ------------------------------------------------------------------
    def test_a_missing_volume_is_not_found(self):
        volume = rows.volume(self.context)
        volume.id = NEW_TYPE
        self.assertRaises(db_exc.NotFound, engine.apply, self.context, 'reserve',
                          volume)

    def test_a_deleted_volume_is_not_found(self):
        volume = rows.volume(self.context, status='deleting')
        engine.apply(self.context, 'delete_done', volume)
        self.assertRaises(db_exc.NotFound, engine.apply, self.context,
                          'reset_status', volume, status='available')


class AttachmentTransitionsTest(TransitionTestCase):

    def test_attachments_api_needs_3_27_and_complete_3_44(self):
        volume = rows.volume(self.context)
        self.assertRaises(engine.NotAvailable, engine.prepare, self.context,
                          'attachment_reserve', volume, version=(3, 26))
        attachment = rows.attachment(self.context, volume,
                                     attach_status='attaching')
        self.assertRaises(engine.NotAvailable, engine.prepare, self.context,
                          'attachment_attached', attachment, version=(3, 43))

    def test_reserve_connect_complete_delete(self):
        volume = rows.volume(self.context)
        engine.apply(self.context, 'attachment_reserve', volume, version=(3, 27))
        self.assertEqual('reserved', self.reread(volume)['status'])
        attachment = rows.attachment(self.context, volume,
                                     attach_status='reserved')
        engine.run(self.context,
                   engine.prepare(self.context, 'attachment_update', volume,
                                  attachment_id=attachment.id),
                   engine.prepare(self.context, 'attachment_connect', attachment,
                                  connector='{"host": "h"}', attached_host='h'))
        self.assertEqual('attaching', self.reread(volume)['status'])
        engine.apply(self.context, 'attachment_connected', attachment,
                     connection_info='{"data": {}}')
        self.assertRefused(
            "attachment attach_status must be 'attaching', it is 'reserved'",
            'attachment_attached',
            rows.attachment(self.context, volume, attach_status='reserved'))
        engine.run(self.context,
                   engine.prepare(self.context, 'attachment_complete', volume,
                                  attachment_id=attachment.id),
                   engine.prepare(self.context, 'attachment_attached', attachment))
        row = self.reread(volume)
        self.assertEqual(('in-use', 'attached'),
                         (row['status'], row['attach_status']))
        self.assertIsNotNone(self.reread(attachment)['attach_time'])

    def test_connection_info_only_for_the_connector_stored(self):
        volume = rows.volume(self.context, status='attaching')
        attachment = rows.attachment(self.context, volume,
                                     attach_status='attaching',
                                     connector='{"host": "old"}')
        attachment.connector = '{"host": "new"}'
        self.assertRefused(
            'attachment connector must be \'{"host": "new"}\', it is '
            '\'{"host": "old"}\'', 'attachment_connected', attachment,
            connection_info='{}')

    def test_attachment_delete_status_follows_what_remains(self):
        volume = rows.volume(self.context, status='reserved',
                             multiattach=True)
        attached = rows.attachment(self.context, volume)
        reserved = rows.attachment(self.context, volume,
                                   attach_status='reserved')
        engine.run(self.context,
                   engine.prepare(self.context, 'attachment_delete', volume,
                                  attachment_id=reserved.id),
                   engine.prepare(self.context, 'attachment_remove', reserved))
        row = self.reread(volume)
        self.assertEqual(('in-use', 'attached'),
                         (row['status'], row['attach_status']))
        engine.run(self.context,
                   engine.prepare(self.context, 'attachment_delete', volume,
                                  attachment_id=attached.id),
                   engine.prepare(self.context, 'attachment_remove', attached))
        row = self.reread(volume)
        self.assertEqual(('available', 'detached'),
                         (row['status'], row['attach_status']))
        self.assertRaises(db_exc.NotFound, engine.apply, self.context,
                          'attachment_remove', attached)


class SnapshotTransitionsTest(TransitionTestCase):

    def test_delete_and_its_refusal(self):
        volume = rows.volume(self.context)
        snapshot = rows.snapshot(self.context, volume, status='creating')
        self.assertRefused("snapshot status must be one of 'available', "
                           "'error', it is 'creating'", 'snapshot_delete',
                           snapshot)
        engine.apply(self.context, 'snapshot_create_done', snapshot,
                     provider_location='/x')
        row = self.reread(snapshot)
        self.assertEqual(('available', '100%', '/x'), (
            row['status'], row['progress'], row['provider_location']))
        engine.apply(self.context, 'snapshot_delete', snapshot)
        self.assertEqual('deleting', rows.worker_status(
            self.context, 'snapshot', snapshot.id))
        engine.apply(self.context, 'snapshot_delete_done', snapshot)
        row = self.reread(snapshot)
        self.assertEqual(('deleted', True), (row['status'], row['deleted']))
        self.assertIsNone(rows.worker_status(self.context, 'snapshot',
                                             snapshot.id))


class WorkerTransitionsTest(TransitionTestCase):

    def started(self, name, **params):
        volume = rows.volume(self.context, **params.pop('row', {}))
        engine.apply(self.context, name, volume, **params)
        return volume

    def test_create_done_and_failed(self):
        volume = rows.volume(self.context, status='creating', host=None)
        objects.Worker.track(self.context, 'volume', volume.id, 'creating')
        engine.apply(self.context, 'create_done', volume, host='h@b#p',
                     provider_location='/v')
        row = self.reread(volume)
        self.assertEqual(('available', 'h@b#p', '/v'), (
            row['status'], row['host'], row['provider_location']))
        self.assertIsNotNone(row['launched_at'])
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             volume.id))
        self.assertRefused("volume status must be 'creating', it is "
                           "'available'", 'create_failed', volume)

    def test_extend_done_returns_to_the_previous_status(self):
        for status in ('available', 'in-use'):
            volume = self.started('extend', version=(3, 42), new_size=5,
                                  row=dict(status=status))
            engine.apply(self.context, 'extend_done', volume, size=5)
            row = self.reread(volume)
            self.assertEqual((status, 5), (row['status'], row['size']))
            self.assertIsNone(rows.worker_status(self.context, 'volume',
                                                 volume.id))

    def test_extend_failed(self):
        volume = self.started('extend', new_size=5)
        engine.apply(self.context, 'extend_failed', volume)
        row = self.reread(volume)
        self.assertEqual(('error_extending', 1), (row['status'], row['size']))

    def test_delete_done_soft_deletes(self):
        volume = self.started('delete')
        engine.apply(self.context, 'delete_done', volume)
        row = self.reread(volume)
        self.assertEqual(('deleted', True), (row['status'], row['deleted']))
        self.assertIsNotNone(row['deleted_at'])
        failing = self.started('delete')
        engine.apply(self.context, 'delete_failed', failing)
        self.assertEqual('error_deleting', self.reread(failing)['status'])

    def test_retype_done_takes_multiattach_from_the_type(self):
        multi = rows.volume_type(self.context, multiattach=True)
        volume = self.started('retype', new_type_id=multi,
                              multiattach=True)
        engine.apply(self.context, 'retype_done', volume, volume_type_id=multi)
        row = self.reread(volume)
        self.assertEqual(('available', multi, True), (
            row['status'], row['volume_type_id'], row['multiattach']))
        failing = self.started('retype', new_type_id=multi)
        engine.apply(self.context, 'retype_failed', failing)
        row = self.reread(failing)
        self.assertEqual(('available', None),
                         (row['status'], row['volume_type_id']))

    def test_tracking_again_resets_the_workers_row(self):
        volume = rows.volume(self.context)
        objects.Worker.track(self.context, 'volume', volume.id, 'creating')
        table = models.Worker.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(table.update().values(cleaning=True,
                                               race_preventer=4))
        objects.Worker.track(self.context, 'volume', volume.id, 'deleting')
        with session.reader.connection.using(self.context) as conn:
            row = conn.execute(table.select()).mappings().one()
        self.assertEqual(('deleting', None, False, 5), (
            row['status'], row['service_id'], row['cleaning'],
            row['race_preventer']))


class PolicyRulesTest(base.TestCase):
    """The rule a transition names is one oslo.policy knows: who may ask
    for it is the policy's answer alone (the API authorizes it)."""

    def test_named_rules_are_registered(self):
        registered = {rule.name for rule in policies.list_rules()}
        named = {t.policy for t in table.TABLE if t.policy}
        self.assertEqual(20, len(named))
        self.assertEqual(set(), named - registered)
