"""Values, SET ordering, refusals and scoping of db.api.conditional_update."""
import sqlalchemy as sa

from db import api as db_api
from db import conditions as cond
from db import exceptions
from db import models
from db import statements
from tests.unit import test_cas_base

Volume = models.Volume


def attached_or_available():
    """'in-use' while the volume has a live attachment, else 'available'
    (how a detach picks the status it leaves)."""
    has_attachment = sa.exists().where(
        models.VolumeAttachment.volume_id == Volume.id,
        models.VolumeAttachment.deleted == sa.false())
    return cond.Case([(has_attachment, 'in-use')], else_='available')


class ValuesTest(test_cas_base.CasTestCase):

    def update(self, ident, values, expected=None, **kwargs):
        return db_api.conditional_update(
            self.context, Volume, values, dict(expected or {}, id=ident),
            **kwargs)

    def test_literals(self):
        ident = self.create_volume()
        self.assertTrue(self.update(ident, {'status': 'error', 'size': 7,
                                            'display_name': None}))
        row = self.volume(ident)
        self.assertEqual(('error', 7, None),
                         (row['status'], row['size'], row['display_name']))

    def test_other_column(self):
        ident = self.create_volume(status='in-use', previous_status=None)
        self.assertTrue(self.update(ident,
                                    {'previous_status': Volume.status}))
        self.assertEqual('in-use', self.volume(ident)['previous_status'])

    def test_expression(self):
        ident = self.create_volume(size=5)
        self.assertTrue(self.update(ident, {'size': Volume.size + 10}))
        self.assertEqual(15, self.volume(ident)['size'])

    def test_case(self):
        big = self.create_volume(size=20)
        small = self.create_volume(size=2)
        value = cond.Case([(Volume.size > 10, 'big')], else_='small')
        for ident in (big, small):
            self.assertTrue(self.update(ident, {'display_name': value}))
        self.assertEqual('big', self.volume(big)['display_name'])
        self.assertEqual('small', self.volume(small)['display_name'])

    def test_case_on_an_exists_subquery(self):
        still_attached = self.create_volume(status='detaching')
        self.create_attachment(still_attached)
        self.create_attachment(still_attached, deleted=True)
        last_detached = self.create_volume(status='detaching')
        self.create_attachment(last_detached, deleted=True)
        for ident in (still_attached, last_detached):
            self.assertTrue(self.update(
                ident, {'status': attached_or_available()},
                {'status': 'detaching'}))
        self.assertEqual('in-use', self.volume(still_attached)['status'])
        self.assertEqual('available', self.volume(last_detached)['status'])

    def test_set_keeps_the_old_status_on_every_backend(self):
        # MySQL evaluates SET left to right with values already assigned;
        # the literal must go after the column it overwrites is read.
        ident = self.create_volume(status='available')
        self.assertTrue(self.update(
            ident, {'status': 'retyping', 'previous_status': Volume.status},
            {'status': 'available'}))
        row = self.volume(ident)
        self.assertEqual(('retyping', 'available'),
                         (row['status'], row['previous_status']))

    def test_case_reads_the_old_value_too(self):
        ident = self.create_volume(status='available', size=20)
        self.assertTrue(self.update(ident, {
            'status': 'retyping',
            'display_name': cond.Case([(Volume.status == 'available',
                                        'was available')], else_='other')}))
        self.assertEqual('was available',
                         self.volume(ident)['display_name'])

    def test_set_order_puts_columns_before_case_before_literals(self):
        pairs = statements.ordered_set(Volume, {
            'status': 'retyping',
            'display_name': cond.Case([(Volume.size > 1, 'a')], else_='b'),
            'previous_status': Volume.status})
        self.assertEqual(['previous_status', 'display_name', 'status'],
                         [column.key for column, _ in pairs])

    def test_order_argument_comes_first(self):
        # Keys named in ``order`` go first, in that order, then the rest.
        pairs = statements.ordered_set(
            Volume, {'previous_status': Volume.status, 'status': 'x',
                     'size': 3},
            order=('status', 'size'))
        self.assertEqual(['status', 'size', 'previous_status'],
                         [column.key for column, _ in pairs])

    def test_order_argument_is_honoured_by_the_database(self):
        # With status first, MySQL copies the NEW status into
        # previous_status; PostgreSQL and SQLite copy the old one. The
        # caller asked for that order; the statement keeps it.
        ident = self.create_volume(status='available')
        self.assertTrue(self.update(
            ident, {'status': 'retyping', 'previous_status': Volume.status},
            order=('status',)))
        expected = 'retyping' if self.backend == 'mysql' else 'available'
        self.assertEqual(expected, self.volume(ident)['previous_status'])

    def test_order_naming_a_key_not_updated_is_refused(self):
        ident = self.create_volume()
        error = self.assertRaises(
            exceptions.InvalidUpdate, self.update, ident, {'status': 'x'},
            order=('size',))
        self.assertIn('size', str(error))

    def test_no_values_is_refused(self):
        ident = self.create_volume()
        self.assertRaises(exceptions.InvalidUpdate, self.update, ident, {})

    def test_match_without_change_is_true(self):
        # MySQL reports changed rows unless the connection asks for found
        # rows; a CAS that matched but wrote the same values still
        # succeeded. (volume_metadata has no updated_at that would change.)
        ident = self.create_volume()
        self.insert(models.VolumeMetadata.__table__, id=1, volume_id=ident,
                    key='k', value='same')
        self.assertTrue(db_api.conditional_update(
            self.context, models.VolumeMetadata, {'value': 'same'},
            {'id': 1, 'value': 'same'}))
        # A volume whose every written value, updated_at included, is
        # what it already holds.
        self.assertTrue(self.update(
            ident, {'status': 'available',
                    'updated_at': Volume.updated_at},
            {'status': 'available'}))
        self.assertFalse(db_api.conditional_update(
            self.context, models.VolumeMetadata, {'value': 'same'},
            {'id': 1, 'value': 'other'}))

    def test_no_match_is_false_and_changes_nothing(self):
        ident = self.create_volume(status='in-use')
        self.assertFalse(self.update(ident, {'status': 'deleting'},
                                     {'status': 'available'}))
        self.assertEqual('in-use', self.volume(ident)['status'])


class RefusalTest(test_cas_base.CasTestCase):

    def test_keys_of_two_models(self):
        ident = self.create_volume()
        error = self.assertRaises(
            exceptions.InvalidUpdate, db_api.conditional_update,
            self.context, Volume,
            {'status': 'x', models.Snapshot.status: 'y'}, {'id': ident})
        self.assertIn('one model', str(error))
        self.assertIn('snapshots', str(error))
        self.assertEqual('available', self.volume(ident)['status'])

    def test_expected_key_of_another_model(self):
        ident = self.create_volume()
        error = self.assertRaises(
            exceptions.InvalidUpdate, db_api.conditional_update,
            self.context, Volume, {'status': 'x'},
            {'id': ident, models.Snapshot.status: 'available'})
        self.assertIn('snapshots', str(error))

    def test_value_reading_another_table(self):
        ident = self.create_volume()
        for value in (models.Snapshot.status,
                      sa.func.lower(models.Snapshot.status),
                      cond.Case([(models.Snapshot.status == 'a', 'b')],
                                else_='c')):
            error = self.assertRaises(
                exceptions.InvalidUpdate, db_api.conditional_update,
                self.context, Volume, {'status': value}, {'id': ident})
            self.assertIn('snapshots.status', str(error))

    def test_value_from_a_subquery_on_another_table_is_allowed(self):
        ident = self.create_volume(size=1)
        self.create_snapshot(ident, volume_size=9)
        biggest = (sa.select(sa.func.max(models.Snapshot.volume_size))
                   .where(models.Snapshot.volume_id == Volume.id)
                   .scalar_subquery())
        self.assertTrue(db_api.conditional_update(
            self.context, Volume, {'size': biggest}, {'id': ident}))
        self.assertEqual(9, self.volume(ident)['size'])

    def test_unknown_column(self):
        ident = self.create_volume()
        for values, expected in (({'no_such': 1}, {'id': ident}),
                                 ({'status': 'x'},
                                  {'id': ident, 'no_such': 1})):
            error = self.assertRaises(
                exceptions.InvalidUpdate, db_api.conditional_update,
                self.context, Volume, values, expected)
            self.assertIn("'no_such'", str(error))


class ScopeTest(test_cas_base.CasTestCase):

    def test_include_deleted(self):
        live = self.create_volume()
        gone = self.create_volume(deleted=True)
        cases = {'no': {live}, 'yes': {live, gone}, 'only': {gone}}
        for include_deleted, expected in cases.items():
            matched = {ident for ident in (live, gone)
                       if db_api.conditional_update(
                           self.context, Volume, {'display_name': 'x'},
                           {'id': ident}, include_deleted=include_deleted)}
            self.assertEqual(expected, matched, include_deleted)

    def test_include_deleted_invalid(self):
        ident = self.create_volume()
        for invalid in ('maybe', True, None, ['no']):
            error = self.assertRaises(
                exceptions.InvalidUpdate, db_api.conditional_update,
                self.context, Volume, {'status': 'x'}, {'id': ident},
                include_deleted=invalid)
            self.assertIn('include_deleted', str(error))
        # Also on a table without soft delete.
        self.assertRaises(
            exceptions.InvalidUpdate, db_api.conditional_update,
            self.context, models.VolumeMetadata, {'value': 'x'}, {'id': 1},
            include_deleted='maybe')

    def test_project_only_for_a_non_admin(self):
        mine = self.create_volume(project_id='mine')
        theirs = self.create_volume(project_id='theirs')
        context = self.make_context(project_id='mine')
        for ident, expected in ((mine, True), (theirs, False)):
            self.assertEqual(expected, db_api.conditional_update(
                context, Volume, {'status': 'x'}, {'id': ident},
                project_only=True))
        self.assertEqual('available', self.volume(theirs)['status'])

    def test_project_only_is_ignored_for_an_admin(self):
        theirs = self.create_volume(project_id='theirs')
        admin = self.make_context(project_id='mine', is_admin=True)
        self.assertTrue(db_api.conditional_update(
            admin, Volume, {'status': 'x'}, {'id': theirs},
            project_only=True))

    def test_project_only_off_for_a_non_admin(self):
        theirs = self.create_volume(project_id='theirs')
        context = self.make_context(project_id='mine')
        self.assertTrue(db_api.conditional_update(
            context, Volume, {'status': 'x'}, {'id': theirs}))
