"""Expected values of db.api.conditional_update: each rule, run as the real
UPDATE on the backend under test, and the same rule checked in Python
(Expect.holds, used to explain failures) — the two must agree."""
from db import api as db_api
from db import conditions as cond
from db import models
from tests.unit import test_cas_base

MIGRATION_STATUSES = (None, 'migrating', 'error', 'success')


class ExpectedValueTest(test_cas_base.CasTestCase):

    def setUp(self):
        super().setUp()
        self.by_status = {status: self.create_volume(migration_status=status)
                          for status in MIGRATION_STATUSES}

    def matching(self, expected, field='migration_status'):
        """The migration statuses of the volumes a CAS expecting ``expected``
        matches, checked against Expect.holds on the way."""
        matched = set()
        for status, ident in self.by_status.items():
            hit = db_api.conditional_update(
                self.context, models.Volume, {'display_name': 'touched'},
                {'id': ident, field: expected})
            actual = self.volume(ident)[field]
            self.assertEqual(
                hit, cond.Expect(field, expected).holds(actual),
                'SQL and Python disagree on %r for %r' % (expected, actual))
            if hit:
                matched.add(status)
        return matched

    def test_scalar_is_equality(self):
        self.assertEqual({'migrating'}, self.matching('migrating'))

    def test_none_is_null(self):
        self.assertEqual({None}, self.matching(None))

    def test_list_tuple_set_are_in(self):
        for expected in (['migrating', 'error'], ('migrating', 'error'),
                         {'migrating', 'error'},
                         frozenset(['migrating', 'error'])):
            self.assertEqual({'migrating', 'error'}, self.matching(expected))

    def test_collection_holding_none_also_matches_null(self):
        self.assertEqual({'migrating', None},
                         self.matching(('migrating', None)))
        self.assertEqual({None}, self.matching([None]))

    def test_empty_collection_matches_nothing(self):
        self.assertEqual(set(), self.matching([]))
        self.assertEqual(set(), self.matching(()))

    def test_range_is_in(self):
        sizes = {size: self.create_volume(size=size) for size in range(1, 6)}
        matched = {size for size, ident in sizes.items()
                   if db_api.conditional_update(
                       self.context, models.Volume, {'display_name': 'x'},
                       {'id': ident, 'size': range(2, 4)})}
        self.assertEqual({2, 3}, matched)

    def test_not_scalar_matches_null_like_python(self):
        self.assertEqual({None, 'error', 'success'},
                         self.matching(cond.Not('migrating')))

    def test_not_scalar_without_auto_none(self):
        self.assertEqual({'error', 'success'},
                         self.matching(cond.Not('migrating',
                                                auto_none=False)))

    def test_not_none_is_not_null(self):
        self.assertEqual({'migrating', 'error', 'success'},
                         self.matching(cond.Not(None)))

    def test_not_collection_matches_null_like_python(self):
        self.assertEqual({None, 'success'},
                         self.matching(cond.Not(['migrating', 'error'])))

    def test_not_collection_without_auto_none(self):
        self.assertEqual({'success'},
                         self.matching(cond.Not(['migrating', 'error'],
                                                auto_none=False)))

    def test_not_collection_holding_none(self):
        self.assertEqual({'error', 'success'},
                         self.matching(cond.Not((None, 'migrating'))))
        self.assertEqual({'migrating', 'error', 'success'},
                         self.matching(cond.Not([None])))

    def test_not_empty_collection(self):
        self.assertEqual(set(MIGRATION_STATUSES),
                         self.matching(cond.Not([])))
        self.assertEqual({'migrating', 'error', 'success'},
                         self.matching(cond.Not([], auto_none=False)))

    def test_sql_expression_as_expected_value(self):
        same = self.create_volume(status='available',
                                  previous_status='available')
        other = self.create_volume(status='available',
                                   previous_status='in-use')
        expected = {'previous_status': models.Volume.status}
        self.assertTrue(db_api.conditional_update(
            self.context, models.Volume, {'status': 'retyping'},
            dict(expected, id=same)))
        self.assertFalse(db_api.conditional_update(
            self.context, models.Volume, {'status': 'retyping'},
            dict(expected, id=other)))
        self.assertEqual('retyping', self.volume(same)['status'])
        self.assertEqual('available', self.volume(other)['status'])

    def test_expression_of_columns_as_expected_value(self):
        ident = self.create_volume(size=4)
        self.assertFalse(db_api.conditional_update(
            self.context, models.Volume, {'status': 'extending'},
            {'id': ident, 'size': models.Volume.size + 1}))
        self.assertTrue(db_api.conditional_update(
            self.context, models.Volume, {'status': 'extending'},
            {'id': ident, 'size': models.Volume.size * 1}))

    def test_attribute_keys_are_accepted(self):
        ident = self.by_status['error']
        self.assertTrue(db_api.conditional_update(
            self.context, models.Volume, {models.Volume.status: 'error'},
            {models.Volume.id: ident,
             models.Volume.migration_status: 'error'}))
        self.assertEqual('error', self.volume(ident)['status'])

    def test_several_expected_values_must_all_hold(self):
        ident = self.create_volume(status='available',
                                   attach_status='detached')
        self.assertFalse(db_api.conditional_update(
            self.context, models.Volume, {'status': 'attaching'},
            {'id': ident, 'status': 'available',
             'attach_status': 'attached'}))
        self.assertTrue(db_api.conditional_update(
            self.context, models.Volume, {'status': 'attaching'},
            {'id': ident, 'status': 'available',
             'attach_status': 'detached'}))
