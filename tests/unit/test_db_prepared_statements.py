"""db.prepared_statements: read-only transactions end without forgetting
psycopg's prepared statements; a transaction that may have written is
rolled back as before."""
import uuid

import sqlalchemy as sa
from oslo_db import exception as db_exc

from db import models
from db import prepared_statements
from db import session
from tests import base


class MayWriteTest(base.TestCase):

    def test_reads(self):
        for statement in ('SELECT 1', '  select id FROM volumes',
                          'WITH t AS (SELECT 1 AS x) SELECT x FROM t'):
            self.assertFalse(prepared_statements.may_write(statement, None),
                             statement)

    def test_writes(self):
        for statement in ('UPDATE volumes SET status = 1',
                          'INSERT INTO workers VALUES (1)',
                          'delete from volumes', 'SET TIME ZONE UTC',
                          'WITH t AS (INSERT INTO x VALUES (1) RETURNING 1) '
                          'SELECT * FROM t',
                          'WITH t AS (delete FROM x RETURNING 1) SELECT 1'):
            self.assertTrue(prepared_statements.may_write(statement, None),
                            statement)


class PostgreSQLTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        if self.backend != 'postgresql':
            self.skipTest('only psycopg prepares statements by itself')
        self.engine = session.get_engine()

    def test_reads_get_prepared(self):
        # Five runs on one connection make psycopg prepare the statement;
        # with each transaction rolled back, none ever was.
        count = sa.select(sa.func.count()).select_from(
            models.Volume.__table__)
        with self.engine.connect() as conn:
            for _ in range(6):
                transaction = conn.begin()
                conn.execute(count).scalar()
                transaction.rollback()
            prepared = conn.execute(sa.text(
                'SELECT statement FROM pg_prepared_statements')).scalars()
            self.assertIn('count(*)', ' '.join(prepared))

    def test_a_transaction_that_failed_is_rolled_back(self):
        with self.engine.connect() as conn:
            transaction = conn.begin()
            self.assertRaises(db_exc.DBError, conn.execute,
                              sa.text('SELECT 1/0'))
            transaction.rollback()
            self.assertEqual(1, conn.execute(sa.text('SELECT 1')).scalar())

    def test_a_reader_that_wrote_is_rolled_back(self):
        workers = models.Worker.__table__
        values = dict(resource_type='VOLUME', resource_id=str(uuid.uuid4()),
                      status='creating')
        with session.reader.connection.using(self.context) as conn:
            conn.execute(workers.insert().values(**values))
        with session.reader.connection.using(self.context) as conn:
            found = conn.execute(sa.select(workers.c.id).where(
                workers.c.resource_id == values['resource_id'])).all()
        self.assertEqual([], found)

    def test_a_write_in_a_cte_is_rolled_back(self):
        workers = models.Worker.__table__
        resource_id = str(uuid.uuid4())
        insert = workers.insert().values(
            resource_type='VOLUME', resource_id=resource_id,
            status='creating').returning(workers.c.id).cte('made')
        with session.reader.connection.using(self.context) as conn:
            conn.execute(sa.select(insert.c.id)).all()
        with session.reader.connection.using(self.context) as conn:
            found = conn.execute(sa.select(workers.c.id).where(
                workers.c.resource_id == resource_id)).all()
        self.assertEqual([], found)
