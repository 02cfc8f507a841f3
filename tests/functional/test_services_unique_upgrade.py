"""Migration 0018 on a database where two processes of one host both
registered a services row: the rows merge into the oldest, which takes the
others' workers rows, and the database then refuses a second row."""
import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_utils import timeutils

from db import migration
from db import session
from tests import base
from tests import fixtures

BEFORE = '0014_mv367'
SERVICES = sa.table('services', sa.column('id'), sa.column('host'),
                    sa.column('binary'), sa.column('report_count'),
                    sa.column('disabled'), sa.column('deleted'),
                    sa.column('created_at'))


def insert_service(conn, host):
    conn.execute(sa.insert(SERVICES).values(
        host=host, binary='volapi-volume', report_count=0, disabled=False,
        deleted=False, created_at=timeutils.utcnow()))


class ServicesUniqueUpgradeTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.SchemaAt(BEFORE))
        self.engine = session.get_engine()
        with self.engine.begin() as conn:
            for host in ('h1@file', 'h1@file', 'h2@file', 'h1@file'):
                insert_service(conn, host)
            self.ids = [row.id for row in conn.execute(sa.text(
                'SELECT id FROM services ORDER BY id'))]
            for service_id in self.ids:
                conn.execute(sa.text(
                    "INSERT INTO workers (resource_type, resource_id, "
                    "status, service_id, cleaning, race_preventer, "
                    "created_at) VALUES ('Volume', :r, 'creating', :s, :f, "
                    "0, :now)"),
                    {'r': 'volume-%d' % service_id, 's': service_id,
                     'f': False, 'now': timeutils.utcnow()})

    def rows(self, query):
        with self.engine.connect() as conn:
            return sorted(tuple(row) for row in conn.execute(sa.text(query)))

    def test_duplicates_merge_into_the_oldest(self):
        migration.sync()
        h1, _, h2, _ = self.ids
        self.assertEqual([(h1, 'h1@file'), (h2, 'h2@file')],
                         self.rows('SELECT id, host FROM services'))
        self.assertEqual(
            sorted(('volume-%d' % i, h2 if i == h2 else h1)
                   for i in self.ids),
            self.rows('SELECT resource_id, service_id FROM workers'))
        with self.assertRaises(db_exc.DBDuplicateEntry):
            with self.engine.begin() as conn:
                insert_service(conn, 'h2@file')
        # Back down: a second row of a host is allowed again.
        migration.downgrade(BEFORE)
        with self.engine.begin() as conn:
            insert_service(conn, 'h2@file')
        self.assertEqual(2, len(self.rows(
            "SELECT id FROM services WHERE host = 'h2@file'")))
