"""Writes that go with a compare-and-swap (db.writes): made once the swap
has matched, in its transaction; on PostgreSQL in the swap's own
statement. On every backend the swap's conditions read the state from
before the writes, and a miss leaves nothing written once the transaction
is rolled back."""
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import exceptions
from db import models
from db import session
from db import statements
from db import writes as db_writes
from tests.unit import test_cas_base
from tests.unit.test_cas_explain import no_snapshots

Volume = models.Volume
VOLUMES = test_cas_base.VOLUMES
SNAPSHOTS = test_cas_base.SNAPSHOTS

_RENAME = VOLUMES.update().where(
    VOLUMES.c.id == sa.bindparam('renamed_id')).values(
    display_name=sa.bindparam('renamed_name'),
    updated_at=VOLUMES.c.updated_at)


class WritesCase(test_cas_base.CasTestCase):
    """Records the statements sent; snapshot rows to write."""

    def setUp(self):
        super().setUp()
        self.statements = []
        engine = self.database.engine
        listener = self.statements.append

        def seen(conn, cursor, statement, *args):
            listener(statement)
        sa.event.listen(engine, 'before_cursor_execute', seen)
        self.addCleanup(sa.event.remove, engine, 'before_cursor_execute',
                        seen)

    def snapshot_rows(self, volume_id, count):
        return [{'id': str(uuid.uuid4()), 'volume_id': volume_id,
                 'status': 'creating', 'deleted': False, 'volume_size': 1,
                 'created_at': timeutils.utcnow()} for _ in range(count)]

    def snapshots_of(self, volume_id):
        with self.database.engine.connect() as conn:
            return conn.execute(sa.select(SNAPSHOTS.c.id).where(
                SNAPSHOTS.c.volume_id == volume_id)).scalars().all()


class WritesTest(WritesCase):

    def swap(self, ident, expected, then, filters=()):
        with session.writer.connection.using(self.context):
            db_api.update_or_explain(self.context, Volume, ident,
                                     {'status': 'deleting'}, expected,
                                     filters, then=then)

    def test_made_with_the_swap_that_matches(self):
        ident = self.create_volume(status='available')
        other = self.create_volume(display_name='before')
        rows = self.snapshot_rows(ident, 2)
        del self.statements[:]
        self.swap(ident, {'status': 'available'}, [
            db_writes.Insert(SNAPSHOTS, rows, 'snapshot'),
            db_writes.Write(_RENAME, {'renamed_id': other,
                                      'renamed_name': 'after'})])
        self.assertEqual('deleting', self.volume(ident)['status'])
        self.assertEqual(sorted(r['id'] for r in rows),
                         sorted(self.snapshots_of(ident)))
        self.assertEqual('after', self.volume(other)['display_name'])
        updates = [s for s in self.statements
                   if s.lstrip().upper().startswith(('WITH', 'UPDATE',
                                                     'INSERT'))]
        if self.backend == 'postgresql':
            # One statement: the swap carries both writes.
            self.assertEqual(1, len(updates), updates)
            self.assertIn('INSERT INTO snapshots', updates[0])
        else:
            # The swap, then one executemany and one UPDATE.
            self.assertEqual(3, len(updates), updates)

    def test_the_swap_does_not_see_the_writes(self):
        # The swap requires no snapshots and its write adds one: the
        # condition reads the state from before the write, everywhere.
        ident = self.create_volume(status='available')
        rows = self.snapshot_rows(ident, 1)
        self.swap(ident, {'status': 'available'},
                  [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')],
                  [no_snapshots()])
        self.assertEqual('deleting', self.volume(ident)['status'])
        self.assertEqual([rows[0]['id']], self.snapshots_of(ident))

    def test_a_miss_leaves_nothing_written(self):
        ident = self.create_volume(status='in-use')
        then = [db_writes.Insert(SNAPSHOTS, self.snapshot_rows(ident, 1),
                                 'snapshot')]
        if self.backend == 'postgresql':
            # The writes were made with the swap: the caller must roll
            # back, and run again without them to learn why.
            self.assertRaises(exceptions.SwapMissed, self.swap, ident,
                              {'status': 'available'}, then)
        else:
            error = self.assertRaises(
                exceptions.ConditionNotMet, self.swap, ident,
                {'status': 'available'}, then)
            self.assertEqual(
                "volume status must be 'available', it is 'in-use'",
                str(error))
        self.assertEqual('in-use', self.volume(ident)['status'])
        self.assertEqual([], self.snapshots_of(ident))

    def test_carried_statements_are_built_once(self):
        ident, other = self.create_volume(), self.create_volume()
        for volume_id in (ident, other):
            self.swap(volume_id, {'status': 'available'}, [
                db_writes.Insert(SNAPSHOTS, self.snapshot_rows(volume_id, 1),
                                 'snapshot')])
        with session.writer.connection.using(self.context) as conn:
            dialect = conn.dialect.name
        key, statement, _ = db_writes.Insert(
            SNAPSHOTS, self.snapshot_rows(ident, 1), 'snapshot').parts()[0]
        first = statements.cached_conditional_update(
            self.context, Volume, {'status': 'deleting'}, [], dialect=dialect,
            then=[(key, statement)])[0]
        again = statements.cached_conditional_update(
            self.context, Volume, {'status': 'deleting'}, [], dialect=dialect,
            then=[(key, statement)])[0]
        self.assertIs(first, again)
        # SQLAlchemy can cache its compiled form too (it cannot for a
        # multi-row VALUES, which is why an Insert carries one per row).
        self.assertIsNotNone(first._generate_cache_key())

    def test_an_attempt_of_its_own_cannot_carry_writes(self):
        ident = self.create_volume()
        self.assertRaises(
            exceptions.InvalidUpdate, db_api.update_or_explain,
            self.context, Volume, ident, {'status': 'deleting'},
            attempt=lambda: True,
            then=[db_writes.Write(_RENAME, {'renamed_id': ident,
                                            'renamed_name': 'x'})])
        self.assertEqual('available', self.volume(ident)['status'])

    def test_many_writes_are_made_apart(self):
        # Past MAX_CARRIED statements (here 2 rows), even PostgreSQL makes
        # the writes after the swap: one executemany, within the server's
        # limit on bind parameters however many rows there are.
        self.patch(db_writes, 'MAX_CARRIED', 2)
        ident = self.create_volume(status='available')
        rows = self.snapshot_rows(ident, 3)
        del self.statements[:]
        self.swap(ident, {'status': 'available'},
                  [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')])
        self.assertEqual(sorted(r['id'] for r in rows),
                         sorted(self.snapshots_of(ident)))
        writes = [s for s in self.statements
                  if s.lstrip().upper().startswith(('WITH', 'UPDATE',
                                                    'INSERT'))]
        self.assertEqual(2, len(writes), writes)
        self.assertTrue(writes[0].lstrip().upper().startswith('UPDATE'))


class FirstWritesTest(WritesCase):
    """Writes made with a swap whatever it finds (``first``): the rows of
    something new, which its conditions do not read."""

    def swap_first(self, ident, expected, first):
        db_api.update_or_explain(self.context, Volume, ident,
                                 {'status': 'deleting'}, expected,
                                 first=first)

    def test_made_with_the_swap(self):
        ident = self.create_volume(status='available')
        rows = self.snapshot_rows(ident, 2)
        del self.statements[:]
        with session.writer.connection.using(self.context):
            self.swap_first(ident, {'status': 'available'},
                            [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')])
        self.assertEqual('deleting', self.volume(ident)['status'])
        self.assertEqual(sorted(r['id'] for r in rows),
                         sorted(self.snapshots_of(ident)))
        writes = [s.lstrip().split(None, 3)[:3] for s in self.statements
                  if s.lstrip().upper().startswith(('WITH', 'UPDATE',
                                                    'INSERT'))]
        if self.backend == 'postgresql':
            # One statement: the swap carries the inserts.
            self.assertEqual(1, len(writes), writes)
            self.assertEqual('WITH', writes[0][0])
        else:
            # The inserts (one executemany), then the swap.
            self.assertEqual([['INSERT', 'INTO', 'snapshots'],
                              ['UPDATE', 'volumes', 'SET']], writes)

    def test_a_miss_is_explained_and_the_writes_stay(self):
        ident = self.create_volume(status='in-use')
        rows = self.snapshot_rows(ident, 1)
        with session.writer.connection.using(self.context):
            error = self.assertRaises(
                exceptions.ConditionNotMet, self.swap_first, ident,
                {'status': 'available'},
                [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')])
            # Made all the same, in the caller's transaction, which
            # decides (here it commits).
        self.assertEqual("volume status must be 'available', it is "
                         "'in-use'", str(error))
        self.assertEqual('in-use', self.volume(ident)['status'])
        self.assertEqual([rows[0]['id']], self.snapshots_of(ident))

    def test_made_once_however_often_the_swap_is_tried(self):
        # A swap that misses though its conditions hold when read again
        # (the row changed in between, each time) is tried again: the
        # inserts, which would collide with themselves, go with the first
        # attempt alone.
        self.patch(db_api, '_first_unmet', lambda *args: (None, None))
        ident = self.create_volume(status='in-use')
        rows = self.snapshot_rows(ident, 1)
        with session.writer.connection.using(self.context):
            self.assertRaises(
                exceptions.ConcurrentUpdate, self.swap_first, ident,
                {'status': 'available'},
                [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')])
        self.assertEqual([rows[0]['id']], self.snapshots_of(ident))

    def test_many_are_made_apart_before_the_swap(self):
        # Past MAX_CARRIED statements even PostgreSQL makes them apart
        # (one executemany), before the swap as elsewhere.
        self.patch(db_writes, 'MAX_CARRIED', 2)
        ident = self.create_volume(status='available')
        rows = self.snapshot_rows(ident, 3)
        del self.statements[:]
        with session.writer.connection.using(self.context):
            self.swap_first(ident, {'status': 'available'},
                            [db_writes.Insert(SNAPSHOTS, rows, 'snapshot')])
        self.assertEqual(sorted(r['id'] for r in rows),
                         sorted(self.snapshots_of(ident)))
        writes = [s.lstrip().split(None, 3)[:3] for s in self.statements
                  if s.lstrip().upper().startswith(('WITH', 'UPDATE',
                                                    'INSERT'))]
        self.assertEqual([['INSERT', 'INTO', 'snapshots'],
                          ['UPDATE', 'volumes', 'SET']], writes)

    def test_not_both_first_and_after(self):
        ident = self.create_volume()
        rename = db_writes.Write(_RENAME, {'renamed_id': ident,
                                           'renamed_name': 'x'})
        self.assertRaises(
            exceptions.InvalidUpdate, db_api.update_or_explain,
            self.context, Volume, ident, {'status': 'deleting'},
            then=[rename], first=[rename])
        self.assertEqual('available', self.volume(ident)['status'])
