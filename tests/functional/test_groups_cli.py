"""The ``cinder`` CLI's group type and group commands (python-cinderclient,
3.11 group types, 3.13 groups) against the service, unchanged."""
from tests.functional import cinder_cli
from tests.functional import test_actions_cli
from tests.functional import volume_worker_fixture as vwf

VERSION = '3.13'


class GroupsCLITest(test_actions_cli.CinderClientTestCase):

    def cli(self, *args, admin=False, check=True, version=VERSION):
        user, project = ('admin', 'admin') if admin else ('user-a',
                                                          'project-a')
        return cinder_cli.run(self, self.endpoint, *args, user=user,
                              project=project, version=version,
                              check=check)

    def test_group_types(self):
        made = self.cli('group-type-create', '--description', 'first',
                        'gold', admin=True).stdout
        self.assertIn('gold', made)
        self.cli('group-type-key', 'gold', 'set',
                 'consistent_group_snapshot_enabled=<is> True', admin=True)
        specs = self.cli('group-specs-list', admin=True).stdout
        self.assertIn('consistent_group_snapshot_enabled', specs)
        self.assertIn('gold', self.cli('group-type-list').stdout)
        shown = self.cli('group-type-show', 'gold', admin=True).stdout
        self.assertEqual('first', cinder_cli.field(shown, 'description'))
        type_id = cinder_cli.field(shown, 'id')
        # The CLI sends is_public false unless told (as against Cinder):
        # the type is private now, listed for administrators only.
        self.cli('group-type-update', '--name', 'silver', type_id,
                 admin=True)
        self.assertNotIn('silver', self.cli('group-type-list').stdout)
        self.assertIn('silver', self.cli('group-type-list',
                                         admin=True).stdout)
        self.cli('group-type-key', 'silver', 'unset',
                 'consistent_group_snapshot_enabled', admin=True)
        self.assertNotIn('consistent_group_snapshot_enabled',
                         self.cli('group-specs-list', admin=True).stdout)
        refused = self.cli('group-type-create', 'x', check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('403', refused.stderr)
        self.cli('group-type-delete', 'silver', admin=True)
        self.assertNotIn('silver', self.cli('group-type-list',
                                            admin=True).stdout)

    def test_groups(self):
        self.cli('group-type-create', 'gold', admin=True)
        self.cli('type-create', 'vt', admin=True)
        made = self.cli('group-create', '--name', 'g1', 'gold', 'vt').stdout
        group_id = cinder_cli.field(made, 'id')
        self.assertEqual('g1', cinder_cli.field(made, 'name'))
        shown = self.cli('group-show', group_id).stdout
        self.assertEqual('available', cinder_cli.field(shown, 'status'))
        self.assertIn(group_id, self.cli('group-list').stdout)
        self.cli('reset-state', '--type', 'group', '--state', 'error',
                 group_id, admin=True, version='3.20')
        self.assertEqual('error', cinder_cli.field(
            self.cli('group-show', group_id).stdout, 'status'))
        self.cli('reset-state', '--type', 'group', '--state', 'available',
                 group_id, admin=True, version='3.20')
        volume = self.cli('create', '--volume-type', 'vt', '--group-id',
                          group_id, '1').stdout
        in_group = cinder_cli.field(volume, 'id')
        self.assertEqual(group_id, cinder_cli.field(volume, 'group_id'))
        loose = cinder_cli.field(self.cli('create', '--volume-type', 'vt',
                                          '1').stdout, 'id')
        for volume_id in (in_group, loose):
            self.wait_for_status(self.client(version=VERSION).volumes,
                                 volume_id, 'available')
        self.cli('group-update', '--add-volumes', loose, '--name', 'g2',
                 group_id)
        self.assertEqual(group_id, cinder_cli.field(
            self.cli('show', loose).stdout, 'group_id'))
        self.cli('group-update', '--remove-volumes', loose, group_id)
        self.assertEqual('None', cinder_cli.field(
            self.cli('show', loose).stdout, 'group_id'))
        refused = self.cli('group-delete', group_id, check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('still contains volumes', refused.stdout +
                      refused.stderr)
        self.cli('group-delete', '--delete-volumes', group_id)
        self.assertNotIn(group_id, self.cli('group-list').stdout)
        # The worker deletes the group's volume.
        cinder = self.client(version=VERSION)
        vwf.wait_for(lambda: [v.id for v in cinder.volumes.list()],
                     lambda ids: in_group not in ids)
