"""VolapiPersistentObject.conditional_update: the object's view of its row
is the compare-and-swap's expectation, and it reflects what it wrote."""
import datetime

from db import conditions as cond
from db import exceptions
from db import models
import objects
from tests.unit import test_cas_base

Volume = models.Volume
VOLUMES = test_cas_base.VOLUMES


class ObjectCasTest(test_cas_base.CasTestCase):

    def load(self, **values):
        return objects.Volume.get_by_id(self.context,
                                        self.create_volume(**values))

    def snapshot_of(self, volume):
        return volume.obj_to_primitive(), set(volume.obj_what_changed())

    def test_id_is_always_a_condition(self):
        volume = self.load()
        neighbour = self.create_volume()
        self.assertTrue(volume.conditional_update({'status': 'attaching'},
                                                  {'status': 'available'}))
        self.assertEqual('attaching', self.volume(volume.id)['status'])
        self.assertEqual('available', self.volume(neighbour)['status'])

    def test_explicit_expected_values(self):
        volume = self.load(status='in-use')
        self.assertFalse(volume.conditional_update({'status': 'deleting'},
                                                   {'status': 'available'}))
        self.assertTrue(volume.conditional_update(
            {'status': 'deleting'}, {'status': ('available', 'in-use')}))
        self.assertEqual('deleting', volume.status)

    def test_default_expects_every_loaded_field_unchanged(self):
        volume = self.load(display_name='before')
        before = self.snapshot_of(volume)
        self.change_row(VOLUMES, volume.id, display_name='behind our back')
        self.assertFalse(volume.conditional_update({'status': 'deleting'}))
        self.assertEqual(before, self.snapshot_of(volume))
        row = self.volume(volume.id)
        self.assertEqual(('available', 'behind our back'),
                         (row['status'], row['display_name']))

    def test_default_notices_each_column(self):
        # Any loaded column, whatever its type, is part of the expectation.
        changes = {'size': 2, 'bootable': True, 'host': 'elsewhere',
                   'migration_status': 'migrating',
                   'launched_at': datetime.datetime(2020, 1, 2, 3, 4, 5, 6)}
        for column, value in changes.items():
            volume = self.load()
            with self.database.engine.begin() as conn:
                # Without touching updated_at, which would give it away.
                conn.execute(VOLUMES.update().where(VOLUMES.c.id == volume.id)
                             .values({column: value,
                                      'updated_at': VOLUMES.c.updated_at}))
            self.assertFalse(volume.conditional_update({'status': 'x'}),
                             column)
            self.assertEqual('available', self.volume(volume.id)['status'])

    def test_default_ignores_dirty_fields_and_leaves_them_dirty(self):
        volume = self.load(display_name='before')
        volume.display_name = 'mine'
        self.change_row(VOLUMES, volume.id, display_name='theirs',
                        updated_at=None)
        volume.updated_at = None  # what the other writer left
        volume.obj_reset_changes(['updated_at'])
        self.assertTrue(volume.conditional_update({'status': 'attaching'}))
        self.assertEqual('theirs', self.volume(volume.id)['display_name'])
        self.assertIn('display_name', volume.obj_what_changed())
        self.assertNotIn('status', volume.obj_what_changed())

    def test_save_all_writes_dirty_fields(self):
        volume = self.load()
        volume.display_name = 'renamed'
        volume.display_description = 'described'
        self.assertTrue(volume.conditional_update({'status': 'attaching'},
                                                  {'status': 'available'},
                                                  save_all=True))
        row = self.volume(volume.id)
        self.assertEqual(('attaching', 'renamed', 'described'),
                         (row['status'], row['display_name'],
                          row['display_description']))
        self.assertEqual(set(), volume.obj_what_changed())

    def test_success_holds_what_was_written(self):
        volume = self.load(size=4, status='available')
        size_class = cond.Case(
            [(Volume.size > 100, 'huge')], else_='normal')
        self.assertTrue(volume.conditional_update(
            {'status': 'retyping', 'previous_status': Volume.status,
             'size': Volume.size + 10, 'display_name': size_class},
            {'status': 'available'}))
        self.assertEqual(('retyping', 'available', 14, 'normal'),
                         (volume.status, volume.previous_status, volume.size,
                          volume.display_name))
        self.assertEqual(set(), volume.obj_what_changed())
        fresh = objects.Volume.get_by_id(self.context, volume.id)
        self.assertEqual(fresh.obj_to_primitive(), volume.obj_to_primitive())

    def test_reflect_changes_off_leaves_the_object(self):
        volume = self.load(size=4)
        self.assertTrue(volume.conditional_update(
            {'size': Volume.size + 1}, {'status': 'available'},
            reflect_changes=False))
        self.assertEqual(4, volume.size)
        self.assertEqual(5, self.volume(volume.id)['size'])

    def test_failure_changes_neither_object_nor_row(self):
        volume = self.load(status='in-use', size=4)
        volume.display_name = 'dirty'
        before = self.snapshot_of(volume)
        row_before = self.volume(volume.id)
        self.assertFalse(volume.conditional_update(
            {'status': 'deleting', 'size': Volume.size + 1},
            {'status': 'available'}, save_all=True))
        self.assertEqual(before, self.snapshot_of(volume))
        self.assertEqual(row_before, self.volume(volume.id))

    def test_two_updates_in_a_row_with_default_expectations(self):
        # The second compares every timestamp the first wrote (updated_at
        # with microseconds): they must round-trip exactly.
        volume = self.load(
            launched_at=datetime.datetime(2024, 5, 6, 7, 8, 9, 123456))
        self.assertTrue(volume.conditional_update({'status': 'attaching'}))
        self.assertTrue(volume.conditional_update({'status': 'in-use'}))
        self.assertTrue(volume.conditional_update(
            {'size': Volume.size + 1}))
        self.assertTrue(volume.conditional_update({'status': 'detaching'}))
        self.assertEqual('detaching', self.volume(volume.id)['status'])
        self.assertEqual(123456, volume.launched_at.microsecond)

    def test_updated_at_is_written_and_known(self):
        volume = self.load()
        self.assertTrue(volume.conditional_update({'status': 'attaching'}))
        stored = self.volume(volume.id)['updated_at']
        self.assertIsNotNone(stored)
        self.assertEqual(stored, volume.updated_at.replace(tzinfo=None))

    def test_attribute_keys(self):
        volume = self.load()
        self.assertTrue(volume.conditional_update(
            {Volume.status: 'attaching'}, {Volume.status: 'available'}))
        self.assertEqual('attaching', volume.status)

    def test_order_is_passed_on(self):
        volume = self.load(status='available')
        self.assertTrue(volume.conditional_update(
            {'status': 'retyping', 'previous_status': Volume.status},
            {'status': 'available'}, order=('status',)))
        expected = 'retyping' if self.backend == 'mysql' else 'available'
        self.assertEqual(expected, volume.previous_status)


class ObjectLoadTest(test_cas_base.CasTestCase):

    def test_get_by_id(self):
        ident = self.create_volume(size=3, display_name='a')
        volume = objects.Volume.get_by_id(self.context, ident)
        self.assertEqual((ident, 3, 'a'),
                         (volume.id, volume.size, volume.display_name))
        self.assertEqual(set(), volume.obj_what_changed())
        self.assertEqual(datetime.timezone.utc, volume.created_at.tzinfo)

    def test_get_by_id_missing_and_deleted(self):
        self.assertRaises(exceptions.NotFound, objects.Volume.get_by_id,
                          self.context, 'nothing')
        gone = self.create_volume(deleted=True)
        self.assertRaises(exceptions.NotFound, objects.Volume.get_by_id,
                          self.context, gone)
        self.assertTrue(objects.Volume.get_by_id(
            self.context, gone, include_deleted=True).deleted)

    def test_refresh(self):
        volume = objects.Volume.get_by_id(self.context, self.create_volume())
        self.change_row(VOLUMES, volume.id, status='error')
        volume.refresh()
        self.assertEqual('error', volume.status)
        self.assertTrue(volume.conditional_update({'status': 'available'}))
