"""GET /allocation_candidates over HTTP: the query string at each
microversion, the body forms, and Placement's errors."""
import json
import uuid as uuidlib

from objects.placement import allocation_candidate as ac
from objects.placement import exception
from tests.functional import test_placement_base as base

SHARES = 'MISC_SHARES_VIA_AGGREGATE'
AGG = str(uuidlib.uuid4())


class CandidatesApiTest(base.PlacementTestCase):

    def provider(self, inventories=None, parent=None, traits=(),
                 aggregates=()):
        uuid = self.create_provider(parent=parent)['uuid']
        if inventories:
            self.set_inventory(uuid, {name: {'total': total}
                                      for name, total in inventories.items()})
        for trait in traits:
            if trait.startswith('CUSTOM_'):
                self.put('/traits/%s' % trait)
        if traits:
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

    def candidates(self, query, version='latest', status=200):
        return self.get('/allocation_candidates?' + query, version=version,
                        status=status)

    def test_not_before_1_10(self):
        self.assertError(self.candidates('resources=VCPU:1', '1.9', 404),
                         404)

    def test_body_forms_by_version(self):
        root = self.provider({'VCPU': 8, 'MEMORY_MB': 1024},
                             traits=['HW_CPU_X86_AVX'])
        child = self.provider({'DISK_GB': 100}, parent=root)
        old = self.candidates('resources=VCPU:1', '1.10').json
        self.assertEqual([{'allocations': [{
            'resource_provider': {'uuid': root},
            'resources': {'VCPU': 1}}]}], old['allocation_requests'])
        # Before 1.27 the summary has only the requested classes; no
        # traits before 1.17, no tree before 1.29.
        self.assertEqual({root: {'resources': {
            'VCPU': {'capacity': 8, 'used': 0}}}}, old['provider_summaries'])
        new = self.candidates('resources=VCPU:1,DISK_GB:10', '1.34').json
        self.assertEqual([{
            'allocations': {root: {'resources': {'VCPU': 1}},
                            child: {'resources': {'DISK_GB': 10}}},
            'mappings': {'': sorted([root, child])}}],
            [dict(r, mappings={k: sorted(v) for k, v in
                               r['mappings'].items()})
             for r in new['allocation_requests']])
        self.assertEqual({
            'resources': {'VCPU': {'capacity': 8, 'used': 0},
                          'MEMORY_MB': {'capacity': 1024, 'used': 0}},
            'traits': ['HW_CPU_X86_AVX'], 'parent_provider_uuid': None,
            'root_provider_uuid': root}, new['provider_summaries'][root])
        self.assertEqual(root, new['provider_summaries'][child][
            'parent_provider_uuid'])
        # Before 1.29 a request cannot use two providers of one tree.
        self.assertEqual([], self.candidates(
            'resources=VCPU:1,DISK_GB:10', '1.28').json[
                'allocation_requests'])
        response = self.candidates('resources=VCPU:1', '1.15')
        self.assertEqual('no-cache', response.headers['cache-control'])
        self.assertIn('last-modified', response.headers)

    def test_traits_aggregates_and_limit(self):
        fast = self.provider({'DISK_GB': 100}, traits=['CUSTOM_FAST'],
                             aggregates=[AGG])
        slow = self.provider({'DISK_GB': 100})

        def used(query, version='latest'):
            found = self.candidates(query, version).json
            return sorted(uuid for r in found['allocation_requests']
                          for uuid in r['allocations'])

        self.assertEqual(sorted([fast, slow]), used('resources=DISK_GB:10'))
        self.assertEqual([fast], used(
            'resources=DISK_GB:10&required=CUSTOM_FAST', '1.17'))
        self.assertEqual([slow], used(
            'resources=DISK_GB:10&required=!CUSTOM_FAST', '1.22'))
        self.assertEqual([fast], used(
            'resources=DISK_GB:10&required=in:CUSTOM_FAST,HW_CPU_X86_AVX'))
        self.assertEqual([fast], used(
            'resources=DISK_GB:10&member_of=' + AGG, '1.21'))
        self.assertEqual([slow], used(
            'resources=DISK_GB:10&member_of=!' + AGG, '1.32'))
        self.assertEqual(1, len(used('resources=DISK_GB:10&limit=1',
                                     '1.16')))
        self.assertEqual([fast], used('resources=DISK_GB:10&in_tree=' + fast,
                                      '1.31'))
        self.assertEqual([fast], used(
            'resources=DISK_GB:10&root_required=CUSTOM_FAST', '1.35'))

    def test_sharing_provider(self):
        compute = self.provider({'VCPU': 8}, aggregates=[AGG])
        storage = self.provider({'DISK_GB': 100}, traits=[SHARES],
                                aggregates=[AGG])
        found = self.candidates('resources=VCPU:1,DISK_GB:10').json
        self.assertEqual([{compute: {'resources': {'VCPU': 1}},
                           storage: {'resources': {'DISK_GB': 10}}}],
                         [r['allocations']
                          for r in found['allocation_requests']])
        self.assertEqual({compute, storage}, set(found['provider_summaries']))

    def test_granular_groups(self):
        root = self.provider({'VCPU': 8})
        first = self.provider({'SRIOV_NET_VF': 4}, parent=root)
        second = self.provider({'SRIOV_NET_VF': 4}, parent=root)
        query = ('resources=VCPU:1&resources1=SRIOV_NET_VF:1'
                 '&resources2=SRIOV_NET_VF:1')
        self.assertError(self.candidates(query, status=400), 400,
                         detail='The "group_policy" parameter is required')
        isolated = self.candidates(query + '&group_policy=isolate').json
        self.assertEqual(2, len(isolated['allocation_requests']))
        for request in isolated['allocation_requests']:
            self.assertEqual({first, second},
                             set(request['mappings']['1']
                                 + request['mappings']['2']))
        together = self.candidates(query + '&group_policy=none').json
        self.assertEqual(4, len(together['allocation_requests']))
        named = self.candidates(
            'resources_NET=SRIOV_NET_VF:1&resources_CPU=VCPU:1'
            '&group_policy=none&same_subtree=_NET,_CPU', '1.36').json
        self.assertEqual(2, len(named['allocation_requests']))
        self.assertError(self.candidates(
            'resources_NET=SRIOV_NET_VF:1&group_policy=none', '1.32',
            status=400), 400, detail='Invalid query string parameters')

    def test_bad_input(self):
        cases = [
            ('1.10', '', 'Invalid query string parameters'),
            ('1.10', 'resources=VCPU:1&limit=2',
             "Additional properties are not allowed ('limit' was "
             "unexpected)"),
            ('latest', 'resources=VCPU:x',
             'Requested resource VCPU expected positive integer amount'),
            ('latest', 'resources=CUSTOM_NOPE:1',
             'Invalid resource class in resources parameter: No such '
             'resource class CUSTOM_NOPE.'),
            ('latest', 'resources=VCPU:1&required=CUSTOM_NOPE',
             'No such trait(s): CUSTOM_NOPE.'),
            ('1.31', 'resources=VCPU:1&member_of=!' + AGG,
             'Forbidden member_of parameters are not supported in the '
             'specified microversion'),
            ('1.23', 'resources=VCPU:1&member_of=%s&member_of=%s'
             % (AGG, AGG), 'Multiple member_of parameters are not '
             'supported'),
            ('1.35', 'required=CUSTOM_X',
             'All traits parameters must be associated with resources.'),
            ('latest', 'required1=CUSTOM_X&resources=VCPU:1',
             'Resourceless suffixed group request should be specified in '
             "`same_subtree` query param: bad group(s) - ['1']."),
            ('latest', 'resources=VCPU:1&required=CUSTOM_X,!CUSTOM_X',
             'Conflicting required and forbidden traits found in the '
             'following traits keys: required: (CUSTOM_X)'),
            ('latest', 'resources=VCPU:1&in_tree=nope',
             "Expected 'in_tree' parameter to be a format of uuid. Got: "
             "nope"),
            ('latest', 'resources=VCPU:1&root_required=A&root_required=B',
             "Query parameter 'root_required' may be specified only once."),
            ('latest', 'resources=VCPU:1&group_policy=any',
             "'any' is not one of ['none', 'isolate']"),
        ]
        for version, query, detail in cases:
            self.assertError(self.candidates(query, version, 400), 400,
                             detail=detail)
        error = self.assertError(self.candidates(
            'resources=VCPU:1&root_required=A&root_required=B', status=400),
            400)
        self.assertEqual('placement.query.duplicate_key', error['code'])

    def test_amount_no_inventory_can_hold(self):
        self.provider({'VCPU': 8})
        # Such an amount finds nothing (no inventory's max_unit allows it),
        # and an unknown class is still reported.
        self.assertEqual([], self.candidates(
            'resources=VCPU:99999999999').json['allocation_requests'])
        self.assertEqual(ac.NO_CANDIDATES, ac.get_candidates(
            self.context, {'': ac.RequestGroup(
                resources={'VCPU': 2 ** 63}, use_same_provider=False)}))
        self.assertRaises(exception.ResourceClassNotFound,
                          ac.get_candidates, self.context, {
                              '': ac.RequestGroup(
                                  resources={'CUSTOM_NONE': 2 ** 63})})

    def test_limit_before_1_29_with_nested_providers(self):
        first = self.provider({'VCPU': 8})
        self.provider({'DISK_GB': 10}, parent=first)
        second = self.provider({'VCPU': 8})
        found = self.candidates('resources=VCPU:1&limit=1', '1.16').json
        self.assertEqual([[first]], [list(request['allocations'])
                                     for request in
                                     found['allocation_requests']])
        self.assertEqual([first], list(found['provider_summaries']))
        self.assertNotEqual(first, second)

    def test_body_is_json_dumps_of_the_dict_form(self):
        """The body is written as text straight from the ids: byte for
        byte what json.dumps makes of the answer's dict form, at every
        version that changes the form."""
        self.put('/resource_classes/CUSTOM_GPU')
        self.put('/traits/CUSTOM_FAST')
        root = self.provider({'VCPU': 8, 'MEMORY_MB': 1024},
                             traits=['HW_CPU_X86_AVX', 'CUSTOM_FAST'],
                             aggregates=[AGG])
        for _ in range(2):
            self.provider({'SRIOV_NET_VF': 4, 'CUSTOM_GPU': 2}, parent=root)
        self.provider({'DISK_GB': 100}, traits=[SHARES], aggregates=[AGG])
        self.provider({'VCPU': 4, 'DISK_GB': 10})
        consumer = str(uuidlib.uuid4())
        self.put('/allocations/%s' % consumer, {
            'allocations': {root: {'resources': {'VCPU': 3}}},
            'project_id': 'p', 'user_id': 'u', 'consumer_type': 'INSTANCE',
            'consumer_generation': None}, status=204)
        queries = [
            'resources=VCPU:1,DISK_GB:10',
            'resources=VCPU:1&resources1=SRIOV_NET_VF:1'
            '&resources_G=CUSTOM_GPU:1&group_policy=none',
            'resources=VCPU:1&required=CUSTOM_FAST',
        ]
        versions = ['1.10', '1.12', '1.17', '1.27', '1.29', '1.34', '1.39']
        checked = 0
        for version in versions:
            for query in queries:
                groups = self._groups(query, version)
                if groups is None:
                    continue
                body = self.candidates(query, version).body
                found = ac.get_candidates(self.context, groups,
                                          group_policy='none', nested_aware=(
                                              _v(version) >= (1, 29)))
                self.assertEqual(
                    json.dumps(_dict_form(found, _v(version), groups)),
                    body.decode(), '%s at %s' % (query, version))
                checked += bool(found.allocation_requests)
        self.assertGreater(checked, 10)

    def _groups(self, query, version):
        """The request groups of ``query``; None where ``version`` does
        not take it."""
        if 'required' in query and _v(version) < (1, 17):
            return None
        if 'resources_G' in query and _v(version) < (1, 33):
            return None
        if 'resources1' in query and _v(version) < (1, 25):
            return None
        groups = {}
        for part in query.split('&'):
            key, _, value = part.partition('=')
            if key.startswith('resources'):
                suffix = key[len('resources'):]
                groups[suffix] = ac.RequestGroup(
                    resources={n: int(a) for n, a in (
                        item.split(':') for item in value.split(','))},
                    use_same_provider=bool(suffix))
            elif key == 'required':
                groups[''].required_traits = [{value}]
        return groups


def _v(version):
    return tuple(int(n) for n in version.split('.'))


def _dict_form(found, version, groups):
    """The body of a candidates answer as a dict, built field by field
    with each microversion's rules."""
    requested = set().union(*(g.resources for g in groups.values()))
    requests = []
    for request in found.allocation_requests:
        if version < (1, 12):
            requests.append({'allocations': [
                {'resource_provider': {'uuid': uuid}, 'resources': resources}
                for uuid, resources in request.allocations.items()]})
            continue
        data = {'allocations': {uuid: {'resources': resources} for uuid,
                                resources in request.allocations.items()}}
        if version >= (1, 34):
            data['mappings'] = request.mappings
        requests.append(data)
    summaries = {}
    for uuid, summary in found.provider_summaries.items():
        data = summaries[uuid] = {'resources': {
            name: amounts for name, amounts in summary.resources.items()
            if version >= (1, 27) or name in requested}}
        if version >= (1, 17):
            data['traits'] = summary.traits
        if version >= (1, 29):
            data['parent_provider_uuid'] = summary.parent_provider_uuid
            data['root_provider_uuid'] = summary.root_provider_uuid
    return {'allocation_requests': requests, 'provider_summaries': summaries}
