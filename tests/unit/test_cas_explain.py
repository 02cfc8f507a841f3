"""Precise failures: update_or_explain and conditional_update_or_raise name
the condition that refused the compare-and-swap, or retry when none did."""
import sqlalchemy as sa

from db import api as db_api
from db import conditions as cond
from db import exceptions
from db import models
from db import session
import objects
from tests.unit import test_cas_base

Volume = models.Volume


def no_snapshots():
    return cond.Filter(~sa.exists().where(
        models.Snapshot.volume_id == Volume.id,
        models.Snapshot.deleted == sa.false()), 'must have no snapshots')


class NeverInSql(cond.Expect):
    """Holds when checked in Python, never in the UPDATE: each try misses
    while the re-read finds every condition holding, which is what a row
    that keeps changing between the two statements looks like."""

    def clause(self, model):
        return sa.false()


class ExplainTest(test_cas_base.CasTestCase):

    def explain(self, ident, expected=None, filters=(), **kwargs):
        return db_api.update_or_explain(
            self.context, Volume, ident, {'status': 'deleting'},
            expected, filters, **kwargs)

    def assert_refused(self, message, ident, expected=None, filters=(),
                       **kwargs):
        error = self.assertRaises(exceptions.ConditionNotMet, self.explain,
                                  ident, expected, filters, **kwargs)
        self.assertEqual(message, str(error))
        return error

    def test_success_changes_the_row(self):
        ident = self.create_volume(status='available')
        self.assertIsNone(self.explain(ident, {'status': 'available'}))
        self.assertEqual('deleting', self.volume(ident)['status'])

    def test_expected_scalar(self):
        ident = self.create_volume(status='in-use')
        error = self.assert_refused(
            "volume status must be 'available', it is 'in-use'",
            ident, {'status': 'available'})
        self.assertEqual(('status', 'available', 'in-use'),
                         (error.field, error.expected, error.actual))
        self.assertEqual('in-use', self.volume(ident)['status'])

    def test_not(self):
        ident = self.create_volume(migration_status='migrating')
        self.assert_refused(
            "volume migration_status must not be 'migrating', "
            "it is 'migrating'",
            ident, {'migration_status': cond.Not('migrating')})

    def test_not_none(self):
        ident = self.create_volume(host=None)
        self.assert_refused("volume host must be set, it is unset",
                            ident, {'host': cond.Not(None)})

    def test_not_without_auto_none_refuses_null(self):
        ident = self.create_volume(migration_status=None)
        self.assert_refused(
            "volume migration_status must not be 'migrating', it is unset",
            ident, {'migration_status': cond.Not('migrating',
                                                 auto_none=False)})

    def test_collection(self):
        ident = self.create_volume(status='in-use')
        self.assert_refused(
            "volume status must be one of 'available', 'error', "
            "it is 'in-use'",
            ident, {'status': ('available', 'error')})

    def test_not_collection(self):
        ident = self.create_volume(status='in-use')
        self.assert_refused(
            "volume status must not be any of 'in-use', 'attaching', "
            "it is 'in-use'",
            ident, {'status': cond.Not(['in-use', 'attaching'])})

    def test_empty_collection(self):
        ident = self.create_volume(status='in-use')
        self.assert_refused(
            "volume status cannot match any value, it is 'in-use'",
            ident, {'status': []})

    def test_none(self):
        ident = self.create_volume(migration_status='migrating')
        self.assert_refused(
            "volume migration_status must be unset, it is 'migrating'",
            ident, {'migration_status': None})

    def test_filter_with_its_requirement(self):
        ident = self.create_volume(status='available')
        self.create_snapshot(ident)
        self.assert_refused('volume must have no snapshots', ident,
                            {'status': 'available'}, [no_snapshots()])
        self.assertEqual('available', self.volume(ident)['status'])

    def test_the_failing_condition_is_named_among_holding_ones(self):
        ident = self.create_volume(status='available', attach_status='attached')
        self.assert_refused(
            "volume attach_status must be 'detached', it is 'attached'",
            ident, {'status': 'available', 'attach_status': 'detached',
                    'migration_status': cond.Not('migrating')},
            [no_snapshots()])

    def test_sql_expected_value(self):
        ident = self.create_volume(status='available',
                                   previous_status='in-use')
        error = self.assertRaises(
            exceptions.ConditionNotMet, self.explain, ident,
            {'previous_status': Volume.status})
        self.assertIn('previous_status', str(error))

    def test_missing_row(self):
        error = self.assertRaises(exceptions.NotFound, self.explain,
                                  'no-such-volume', {'status': 'available'})
        self.assertEqual('volume no-such-volume could not be found.',
                         str(error))

    def test_deleted_row_is_not_found(self):
        ident = self.create_volume(deleted=True)
        self.assertRaises(exceptions.NotFound, self.explain, ident,
                          {'status': 'available'})
        self.assertIsNone(self.explain(ident, {'status': 'available'},
                                       include_deleted='yes'))

    def test_another_projects_row_is_not_found(self):
        # Whatever state it is in: a condition failing on it must not
        # tell one project about another's volume.
        for status in ('available', 'in-use'):
            ident = self.create_volume(project_id='theirs', status=status)
            error = self.assertRaises(
                exceptions.NotFound, db_api.update_or_explain,
                self.make_context(project_id='mine'), Volume, ident,
                {'status': 'deleting'}, {'status': 'available'},
                project_only=True)
            self.assertEqual('volume %s could not be found.' % ident,
                             str(error))
            self.assertEqual(status, self.volume(ident)['status'])

    def test_own_projects_row_is_explained(self):
        ident = self.create_volume(project_id='mine', status='in-use')
        error = self.assertRaises(
            exceptions.ConditionNotMet, db_api.update_or_explain,
            self.make_context(project_id='mine'), Volume, ident,
            {'status': 'deleting'}, {'status': 'available'},
            project_only=True)
        self.assertEqual("volume status must be 'available', it is 'in-use'",
                         str(error))

    def test_retries_when_the_row_changes_between_update_and_reread(self):
        # The CAS fails on an 'in-use' volume; before the re-read another
        # client makes it 'available' again, so every condition holds: the
        # update is tried again, and succeeds.
        ident = self.create_volume(status='in-use')
        tries = []

        def attempt():
            matched = db_api.conditional_update(
                self.context, Volume, {'status': 'deleting'},
                {'id': ident, 'status': 'available'})
            tries.append(matched)
            if not matched and len(tries) == 1:
                self.change_row(test_cas_base.VOLUMES, ident,
                                status='available')
            return matched

        self.assertIsNone(db_api.update_or_explain(
            self.context, Volume, ident, {'status': 'deleting'},
            {'status': 'available'}, attempt=attempt))
        self.assertEqual([False, True], tries)
        self.assertEqual('deleting', self.volume(ident)['status'])

    def test_gives_up_after_the_bound_with_concurrent_update(self):
        ident = self.create_volume(status='available')
        updates = []

        def count(conn, cursor, statement, *args):
            if statement.startswith('UPDATE volumes'):
                updates.append(statement)

        engine = session.get_engine()
        sa.event.listen(engine, 'before_cursor_execute', count)
        self.addCleanup(sa.event.remove, engine, 'before_cursor_execute',
                        count)
        error = self.assertRaises(
            exceptions.ConcurrentUpdate, self.explain, ident,
            filters=[NeverInSql('status', 'available')], attempts=3)
        self.assertEqual(3, error.attempts)
        self.assertEqual(3, len(updates))
        self.assertIn(ident, str(error))
        self.assertEqual('available', self.volume(ident)['status'])

    def test_inside_a_transaction_sees_what_the_update_saw(self):
        # The transaction read the row before another client changed it.
        # MySQL's UPDATE reads the latest row while a plain SELECT would
        # read the transaction's snapshot; PostgreSQL raises a serialization
        # failure and the whole transaction runs again. Either way the
        # caller learns the real reason.
        if self.backend == 'sqlite':
            self.skipTest('SQLite lets no one change a row while a write '
                          'transaction is open')
        ident = self.create_volume(status='available')
        runs = []

        @db_api.retry_on_deadlock
        def transaction(context):
            runs.append(1)
            with session.writer.connection.using(context) as conn:
                conn.execute(sa.select(Volume.status).where(Volume.id == ident))
                if len(runs) == 1:
                    self.change_row(test_cas_base.VOLUMES, ident,
                                    status='in-use')
                db_api.update_or_explain(
                    context, Volume, ident, {'status': 'deleting'},
                    {'status': 'available'})

        error = self.assertRaises(exceptions.ConditionNotMet, transaction,
                                  self.make_context())
        self.assertEqual("volume status must be 'available', it is 'in-use'",
                         str(error))


class ObjectExplainTest(test_cas_base.CasTestCase):

    def test_conditional_update_or_raise(self):
        ident = self.create_volume(status='in-use')
        volume = objects.Volume.get_by_id(self.context, ident)
        before = volume.obj_to_primitive()
        error = self.assertRaises(
            exceptions.ConditionNotMet, volume.conditional_update_or_raise,
            {'status': 'deleting'}, {'status': 'available'})
        self.assertEqual("volume status must be 'available', it is 'in-use'",
                         str(error))
        self.assertEqual(before, volume.obj_to_primitive())
        self.assertEqual('in-use', self.volume(ident)['status'])

    def test_conditional_update_or_raise_with_a_filter(self):
        ident = self.create_volume()
        self.create_snapshot(ident)
        volume = objects.Volume.get_by_id(self.context, ident)
        error = self.assertRaises(
            exceptions.ConditionNotMet, volume.conditional_update_or_raise,
            {'status': 'deleting'}, {'status': 'available'},
            [no_snapshots()])
        self.assertEqual('volume must have no snapshots', str(error))

    def test_unchanged_fields_name_the_one_that_changed(self):
        ident = self.create_volume(display_name='before')
        volume = objects.Volume.get_by_id(self.context, ident)
        self.change_row(test_cas_base.VOLUMES, ident, display_name='after')
        error = self.assertRaises(
            exceptions.ConditionNotMet, volume.conditional_update_or_raise,
            {'status': 'deleting'})
        # updated_at changed too (the column's onupdate); either is a
        # precise answer, both name the field and the values.
        self.assertIn(error.field, ('display_name', 'updated_at'))
        self.assertEqual('available', self.volume(ident)['status'])

    def test_success_reflects_and_returns_true(self):
        ident = self.create_volume(size=3)
        volume = objects.Volume.get_by_id(self.context, ident)
        self.assertTrue(volume.conditional_update_or_raise(
            {'status': 'extending', 'size': Volume.size + 2},
            {'status': 'available'}))
        self.assertEqual(('extending', 5), (volume.status, volume.size))
        self.assertEqual(set(), volume.obj_what_changed())

    def test_missing_row(self):
        ident = self.create_volume()
        volume = objects.Volume.get_by_id(self.context, ident)
        with self.database.engine.begin() as conn:
            conn.execute(sa.delete(Volume.__table__).where(Volume.id == ident))
        self.assertRaises(exceptions.NotFound,
                          volume.conditional_update_or_raise,
                          {'status': 'deleting'})
