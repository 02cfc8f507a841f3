"""Migration 0012 on a database with projects' limits in quota_limits:
they move to the projects' usage rows (a missing row made, counted),
per-type ones to the rows of their types, and back on downgrade."""
import sqlalchemy as sa
from oslo_utils import timeutils

from db import migration
from db import models
from db import session
from objects import quota
from objects import type_quota
from tests import base
from tests import fixtures
from tests import volume_rows as rows

BEFORE = '0011_binary_keys'
# Projects: one with a usage row already, one with none yet.
COUNTED, UNCOUNTED = 'counted-project', 'uncounted-project'


class OwnLimitsUpgradeTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.SchemaAt(BEFORE))
        self.engine = session.get_engine()
        self.gold = rows.volume_type(self.context, name='gold')
        # Inserted only: the object would read today's columns.
        rows.insert(self.context, models.Volume, **rows.volume_values(
            project_id=UNCOUNTED, size=3, volume_type_id=self.gold))
        limits = [('project', COUNTED, 'volumes', 7),
                  ('project', COUNTED, 'gigabytes_gold', 50),
                  # A type that is gone: nothing applies it.
                  ('project', COUNTED, 'snapshots_gone', 3),
                  ('project', UNCOUNTED, 'volumes', 4),
                  ('project', UNCOUNTED, 'volumes_gold', 2),
                  ('class', quota.DEFAULT_CLASS, 'volumes', 20)]
        with self.engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO quota_usages (project_id, volumes, snapshots, "
                "gigabytes, created_at) VALUES (:p, 0, 0, 0, :now)"),
                {'p': COUNTED, 'now': timeutils.utcnow()})
            for scope, scope_id, resource, limit in limits:
                conn.execute(sa.text(
                    "INSERT INTO quota_limits (scope, scope_id, resource, "
                    "hard_limit, created_at) VALUES (:s, :i, :r, :l, :now)"),
                    {'s': scope, 'i': scope_id, 'r': resource, 'l': limit,
                     'now': timeutils.utcnow()})

    def limit_rows(self):
        with self.engine.connect() as conn:
            return sorted(tuple(row) for row in conn.execute(sa.text(
                "SELECT scope, scope_id, resource, hard_limit "
                "FROM quota_limits")))

    def test_limits_move_to_the_usage_rows_and_back(self):
        migration.sync()
        self.assertEqual({'volumes': 7},
                         quota.own_limits(self.context, COUNTED))
        self.assertEqual({'gigabytes_gold': 50},
                         type_quota.own_limits(self.context, COUNTED))
        self.assertEqual({'volumes': 4},
                         quota.own_limits(self.context, UNCOUNTED))
        self.assertEqual({'volumes_gold': 2},
                         type_quota.own_limits(self.context, UNCOUNTED))
        # The rows made are counted from the tables.
        self.assertEqual({'volumes': 1, 'snapshots': 0, 'gigabytes': 0,
                          'backups': 0, 'backup_gigabytes': 0},
                         quota.usage(self.context, UNCOUNTED))
        self.assertEqual(
            {'volumes': 1, 'snapshots': 0, 'gigabytes': 0},
            type_quota.reported_usage(self.context, UNCOUNTED,
                                      [self.gold])[self.gold])
        self.assertEqual([], quota.drift(self.context))
        self.assertEqual([], type_quota.drift(self.context))
        self.assertEqual([('class', quota.DEFAULT_CLASS, 'volumes', 20)],
                         self.limit_rows())

        migration.downgrade(BEFORE)
        self.assertEqual(sorted([
            ('class', quota.DEFAULT_CLASS, 'volumes', 20),
            ('project', COUNTED, 'volumes', 7),
            ('project', COUNTED, 'gigabytes_gold', 50),
            ('project', UNCOUNTED, 'volumes', 4),
            ('project', UNCOUNTED, 'volumes_gold', 2)]), self.limit_rows())
