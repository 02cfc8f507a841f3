"""A database from before claims (the schema revision before 0004, with
volumes and snapshots without allocations) upgraded: the schema migrations, then
``db online_data_migrations`` gives every volume and snapshot its
allocation, and ``placement audit`` finds nothing left; drift made later
is found and repaired."""
import io
import uuid

import sqlalchemy as sa

from db import migration
from db import models
from db import session
from objects import quota
from objects.placement import allocation as alloc_obj
from objects.placement import allocation_reads as alloc_reads
from tests import base
from tests import fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import worker_fixtures
from volapi.placement import online_migrations
from volapi.volume import placement_audit
from volapi.volume import pools

BEFORE_CLAIMS = '0010_clusters'
POOL = 'worker-1@file#file'


class UpgradeTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.SchemaAt(BEFORE_CLAIMS))
        engine = session.get_engine()
        self.volumes = [str(uuid.uuid4()) for _ in range(3)]
        self.snapshot = str(uuid.uuid4())
        with engine.begin() as conn:
            for i, volume_id in enumerate(self.volumes):
                conn.execute(sa.text(
                    "INSERT INTO volumes (id, project_id, user_id, size, "
                    "status, attach_status, host, bootable, multiattach, "
                    "deleted, created_at) VALUES (:id, 'old-project', "
                    "'old-user', :size, 'available', 'detached', :host, "
                    ":f, :f, :f, CURRENT_TIMESTAMP)"),
                    {'id': volume_id, 'size': i + 1, 'host': POOL,
                     'f': False})
            conn.execute(sa.text(
                "INSERT INTO snapshots (id, volume_id, project_id, user_id,"
                " status, volume_size, deleted, created_at) VALUES (:id, "
                ":volume, 'old-project', 'old-user', 'available', 3, :f, "
                "CURRENT_TIMESTAMP)"),
                {'id': self.snapshot, 'volume': self.volumes[2],
                 'f': False})
        migration.sync()
        # The worker, upgraded too, reports its pool.
        self.pools = self.useFixture(worker_fixtures.Pools(self))

    def run_migrations(self):
        out = []
        status = online_migrations.run(self.context, out=out.append)
        return status, '\n'.join(out)

    def audit(self, fix=False):
        out = io.StringIO()
        found = placement_audit.audit(
            self.context, fix=fix, out=lambda line: out.write(line + '\n'))
        return found, out.getvalue()

    def test_online_migration_gives_every_volume_its_allocation(self):
        # Before: the legacy count (3 volumes of 1+2+3 GiB and a 3 GiB
        # snapshot), though the placement count is asked for.
        usage = quota.reported_usage(self.context, self.config.conf,
                                     'old-project')
        self.assertEqual((3, 1, 9), (usage['volumes'], usage['snapshots'],
                                     usage['gigabytes']))
        self.assertEqual(4, self.audit()[0])
        status, out = self.run_migrations()
        self.assertEqual(0, status, out)
        self.assertIn('3 rows matched query allocate_volumes, 3 migrated',
                      out)
        self.assertIn('1 rows matched query allocate_snapshots, 1 migrated',
                      out)
        held = alloc_reads.get_for_consumer(self.context, self.volumes[1])
        self.assertEqual(
            ({pools.provider_uuid(POOL): {'DISK_GB': 2}}, 'old-project',
             'old-user'),
            ({rp: a['resources'] for rp, a in held['allocations'].items()},
             held['project_id'], held['user_id']))
        self.assertEqual(9, invariant.disk_gb(self.context, POOL).allocated)
        self.assertEqual([], invariant.violations(self.context))
        usage = quota.reported_usage(self.context, self.config.conf,
                                     'old-project')
        self.assertEqual((3, 1, 9), (usage['volumes'], usage['snapshots'],
                                     usage['gigabytes']))
        # Run again: nothing left to do.
        status, out = self.run_migrations()
        self.assertEqual(0, status, out)
        self.assertEqual((0, '0 problem(s)\n'), self.audit())

    def test_audit_repairs_drift(self):
        self.run_migrations()
        # Drift no claim makes: an allocation lost, one left behind by a
        # volume gone, a size changed behind placement's back.
        alloc_obj.delete_for_consumer(self.context, self.volumes[0])
        volumes = models.Volume.__table__
        with session.writer.connection.using(self.context) as conn:
            conn.execute(volumes.update().where(
                volumes.c.id == self.volumes[1]).values(size=5))
            conn.execute(volumes.update().where(
                volumes.c.id == self.volumes[2]).values(
                deleted=True, status='deleted'))
        found, out = self.audit()
        self.assertIn('volume %s: no allocation' % self.volumes[0], out)
        self.assertIn('volume %s: 5 GiB, allocation 2' % self.volumes[1],
                      out)
        self.assertIn('allocation of %s: no such live volume or snapshot'
                      % self.volumes[2], out)
        self.assertTrue(found >= 3, out)
        self.audit(fix=True)
        self.assertEqual((0, '0 problem(s)\n'), self.audit())
        # The snapshot of the deleted volume held its share until it went
        # behind placement's back too: its allocation and its project's
        # count.
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.Snapshot.__table__.update().values(
                deleted=True, status='deleted'))
        found, out = self.audit(fix=True)
        self.assertEqual(2, found, out)
        self.assertIn('project old-project: usage (2, 1, 9, 0, 0), holds '
                      '(2, 0, 6, 0, 0)', out)
        self.assertEqual([], invariant.violations(self.context))
