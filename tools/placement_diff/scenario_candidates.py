"""The scripted requests of POST /reshaper and GET
/allocation_candidates, after ``scenario``'s (they use its providers)."""
from tools.placement_diff.scenario import AGG1, AGG2, C1, C2, CONS1, \
    CONS3, MISSING, PROJ, R1, R2, R3, SHARE, USER, cg, g, gen, r, uuid_of

CONS4 = uuid_of('consumer4')
# Two compute roots, each sharing with a storage provider through an
# aggregate of its own: a resourceless group finds both storage providers.
S_AGGS = uuid_of('s-agg1'), uuid_of('s-agg2')
S_HOSTS = uuid_of('s-host1'), uuid_of('s-host2')
S_STORES = uuid_of('s-store1'), uuid_of('s-store2')


def reshaper():
    yield r('POST', '/reshaper', {}, version='1.29')
    yield r('POST', '/reshaper', {'inventories': {}, 'allocations': {}},
            version='1.30', note='invalid: empty')
    yield r('PUT', '/allocations/%s' % CONS3, {
        'allocations': {R3: {'resources': {}}}, 'project_id': PROJ,
        'user_id': USER, 'consumer_generation': None}, version='1.28',
        note='empty resources')
    yield r('PUT', '/resource_providers/%s/inventories' % R3, {
        'resource_provider_generation': g(R3),
        'inventories': {'DISK_GB': {'total': 100}}}, version='1.30')
    yield r('PUT', '/allocations/%s' % CONS4, {
        'allocations': {R3: {'resources': {'DISK_GB': 30}}},
        'project_id': PROJ, 'user_id': USER, 'consumer_generation': None},
        version='1.30')
    for uuid in (R3, C1):
        yield gen('/resource_providers/%s' % uuid)
    # Move the disk from R3 to C1's... keep C1 as is; reshape R3's disk
    # into a new custom class.
    yield r('POST', '/reshaper', {
        'inventories': {R3: {'resource_provider_generation': 0,
                             'inventories': {'CUSTOM_SILVER': {
                                 'total': 100}}}},
        'allocations': {CONS4: {
            'allocations': {R3: {'resources': {'CUSTOM_SILVER': 30}}},
            'project_id': PROJ, 'user_id': USER,
            'consumer_generation': cg(CONS4)}}}, version='1.30', note='stale')
    yield gen('/resource_providers/%s' % R3)
    yield r('POST', '/reshaper', {
        'inventories': {R3: {'resource_provider_generation': g(R3),
                             'inventories': {'CUSTOM_SILVER': {
                                 'total': 100}}}},
        'allocations': {CONS4: {
            'allocations': {R3: {'resources': {'CUSTOM_SILVER': 300}}},
            'project_id': PROJ, 'user_id': USER,
            'consumer_generation': cg(CONS4)}}}, version='1.30', note='does not fit')
    yield r('POST', '/reshaper', {
        'inventories': {R3: {'resource_provider_generation': g(R3),
                             'inventories': {'CUSTOM_SILVER': {
                                 'total': 100}}}},
        'allocations': {CONS4: {
            'allocations': {R3: {'resources': {'CUSTOM_SILVER': 30}}},
            'project_id': PROJ, 'user_id': USER,
            'consumer_generation': cg(CONS4)}}}, version='1.30')
    yield r('POST', '/reshaper', {
        'inventories': {MISSING: {'resource_provider_generation': 0,
                                  'inventories': {}}},
        'allocations': {}}, version='1.30')
    emptied = {'allocations': {}, 'project_id': PROJ, 'user_id': USER,
               'consumer_generation': cg(CONS4), 'consumer_type': 'INSTANCE'}
    yield r('POST', '/reshaper', {
        'inventories': {R3: {'resource_provider_generation': g(R3),
                             'inventories': {}}},
        'allocations': {CONS4: emptied}}, version='1.38',
        note='empty everything, consumer deleted')
    for uuid in (R3, C1):
        yield gen('/resource_providers/%s' % uuid)
    yield r('GET', '/allocations/%s' % CONS4, version='1.38')


def _ac(query, version='latest', **kwargs):
    return r('GET', '/allocation_candidates?' + query, version=version,
             **kwargs)


def candidates():
    # The trees: R1 (VCPU, MEMORY_MB; traits CUSTOM_FAST, HW_CPU_X86_AVX)
    # with children C1 (SRIOV_NET_VF, DISK_GB) and C2 (SRIOV_NET_VF); R2
    # (VCPU, MEMORY_MB) in AGG1 with SHARE (DISK_GB, sharing).
    yield r('PUT', '/resource_providers/%s/aggregates' % R1, {
        'resource_provider_generation': g(R1), 'aggregates': [AGG2]},
        version='1.19')
    yield gen('/resource_providers/%s' % R1)
    yield _ac('resources=VCPU:1', version='1.9')
    for version in ('1.10', '1.11', '1.12', '1.15', '1.16', '1.17', '1.21',
                    '1.25', '1.27', '1.28', '1.29', '1.34', 'latest'):
        yield _ac('resources=VCPU:1,DISK_GB:10', version)
        yield _ac('resources=VCPU:1,MEMORY_MB:128', version)
    yield _ac('resources=VCPU:1', accept=None)
    yield _ac('resources=VCPU:1', accept='text/html')
    yield _ac('', '1.10')
    yield _ac('', 'latest')
    yield _ac('resources=VCPU:1&limit=1', '1.15')
    yield _ac('resources=VCPU:1&limit=1', '1.16')
    yield _ac('resources=VCPU:1&limit=0', '1.16')
    yield _ac('resources=VCPU:1&limit=x', '1.16')
    yield _ac('resources=VCPU:1&limit=5', '1.16')
    yield _ac('resources=VCPU:1&required=CUSTOM_FAST', '1.16')
    for version in ('1.17', '1.21', '1.22', '1.38', '1.39'):
        yield _ac('resources=VCPU:1&required=CUSTOM_FAST', version)
        yield _ac('resources=VCPU:1&required=!CUSTOM_FAST', version)
        yield _ac('resources=VCPU:1&required=in:CUSTOM_FAST,CUSTOM_SLOW',
                  version)
        yield _ac('resources=VCPU:1&required=CUSTOM_FAST'
                  '&required=HW_CPU_X86_AVX', version)
    yield _ac('resources=VCPU:1&required=CUSTOM_NONE')
    yield _ac('resources=VCPU:1&required=in:CUSTOM_NONE,CUSTOM_FAST')
    yield _ac('resources=VCPU:1&required=CUSTOM_FAST,!CUSTOM_FAST')
    yield _ac('resources=VCPU:1&required=in:CUSTOM_FAST&required=!CUSTOM_'
              'FAST')
    yield _ac('resources=VCPU:1&required=')
    yield _ac('resources=VCPU:1&required=in:')
    yield _ac('resources=VCPU:1&required=in:A,!B')
    yield _ac('resources=CUSTOM_NONE:1')
    yield _ac('resources=VCPU:0')
    yield _ac('resources=VCPU')
    yield _ac('resources=VCPU:1,VCPU:2')
    yield _ac('resources=')
    yield _ac('resources=VCPU:1,DISK_GB:600', note='above max_unit')
    yield _ac('resources=VCPU:1,DISK_GB:15', note='step size')
    yield _ac('resources=VCPU:99999999999')
    yield _ac('resources=VCPU:1&member_of=%s' % AGG1, '1.20')
    for version in ('1.21', '1.23', '1.24', '1.31', '1.32'):
        yield _ac('resources=VCPU:1&member_of=%s' % AGG1, version)
        yield _ac('resources=VCPU:1&member_of=in:%s,%s' % (AGG1, AGG2),
                  version)
        yield _ac('resources=VCPU:1&member_of=%s&member_of=%s'
                  % (AGG1, AGG2), version)
        yield _ac('resources=VCPU:1&member_of=!%s' % AGG1, version)
        yield _ac('resources=VCPU:1&member_of=!in:%s,%s' % (AGG1, AGG2),
                  version)
    yield _ac('resources=VCPU:1,DISK_GB:10&member_of=%s' % AGG1)
    yield _ac('resources=VCPU:1&member_of=bad')
    yield _ac('resources=VCPU:1&member_of=%s,%s' % (AGG1, AGG2))
    yield _ac('resources=VCPU:1&member_of=%s' % MISSING)
    for version in ('1.30', '1.31'):
        yield _ac('resources=VCPU:1&in_tree=%s' % R1, version)
    yield _ac('resources=VCPU:1,DISK_GB:10&in_tree=%s' % C1)
    yield _ac('resources=VCPU:1,DISK_GB:10&in_tree=%s' % R2)
    yield _ac('resources=VCPU:1&in_tree=%s' % MISSING)
    yield _ac('resources=VCPU:1&in_tree=bad')
    yield _ac('resources=VCPU:1&in_tree1=%s' % R1)
    # Granular groups.
    granular = ('resources=VCPU:1&resources1=SRIOV_NET_VF:1'
                '&resources2=SRIOV_NET_VF:1')
    for version in ('1.24', '1.25', '1.28', '1.29', '1.33', '1.34'):
        yield _ac(granular, version)
        yield _ac(granular + '&group_policy=none', version)
        yield _ac(granular + '&group_policy=isolate', version)
    yield _ac(granular + '&group_policy=bad')
    yield _ac('resources1=SRIOV_NET_VF:1&required1=CUSTOM_SLOW'
              '&resources=VCPU:1')
    yield _ac('resources1=SRIOV_NET_VF:1&required1=!CUSTOM_SLOW'
              '&resources=VCPU:1&member_of1=%s' % AGG2)
    yield _ac('resources1=SRIOV_NET_VF:1&in_tree1=%s&resources=VCPU:1'
              % C2)
    yield _ac('resources_NET=SRIOV_NET_VF:1&resources_CPU=VCPU:1'
              '&group_policy=isolate', '1.32')
    yield _ac('resources_NET=SRIOV_NET_VF:1&resources_CPU=VCPU:1'
              '&group_policy=isolate', '1.33')
    yield _ac('resources_NET=SRIOV_NET_VF:1&resources_CPU=VCPU:1'
              '&group_policy=none', '1.34')
    yield _ac('resources_%s=VCPU:1' % ('x' * 65), '1.33')
    yield _ac('required1=CUSTOM_FAST&resources=VCPU:1', '1.25')
    yield _ac('member_of1=%s&resources=VCPU:1' % AGG1, '1.25')
    yield _ac('in_tree1=%s&resources=VCPU:1' % R1, '1.35')
    yield _ac('required=CUSTOM_FAST', '1.35')
    # root_required (1.35) and same_subtree (1.36).
    for version in ('1.34', '1.35'):
        yield _ac('resources=VCPU:1&root_required=CUSTOM_FAST', version)
    yield _ac('resources=VCPU:1&root_required=!CUSTOM_FAST')
    yield _ac('resources=VCPU:1&root_required=CUSTOM_FAST,!CUSTOM_FAST')
    yield _ac('resources=VCPU:1&root_required=A&root_required=B')
    yield _ac('resources=VCPU:1&root_required=in:CUSTOM_FAST')
    yield _ac('resources=VCPU:1&root_required=CUSTOM_NONE')
    yield _ac('resources=SRIOV_NET_VF:1&root_required=CUSTOM_FAST')
    subtree = ('resources_A=SRIOV_NET_VF:1&resources_B=DISK_GB:10'
               '&group_policy=none&same_subtree=_A,_B')
    yield _ac(subtree, '1.35')
    yield _ac(subtree, '1.36')
    yield _ac('resources_A=SRIOV_NET_VF:1&required_T=CUSTOM_FAST'
              '&group_policy=none&same_subtree=_A,_T')
    yield _ac('resources_A=SRIOV_NET_VF:1&required_T=CUSTOM_FAST'
              '&group_policy=none')
    yield _ac('resources_A=SRIOV_NET_VF:1&group_policy=none'
              '&same_subtree=_A,_Z')
    yield _ac('resources_A=SRIOV_NET_VF:1&same_subtree=_A,')
    yield _ac('required_T=CUSTOM_FAST&same_subtree=_T')
    yield _ac('resources_A=SRIOV_NET_VF:1&resources_B=SRIOV_NET_VF:1'
              '&group_policy=isolate&same_subtree=_A,_B')
    yield _ac('resources=VCPU:1&bogus=1')
    yield _ac('resources=VCPU:1&resources=MEMORY_MB:1',
              note='repeated resources')
    yield _ac('resources=VCPU:1,MEMORY_MB:1&required=CUSTOM_FAST',
              accept='*/*')
    for uuid in (R1, R2, R3, C1, C2, SHARE):
        yield gen('/resource_providers/%s' % uuid)
    yield r('DELETE', '/allocations/%s' % CONS1)
    yield gen('/resource_providers/%s' % R1)
    yield _ac('resources=VCPU:8,MEMORY_MB:128', '1.12')
    yield from _sharing_pair()


def _sharing_pair():
    yield r('PUT', '/traits/CUSTOM_S')
    for i, aggregate in enumerate(S_AGGS):
        for uuid, name, inventories, traits in (
                (S_HOSTS[i], 's-host%d' % i, {'VCPU': {'total': 8}}, []),
                (S_STORES[i], 's-store%d' % i, {'DISK_GB': {'total': 100}},
                 ['MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_S'])):
            path = '/resource_providers/%s' % uuid
            yield r('POST', '/resource_providers', {'name': name,
                                                    'uuid': uuid})
            yield r('PUT', path + '/inventories', {
                'resource_provider_generation': g(uuid),
                'inventories': inventories})
            if traits:
                yield r('PUT', path + '/traits', {
                    'resource_provider_generation': g(uuid),
                    'traits': traits})
            yield r('PUT', path + '/aggregates', {
                'resource_provider_generation': g(uuid),
                'aggregates': [aggregate]})
    # Each storage provider with the compute root it shares with (the
    # second's once went missing: its trees were never read).
    yield _ac('resources=VCPU:1&required_S=CUSTOM_S&group_policy=none'
              '&same_subtree=_S')
