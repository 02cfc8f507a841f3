"""The ``cinder`` CLI against volume migration: ``migrate``, ``retype
--migration-policy on-demand`` and ``show`` as an admin (migration status,
name id, host)."""
from tests.functional import cinder_cli
from tests.functional import placement_invariant as invariant
from tests.functional import test_actions_cli
from tests.functional import test_volume_migration
from tests.functional import volume_worker_fixture as vwf

SMALL = test_volume_migration.SMALL
BIG = test_volume_migration.BIG


class MigrationCLITest(test_actions_cli.CinderClientTestCase):
    pool_options = {'file_pools': ['small:10', 'big:12'],
                    'max_over_subscription_ratio': 1.0}

    def setUp(self):
        super().setUp()
        self.config.set('quota', volumes=-1, snapshots=-1, gigabytes=-1)
        self.useFixture(invariant.PoolInvariant(self))

    def cinder(self, *args, admin=False, version='3.16'):
        who = {'user': 'admin', 'project': 'admin'} if admin else {}
        return cinder_cli.run(self, self.endpoint, *args, version=version,
                              **who).stdout

    def shown(self, volume_id, name):
        return cinder_cli.field(self.cinder('show', volume_id, admin=True),
                                name)

    def created(self):
        volume_id = cinder_cli.field(self.cinder('create', '1'), 'id')
        vwf.wait_for(lambda: self.shown(volume_id, 'status'),
                     lambda status: status == 'available')
        return volume_id

    def settled(self, volume_id):
        return vwf.wait_for(
            lambda: self.shown(volume_id, 'os-vol-mig-status-attr:migstat'),
            lambda status: status in ('success', 'error'))

    def test_migrate_and_show(self):
        volume_id = self.created()
        self.assertEqual(BIG, self.shown(volume_id, 'os-vol-host-attr:host'))
        self.cinder('migrate', volume_id, SMALL, admin=True)
        self.assertEqual('success', self.settled(volume_id))
        table = self.cinder('show', volume_id, admin=True)
        self.assertEqual(SMALL, cinder_cli.field(table,
                                                 'os-vol-host-attr:host'))
        self.assertRegex(cinder_cli.field(
            table, 'os-vol-mig-status-attr:name_id'), '^[0-9a-f-]{36}$')
        # A tenant's show has none of the admin attributes.
        self.assertIsNone(cinder_cli.field(
            self.cinder('show', volume_id), 'os-vol-host-attr:host'))

    def test_migrate_refused_names_the_reason(self):
        volume_id = self.created()
        result = cinder_cli.run(self, self.endpoint, 'migrate', volume_id,
                                BIG, user='admin', project='admin',
                                version='3.16', check=False)
        # The CLI reports the refusal (and exits 0, as it does for Cinder).
        self.assertIn('volume must be on another host than the '
                      'destination', result.stdout + result.stderr)

    def test_retype_on_demand(self):
        test_volume_migration.give_trait(self.context, SMALL, 'CUSTOM_FAST')
        self.cinder('type-create', 'fast', admin=True)
        self.cinder('type-key', 'fast', 'set', 'trait:CUSTOM_FAST=required',
                    admin=True)
        volume_id = self.created()
        self.cinder('retype', '--migration-policy', 'on-demand', volume_id,
                    'fast')
        self.assertEqual('success', self.settled(volume_id))
        table = self.cinder('show', volume_id, admin=True)
        self.assertEqual((SMALL, 'fast', 'available'), (
            cinder_cli.field(table, 'os-vol-host-attr:host'),
            cinder_cli.field(table, 'volume_type'),
            cinder_cli.field(table, 'status')))
