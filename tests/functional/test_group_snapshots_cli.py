"""The ``cinder`` CLI's group snapshot commands and group-create-from-src
(python-cinderclient, 3.14) against the service with a running worker:
the snapshots are made and removed by it, and the group snapshot ends
with its last snapshot."""
from tests.functional import cinder_cli
from tests.functional import placement_invariant as invariant
from tests.functional import test_actions_cli
from tests.functional import volume_worker_fixture as vwf

VERSION = '3.14'


class GroupSnapshotsCLITest(test_actions_cli.CinderClientTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(invariant.PoolInvariant(self))

    def cli(self, *args, admin=False, check=True):
        user, project = ('admin', 'admin') if admin else ('user-a',
                                                          'project-a')
        return cinder_cli.run(self, self.endpoint, *args, user=user,
                              project=project, version=VERSION,
                              check=check)

    def wait_shown(self, command, ident, status):
        return vwf.wait_for(
            lambda: cinder_cli.field(self.cli(command, ident).stdout,
                                     'status'),
            lambda found: found == status)

    def test_group_snapshots(self):
        self.cli('group-type-create', 'gold', admin=True)
        self.cli('type-create', 'vt', admin=True)
        group_id = cinder_cli.field(self.cli(
            'group-create', '--name', 'g1', 'gold', 'vt').stdout, 'id')
        volume_ids = [cinder_cli.field(self.cli(
            'create', '--volume-type', 'vt', '--group-id', group_id,
            '1').stdout, 'id') for _ in range(2)]
        for volume_id in volume_ids:
            self.wait_shown('show', volume_id, 'available')
        made = self.cli('group-snapshot-create', '--name', 'gs1',
                        group_id).stdout
        snapshot_id = cinder_cli.field(made, 'id')
        self.assertEqual('gs1', cinder_cli.field(made, 'name'))
        self.wait_shown('group-snapshot-show', snapshot_id, 'available')
        shown = self.cli('group-snapshot-show', snapshot_id).stdout
        self.assertEqual(group_id, cinder_cli.field(shown, 'group_id'))
        self.assertIn(snapshot_id, self.cli('group-snapshot-list').stdout)
        snapshots = self.client(version=VERSION).volume_snapshots.list()
        self.assertEqual(sorted(volume_ids),
                         sorted(s.volume_id for s in snapshots))
        self.assertEqual({'available'}, {s.status for s in snapshots})

        # A group from it: one volume per snapshot, made by the worker.
        copy = self.cli('group-create-from-src', '--group-snapshot',
                        snapshot_id, '--name', 'copy').stdout
        copy_id = cinder_cli.field(copy, 'id')
        self.assertEqual(snapshot_id, cinder_cli.field(
            self.cli('group-show', copy_id).stdout, 'group_snapshot_id'))
        cinder = self.client(version=VERSION)
        copies = vwf.wait_for(
            lambda: [v for v in cinder.volumes.list()
                     if getattr(v, 'group_id', None) == copy_id],
            lambda found: len(found) == 2 and
            {v.status for v in found} == {'available'})
        self.assertEqual({s.id for s in snapshots},
                         {v.snapshot_id for v in copies})
        # And one from the group itself.
        clone_id = cinder_cli.field(self.cli(
            'group-create-from-src', '--source-group', group_id).stdout,
            'id')
        vwf.wait_for(
            lambda: [v.status for v in cinder.volumes.list()
                     if getattr(v, 'group_id', None) == clone_id],
            lambda found: found == ['available'] * 2)

        refused = self.cli('group-delete', '--delete-volumes', group_id,
                           check=False)
        self.assertNotEqual(0, refused.returncode)
        self.assertIn('Group has existing snapshots',
                      refused.stdout + refused.stderr)
        refused = self.cli('snapshot-delete', snapshots[0].id, check=False)
        self.assertNotEqual(0, refused.returncode)
        self.cli('group-snapshot-delete', snapshot_id)
        vwf.wait_for(lambda: self.cli('group-snapshot-list').stdout,
                     lambda listed: snapshot_id not in listed)
        self.assertEqual([], self.client(
            version=VERSION).volume_snapshots.list())
        self.cli('group-delete', '--delete-volumes', group_id)
