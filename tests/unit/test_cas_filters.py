"""Filters of db.api.conditional_update: arbitrary SQLAlchemy criteria,
subqueries on other tables and on the table being updated itself."""
import sqlalchemy as sa
from sqlalchemy import orm

from db import api as db_api
from db import conditions as cond
from db import models
from db import statements
from tests.unit import test_cas_base

Volume = models.Volume


def no_snapshots():
    return ~sa.exists().where(models.Snapshot.volume_id == Volume.id,
                              models.Snapshot.deleted == sa.false())


def no_attachments():
    return ~sa.exists().where(models.VolumeAttachment.volume_id == Volume.id,
                              models.VolumeAttachment.deleted == sa.false())


def no_clones():
    clone = orm.aliased(Volume)
    return ~sa.exists().where(clone.source_volid == Volume.id,
                              clone.deleted == sa.false())


class FilterTest(test_cas_base.CasTestCase):

    def delete(self, ident, *filters):
        return db_api.conditional_update(
            self.context, Volume, {'status': 'deleting'},
            {'id': ident, 'status': 'available'}, filters)

    def test_plain_criterion(self):
        small = self.create_volume(size=1)
        big = self.create_volume(size=10)
        self.assertFalse(self.delete(small, Volume.size > 5))
        self.assertTrue(self.delete(big, Volume.size > 5))

    def test_no_snapshots(self):
        with_snapshot = self.create_volume()
        self.create_snapshot(with_snapshot)
        with_deleted_snapshot = self.create_volume()
        self.create_snapshot(with_deleted_snapshot, deleted=True)
        self.assertFalse(self.delete(with_snapshot, no_snapshots()))
        self.assertTrue(self.delete(with_deleted_snapshot, no_snapshots()))
        self.assertEqual('available', self.volume(with_snapshot)['status'])
        self.assertEqual('deleting',
                         self.volume(with_deleted_snapshot)['status'])

    def test_no_attachments(self):
        attached = self.create_volume()
        self.create_attachment(attached)
        free = self.create_volume()
        self.assertFalse(self.delete(attached, no_attachments()))
        self.assertTrue(self.delete(free, no_attachments()))

    def test_filter_condition_object(self):
        ident = self.create_volume()
        self.create_snapshot(ident)
        self.assertFalse(self.delete(
            ident, cond.Filter(no_snapshots(), 'must have no snapshots')))

    def test_several_filters_must_all_hold(self):
        ident = self.create_volume()
        self.create_attachment(ident)
        self.assertFalse(self.delete(ident, no_snapshots(), no_attachments()))
        self.assertEqual('available', self.volume(ident)['status'])

    def test_subquery_on_the_updated_table(self):
        source = self.create_volume()
        self.create_volume(source_volid=source)
        lonely = self.create_volume()
        self.assertFalse(self.delete(source, no_clones()))
        self.assertTrue(self.delete(lonely, no_clones()))
        self.assertEqual('available', self.volume(source)['status'])
        self.assertEqual('deleting', self.volume(lonely)['status'])

    def test_subquery_on_the_updated_table_after_its_clones_go(self):
        source = self.create_volume()
        clone = self.create_volume(source_volid=source)
        self.change_row(test_cas_base.VOLUMES, clone, deleted=True)
        self.assertTrue(self.delete(source, no_clones()))

    def test_self_subquery_runs_through_a_derived_table_on_mysql(self):
        # MySQL refuses an UPDATE whose WHERE reads its own table (error
        # 1093; MariaDB accepts it since 10.3.2): db.api sends a derived
        # table instead. Show that what ran on the server is that form.
        if self.backend != 'mysql':
            self.skipTest('the derived-table rewrite is for MySQL/MariaDB')
        statements = []

        def record(conn, cursor, statement, *args):
            statements.append(statement)

        engine = self.database.engine
        sa.event.listen(engine, 'before_cursor_execute', record)
        self.addCleanup(sa.event.remove, engine, 'before_cursor_execute',
                        record)
        source = self.create_volume()
        self.create_volume(source_volid=source)
        self.assertFalse(self.delete(source, no_clones()))
        updates = [s for s in statements if s.startswith('UPDATE volumes')]
        self.assertEqual(1, len(updates))
        self.assertIn(') AS cas_self', updates[0])

    def test_correlated_subquery_on_another_table_is_not_rewritten(self):
        statement = statements.build_conditional_update(
            self.context, Volume, {'status': 'deleting'},
            cond.as_conditions(Volume, {'id': 'x'}, [no_snapshots()]),
            dialect='mysql')
        self.assertNotIn('cas_self', str(statement))

    def test_self_subquery_is_narrowed_by_the_other_conditions(self):
        # The derived table repeats the plain conditions so that MySQL
        # looks up one row by primary key instead of scanning the table.
        statement = statements.build_conditional_update(
            self.context, Volume, {'status': 'deleting'},
            cond.as_conditions(Volume, {'id': 'x'}, [no_clones()]),
            dialect='mysql')
        derived = str(statement).split('cas_self', 1)[1]
        self.assertIn('volumes.id = ', derived)
