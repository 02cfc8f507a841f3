"""db.statements builds the conditional UPDATE once per cache key and binds
each call's literals: calls of one shape share a statement, calls that
differ only in literal values still each match exactly their own rows, and
anything that changes the SQL (None, True/False, a collection's length,
Not, the project restriction, an SQL value's key) gets its own statement.
SQL without a key is built for its call alone, and counted so."""
import sqlalchemy as sa

from db import api as db_api
from db import conditions as cond
from db import exceptions
from db import models
from db import statements
from tests.unit import test_cas_base


Volume = models.Volume


class StatementCacheTest(test_cas_base.CasTestCase):

    def statement(self, values, expected, context=None, project_only=False):
        conditions = cond.as_conditions(Volume, expected)
        return statements.cached_conditional_update(
            context or self.context, Volume, values, conditions,
            project_only=project_only, dialect=self.backend)

    def update(self, values, expected, context=None, project_only=False):
        return db_api.conditional_update(
            context or self.context, Volume, values, expected,
            project_only=project_only)

    def test_one_statement_per_shape_with_the_call_literals_bound(self):
        first, first_params = self.statement({'status': 'a'},
                                             {'id': 'x', 'size': 1})
        second, second_params = self.statement({'status': 'b'},
                                               {'id': 'y', 'size': 2})
        self.assertIs(first, second)
        self.assertEqual(['a', 'x', 1], list(first_params.values()))
        self.assertEqual(['b', 'y', 2], list(second_params.values()))

    def test_calls_of_one_shape_each_change_only_their_own_row(self):
        one, two = self.create_volume(), self.create_volume(size=2)
        self.assertTrue(self.update({'status': 'one'}, {'id': one,
                                                        'size': 1}))
        self.assertFalse(self.update({'status': 'two'}, {'id': two,
                                                         'size': 1}))
        self.assertTrue(self.update({'status': 'two'}, {'id': two,
                                                        'size': 2}))
        self.assertEqual('one', self.volume(one)['status'])
        self.assertEqual('two', self.volume(two)['status'])

    def test_none_true_false_and_lengths_are_shapes_of_their_own(self):
        shapes = [{'migration_status': 'x'}, {'migration_status': None},
                  {'multiattach': True}, {'multiattach': False},
                  {'status': ('a', 'b')}, {'status': ('a', 'b', 'c')},
                  {'status': ('a', None)}, {'status': cond.Not('a')},
                  {'status': cond.Not('a', auto_none=False)}]
        statements = {id(self.statement({'status': 's'}, dict(shape))[0])
                      for shape in shapes}
        self.assertEqual(len(shapes), len(statements))

    def test_expected_none_after_a_value_still_means_null(self):
        unset = self.create_volume(migration_status=None)
        set_ = self.create_volume(migration_status='migrating')
        for ident in (unset, set_):
            self.update({'display_name': 'v'}, {'id': ident,
                                                'migration_status': 'x'})
        self.assertTrue(self.update({'display_name': 'n'},
                                    {'id': unset, 'migration_status': None}))
        self.assertFalse(self.update({'display_name': 'n'},
                                     {'id': set_, 'migration_status': None}))

    def test_false_after_true_still_means_false(self):
        plain = self.create_volume(multiattach=False)
        self.assertFalse(self.update({'display_name': 't'},
                                     {'id': plain, 'multiattach': True}))
        self.assertTrue(self.update({'display_name': 'f'},
                                    {'id': plain, 'multiattach': False}))
        self.assertEqual('f', self.volume(plain)['display_name'])

    def test_project_restriction_binds_each_callers_project(self):
        mine = self.create_volume(project_id='mine')
        theirs = self.create_volume(project_id='theirs')
        me = self.make_context('mine', 'user')
        them = self.make_context('theirs', 'user')
        self.assertFalse(self.update({'status': 'x'}, {'id': theirs},
                                     context=me, project_only=True))
        self.assertTrue(self.update({'status': 'x'}, {'id': theirs},
                                    context=them, project_only=True))
        self.assertTrue(self.update({'status': 'x'}, {'id': mine},
                                    context=me, project_only=True))
        self.assertEqual('x', self.volume(mine)['status'])

    def test_a_condition_with_a_shape_shares_a_statement_and_binds(self):
        # os-extend's "size < new size": one statement for every new size.
        built = [statements.cached_conditional_update(
            self.context, Volume, {'status': 'extending'},
            [cond.LessThan('size', bound)], dialect=self.backend)
            for bound in (3, 6)]
        self.assertIs(built[0][0], built[1][0])
        self.assertEqual([['extending', 3], ['extending', 6]],
                         [list(params.values()) for _, params in built])
        small, big = self.create_volume(size=1), self.create_volume(size=5)
        for volume, bound, matched in ((small, 3, True), (big, 3, False),
                                       (big, 6, True)):
            with self.subTest(volume=volume, bound=bound):
                self.assertEqual(matched, db_api.conditional_update(
                    self.context, Volume, {'status': 'extending'},
                    {'id': volume}, [cond.LessThan('size', bound)]))

    def test_sql_values_share_a_statement_by_key_and_bind_their_params(self):
        def doubled_plus(extra):
            return cond.Sql(('doubled_plus',),
                            lambda: Volume.size * 2 + sa.bindparam('extra'),
                            {'extra': extra})
        first, params = self.statement({'size': doubled_plus(1)}, {'id': 'x'})
        again, again_params = self.statement({'size': doubled_plus(5)},
                                             {'id': 'y'})
        self.assertIs(first, again)
        self.assertEqual((1, 5), (params['extra'], again_params['extra']))
        ident = self.create_volume(size=3)
        self.assertTrue(self.update({'size': doubled_plus(4)}, {'id': ident}))
        self.assertEqual(10, self.volume(ident)['size'])

    def test_sql_without_a_key_is_built_for_its_call_and_counted(self):
        before = statements.cache_stats()
        first, _ = self.statement({'size': Volume.size * 2}, {'id': 'x'})
        again, _ = self.statement({'size': Volume.size * 2}, {'id': 'x'})
        after = statements.cache_stats()
        self.assertIsNot(first, again)
        self.assertEqual(2, after['uncached'] - before['uncached'])
        self.assertEqual(before['size'], after['size'])

    def test_a_keyed_filter_binds_each_calls_params(self):
        def larger_than(least):
            return cond.Filter(cond.Sql(
                ('larger',), lambda: Volume.size > sa.bindparam('p_least'),
                {'p_least': least}), 'must be larger')
        ident = self.create_volume(size=3)
        self.assertTrue(db_api.conditional_update(
            self.context, Volume, {'status': 'big'}, {'id': ident},
            [larger_than(2)]))
        self.assertFalse(db_api.conditional_update(
            self.context, Volume, {'status': 'bigger'}, {'id': ident},
            [larger_than(3)]))
        self.assertEqual('big', self.volume(ident)['status'])
        error = self.assertRaises(
            exceptions.ConditionNotMet, db_api.update_or_explain,
            self.context, Volume, ident, {'status': 'bigger'},
            filters=[larger_than(3)])
        self.assertEqual('volume must be larger', str(error))

    def test_bound_literals_are_set_after_values_that_read_columns(self):
        # MySQL evaluates SET left to right: a literal written first would
        # be what a later column-reading value sees.
        pairs = statements.ordered_set(Volume, {
            'status': sa.bindparam('new_status'),
            'previous_status': Volume.status})
        self.assertEqual(['previous_status', 'status'],
                         [column.key for column, _ in pairs])
        ident = self.create_volume(status='available')
        self.assertTrue(self.update(
            {'status': 'retyping', 'previous_status': Volume.status},
            {'id': ident}))
        row = self.volume(ident)
        self.assertEqual(('retyping', 'available'),
                         (row['status'], row['previous_status']))

    def test_the_cache_is_bounded(self):
        for size in range(statements.MAX_CACHED_STATEMENTS + 10):
            self.statement({'size': cond.Sql(('plus', size),
                                             lambda: Volume.size + size)},
                           {'id': 'x'})
        self.assertLessEqual(statements.cache_stats()['size'],
                             statements.MAX_CACHED_STATEMENTS)
