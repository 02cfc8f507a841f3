"""objects.placement.allocation_candidate.get_candidates, the in-process
candidates query: providers set up through the placement API, the query
called directly."""
import uuid as uuidlib

from objects.placement import allocation_candidate as ac
from objects.placement import exception
from tests import fixtures as test_fixtures
from tests.functional import test_placement_base as base

SHARES = 'MISC_SHARES_VIA_AGGREGATE'


def spread(**kwargs):
    return ac.RequestGroup(use_same_provider=False, **kwargs)


def inventory(total, **extra):
    return dict({'total': total}, **extra)


class CandidatesHelpers:
    """Providers set up through the placement API, candidates asked for
    in process (for a base.PlacementTestCase)."""

    def provider(self, inventories=None, parent=None, traits=(),
                 aggregates=(), name=None):
        uuid = self.create_provider(name=name, parent=parent)['uuid']
        if inventories:
            self.set_inventory(uuid, inventories)
        if traits:
            for trait in traits:
                if trait.startswith('CUSTOM_'):
                    self.put('/traits/%s' % trait)
            generation = self.get('/resource_providers/%s' % uuid).json[
                'generation']
            self.put('/resource_providers/%s/traits' % uuid,
                     {'resource_provider_generation': generation,
                      'traits': list(traits)}, status=200)
        if aggregates:
            generation = self.get('/resource_providers/%s' % uuid).json[
                'generation']
            self.put('/resource_providers/%s/aggregates' % uuid,
                     {'resource_provider_generation': generation,
                      'aggregates': list(aggregates)}, status=200)
        return uuid

    def candidates(self, groups, **kwargs):
        return ac.get_candidates(self.context, groups, **kwargs)

    def allocations(self, found):
        return sorted(sorted((uuid, sorted(resources.items()))
                             for uuid, resources in r.allocations.items())
                      for r in found.allocation_requests)


class CandidatesQueryTest(CandidatesHelpers, base.PlacementTestCase):

    def test_single_providers_with_room(self):
        big = self.provider({'DISK_GB': inventory(100)})
        self.provider({'DISK_GB': inventory(5)})
        self.provider({'VCPU': inventory(8)})
        found = self.candidates({'': spread(resources={'DISK_GB': 10})})
        self.assertEqual([[(big, [('DISK_GB', 10)])]],
                         self.allocations(found))
        self.assertEqual({'': [big]}, found.allocation_requests[0].mappings)
        summary = found.provider_summaries[big]
        self.assertEqual({'DISK_GB': {'capacity': 100, 'used': 0}},
                         summary.resources)
        self.assertEqual((None, big), (summary.parent_provider_uuid,
                                       summary.root_provider_uuid))

    def test_capacity_counts_allocations_reserved_and_ratio(self):
        rp = self.provider({'DISK_GB': inventory(
            100, reserved=10, allocation_ratio=1.5, max_unit=200)})
        consumer = str(uuidlib.uuid4())
        self.put('/allocations/%s' % consumer, {
            'allocations': {rp: {'resources': {'DISK_GB': 100}}},
            'project_id': 'p', 'user_id': 'u', 'consumer_type': 'INSTANCE',
            'consumer_generation': None}, status=204)
        fits = self.candidates({'': spread(resources={'DISK_GB': 35})})
        self.assertEqual(1, len(fits.allocation_requests))
        self.assertEqual({'capacity': 135, 'used': 100},
                         fits.provider_summaries[rp].resources['DISK_GB'])
        self.assertEqual([], self.candidates(
            {'': spread(resources={'DISK_GB': 36})}).allocation_requests)

    def test_tree_spreads_classes_and_traits_over_its_providers(self):
        root = self.provider({'VCPU': inventory(8)}, traits=['CUSTOM_A'])
        child1 = self.provider({'DISK_GB': inventory(50)}, parent=root)
        child2 = self.provider({'DISK_GB': inventory(50)}, parent=root,
                               traits=['CUSTOM_SSD'])
        found = self.candidates({'': spread(
            resources={'VCPU': 1, 'DISK_GB': 10})})
        self.assertEqual(sorted([
            sorted([(root, [('VCPU', 1)]), (child1, [('DISK_GB', 10)])]),
            sorted([(root, [('VCPU', 1)]), (child2, [('DISK_GB', 10)])])]),
            self.allocations(found))
        self.assertEqual({root, child1, child2},
                         set(found.provider_summaries))
        self.assertEqual(root, found.provider_summaries[
            child1].parent_provider_uuid)
        with_ssd = self.candidates({'': spread(
            resources={'VCPU': 1, 'DISK_GB': 10},
            required_traits=[{'CUSTOM_SSD'}, {'CUSTOM_A', 'HW_CPU_X86_AVX'}])})
        self.assertEqual([sorted([(root, [('VCPU', 1)]),
                                  (child2, [('DISK_GB', 10)])])],
                         self.allocations(with_ssd))
        without_ssd = self.candidates({'': spread(
            resources={'DISK_GB': 10}, forbidden_traits={'CUSTOM_SSD'})})
        self.assertEqual([[(child1, [('DISK_GB', 10)])]],
                         self.allocations(without_ssd))
        # Before 1.29 a request may use one provider per tree.
        self.assertEqual([], self.candidates(
            {'': spread(resources={'VCPU': 1, 'DISK_GB': 10})},
            nested_aware=False).allocation_requests)

    def test_sharing_provider_through_aggregate(self):
        aggregate = str(uuidlib.uuid4())
        compute = self.provider({'VCPU': inventory(8)},
                                aggregates=[aggregate])
        self.provider({'VCPU': inventory(8)})  # no disk anywhere near
        storage = self.provider({'DISK_GB': inventory(100)},
                                traits=[SHARES], aggregates=[aggregate])
        found = self.candidates({'': spread(
            resources={'VCPU': 2, 'DISK_GB': 10})})
        self.assertEqual([sorted([(compute, [('VCPU', 2)]),
                                  (storage, [('DISK_GB', 10)])])],
                         self.allocations(found))
        self.assertEqual({compute, storage}, set(found.provider_summaries))
        self.assertEqual([SHARES],
                         found.provider_summaries[storage].traits)
        # Only the sharing provider when only disk is asked for.
        self.assertEqual([[(storage, [('DISK_GB', 10)])]], self.allocations(
            self.candidates({'': spread(resources={'DISK_GB': 10})})))

    def test_member_of_and_in_tree(self):
        agg1, agg2 = str(uuidlib.uuid4()), str(uuidlib.uuid4())
        first = self.provider({'DISK_GB': inventory(10)}, aggregates=[agg1])
        second = self.provider({'DISK_GB': inventory(10)},
                               aggregates=[agg1, agg2])
        self.assertEqual([[(second, [('DISK_GB', 1)])]], self.allocations(
            self.candidates({'': spread(resources={'DISK_GB': 1},
                                        member_of=[{agg1}, {agg2}])})))
        self.assertEqual([[(first, [('DISK_GB', 1)])]], self.allocations(
            self.candidates({'': spread(resources={'DISK_GB': 1},
                                        forbidden_aggs={agg2})})))
        self.assertEqual([[(first, [('DISK_GB', 1)])]], self.allocations(
            self.candidates({'': spread(resources={'DISK_GB': 1},
                                        in_tree=first)})))
        self.assertEqual(ac.NO_CANDIDATES, self.candidates(
            {'': spread(resources={'DISK_GB': 1},
                        member_of=[{str(uuidlib.uuid4())}])}))

    def test_granular_groups_policy_and_limit(self):
        root = self.provider({'VCPU': inventory(4)})
        nic1 = self.provider({'SRIOV_NET_VF': inventory(2)}, parent=root)
        nic2 = self.provider({'SRIOV_NET_VF': inventory(2)}, parent=root)
        groups = {'': spread(resources={'VCPU': 1}),
                  '1': ac.RequestGroup(resources={'SRIOV_NET_VF': 1}),
                  '2': ac.RequestGroup(resources={'SRIOV_NET_VF': 1})}
        isolated = self.candidates(groups, group_policy='isolate')
        self.assertEqual(2, len(isolated.allocation_requests))
        for request in isolated.allocation_requests:
            self.assertEqual({root: {'VCPU': 1}, nic1: {'SRIOV_NET_VF': 1},
                              nic2: {'SRIOV_NET_VF': 1}},
                             request.allocations)
        shared = self.candidates(groups, group_policy='none')
        # Both groups on one NIC (2 VFs of 2), or on each: four mappings.
        self.assertEqual(4, len(shared.allocation_requests))
        self.assertIn({root: {'VCPU': 1}, nic1: {'SRIOV_NET_VF': 2}},
                      [r.allocations for r in shared.allocation_requests])
        limited = self.candidates(groups, group_policy='none', limit=1)
        self.assertEqual(1, len(limited.allocation_requests))
        self.assertEqual({root, nic1, nic2}, set(limited.provider_summaries))

    def test_root_required_and_same_subtree(self):
        root = self.provider({'VCPU': inventory(4)}, traits=['CUSTOM_ROOT'])
        numa = self.provider(parent=root, traits=['CUSTOM_NUMA'])
        nic = self.provider({'SRIOV_NET_VF': inventory(2)}, parent=numa)
        other = self.provider({'SRIOV_NET_VF': inventory(2)}, parent=root)
        groups = {'_NIC': ac.RequestGroup(resources={'SRIOV_NET_VF': 1}),
                  '_NUMA': ac.RequestGroup(
                      required_traits=[{'CUSTOM_NUMA'}])}
        found = self.candidates(groups, group_policy='none',
                                same_subtrees=[{'_NIC', '_NUMA'}])
        self.assertEqual([{'_NIC': [nic], '_NUMA': [numa]}],
                         [r.mappings for r in found.allocation_requests])
        self.assertEqual(2, len(self.candidates(
            {'': spread(resources={'SRIOV_NET_VF': 1})},
            root_required={'CUSTOM_ROOT'}).allocation_requests))
        self.assertEqual(ac.NO_CANDIDATES, self.candidates(
            {'': spread(resources={'SRIOV_NET_VF': 1})},
            root_forbidden={'CUSTOM_ROOT'}))
        self.assertIn(other, self.candidates(
            {'': spread(resources={'SRIOV_NET_VF': 1})}).provider_summaries)

    def test_unknown_names(self):
        self.provider({'DISK_GB': inventory(10)})
        self.assertRaises(exception.ResourceClassNotFound, self.candidates,
                          {'': spread(resources={'CUSTOM_NOPE': 1})})
        self.assertRaises(exception.TraitNotFound, self.candidates,
                          {'': spread(resources={'DISK_GB': 1},
                                      required_traits=[{'CUSTOM_NOPE'}])})

    def test_trees_read_whole_once(self):
        # The first query reads the trees' providers whole; the next ones
        # only their revisions, and take the providers from the cache.
        shared = str(uuidlib.uuid4())
        for i in range(3):
            root = self.provider({'VCPU': inventory(8),
                                  'MEMORY_MB': inventory(1024)},
                                 aggregates=[shared])
            self.provider({'SRIOV_NET_VF': inventory(4)}, parent=root)
        self.provider({'DISK_GB': inventory(100)}, traits=[SHARES],
                      aggregates=[shared])
        groups = {'': spread(resources={'VCPU': 1, 'DISK_GB': 10}),
                  '1': ac.RequestGroup(resources={'SRIOV_NET_VF': 1})}
        answers, reads = [], []
        for _ in range(2):
            sent = test_fixtures.statements_sent(lambda: answers.append(
                self.candidates(groups, group_policy='none')))
            reads.append([
                sum(s.startswith('SELECT resource_providers.id, '
                                 'resource_providers.revision') for s in sent),
                sum(s.startswith('WITH wanted AS') for s in sent)])
        self.assertEqual([[1, 1], [1, 0]], reads)
        self.assertEqual(3, len(answers[0].allocation_requests))
        self.assertEqual(answers[0], answers[1])

    def test_resourceless_group_of_sharing_providers(self):
        # Each storage provider the resourceless group finds anchors the
        # tree it shares with, the second one too (its anchors were once
        # read only with the first's, and so left out); Placement 16.0.0
        # gives these two requests (tools/placement_diff's scenario).
        pairs = []
        for i in range(2):
            aggregate = str(uuidlib.uuid4())
            host = self.provider({'VCPU': inventory(8)},
                                 aggregates=[aggregate])
            store = self.provider({'DISK_GB': inventory(100)},
                                  traits=[SHARES, 'CUSTOM_S'],
                                  aggregates=[aggregate])
            pairs.append({'': [host], '_S': [store]})
        found = self.candidates({
            '': spread(resources={'VCPU': 1}),
            '_S': ac.RequestGroup(required_traits=[{'CUSTOM_S'}])},
            group_policy='none', same_subtrees=[{'_S'}])
        self.assertEqual(sorted(pairs, key=str), sorted(
            [r.mappings for r in found.allocation_requests], key=str))
