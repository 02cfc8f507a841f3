"""volapi.volume.cluster: names, addresses and who serves which volume."""
from tests import base
from tests.unit.test_rpc import make_volume
from volapi.volume import cluster


class ClusterTest(base.TestCase):

    def test_cluster_of(self):
        self.assertIsNone(cluster.cluster_of(self.config.conf))
        self.config.set(cluster='c1')
        self.config.set('volume', backend_name='lvm')
        self.assertEqual('c1@lvm', cluster.cluster_of(self.config.conf))

    def test_server_of(self):
        self.assertEqual('h@b', cluster.server_of('h@b#pool'))
        self.assertEqual('h@b', cluster.server_of('h@b'))
        self.assertIsNone(cluster.server_of(None))

    def test_address_prefers_the_cluster(self):
        self.assertEqual('c@b', cluster.address_of(
            make_volume(host='h@b#p', cluster_name='c@b#p')))
        self.assertEqual('h@b', cluster.address_of(make_volume(host='h@b#p')))
        self.assertIsNone(cluster.address_of(make_volume()))

    def test_membership(self):
        member = cluster.Membership('h1@b', 'c@b')
        self.assertTrue(member.serves(
            make_volume(host='h2@b#p', cluster_name='c@b#p')))
        self.assertFalse(member.serves(
            make_volume(host='h1@b#p', cluster_name='other@b#p')))
        self.assertTrue(member.serves(make_volume(host='h1@b#p')))
        # Scheduled to the cluster's pool, not made yet.
        self.assertTrue(member.serves(make_volume(host='c@b#p')))
        self.assertFalse(member.serves(make_volume(host='h2@b#p')))
        self.assertTrue(member.serves(make_volume()))
        alone = cluster.Membership('h1@b')
        self.assertFalse(alone.serves(
            make_volume(host='h1@b#p', cluster_name='c@b#p')))
