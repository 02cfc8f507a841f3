"""Migration 0003: inventories get ``allocated``, the sum of the
allocations already written of their class on their provider."""
import sqlalchemy as sa

from db import migration
from db import session
from tests import base
from tests import fixtures

# The revision before 0003 (not '0003@-1': alembic counts that from the
# current head, so it stops at 0003 once later revisions exist).
BEFORE = '0002_volume_types'


class AllocatedBackfillTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.SchemaAt(BEFORE))

    def test_existing_allocations_are_summed(self):
        engine = session.get_engine()
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO resource_providers (id, uuid, name, generation, "
                "root_provider_id, created_at) VALUES (1, :u, 'rp', 0, 1, "
                "CURRENT_TIMESTAMP)"),
                {'u': '11111111-1111-1111-1111-111111111111'})
            for class_id in (0, 1, 2):
                conn.execute(sa.text(
                    "INSERT INTO inventories (resource_provider_id, "
                    "resource_class_id, total, reserved, min_unit, max_unit,"
                    " step_size, allocation_ratio, created_at) VALUES (1, :c,"
                    " 100, 0, 1, 100, 1, 1.0, CURRENT_TIMESTAMP)"),
                    {'c': class_id})
            conn.execute(sa.text(
                "INSERT INTO allocations (resource_provider_id, "
                "resource_class_id, consumer_id, used, created_at) VALUES "
                "(1, 0, 'a', 3, CURRENT_TIMESTAMP), "
                "(1, 0, 'b', 4, CURRENT_TIMESTAMP), "
                "(1, 1, 'a', 10, CURRENT_TIMESTAMP)"))
        migration.sync()
        with engine.connect() as conn:
            allocated = dict(conn.execute(sa.text(
                'SELECT resource_class_id, allocated FROM inventories')).all())
        self.assertEqual({0: 7, 1: 10, 2: 0}, allocated)
