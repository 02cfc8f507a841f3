"""The scripted request sequence both servers get, in order: every
endpoint, the microversions where each changed, good and bad input, and
requests with and without Accept, Content-Type and Content-Length.

Every uuid a request names is made here (``uuid_of``), so both servers
hold the same ids; ``KNOWN`` is the set of them.
"""
import uuid as uuidlib

from tools.placement_diff.compare import AUTO
from tools.placement_diff.compare import Request

JSON = 'application/json'
_NAMESPACE = uuidlib.UUID('9b2a3c1e-5d0f-4f6e-8a7b-1c2d3e4f5a6b')
KNOWN = set()


def uuid_of(name):
    value = str(uuidlib.uuid5(_NAMESPACE, name))
    KNOWN.add(value)
    return value


def r(method, path, body=None, version='latest', accept=JSON,
      content_type=None, token='admin', headers=None, note=''):
    """A request with the usual headers; ``content_type`` defaults to
    JSON when there is a body; ``accept=None`` sends no Accept."""
    sent = {'X-Auth-Token': token, 'Accept': accept}
    if version is not None:
        sent['OpenStack-API-Version'] = 'placement %s' % version
    if body is not None:
        sent['Content-Type'] = content_type or JSON
        sent['Content-Length'] = AUTO
    elif content_type:
        sent['Content-Type'] = content_type
    sent.update(headers or {})
    return Request(method, path, sent, body, note)


R1, R2, R3 = uuid_of('root1'), uuid_of('root2'), uuid_of('root3')
C1, C2 = uuid_of('child1'), uuid_of('child2')
SHARE = uuid_of('share')
AGG1, AGG2 = uuid_of('agg1'), uuid_of('agg2')
CONS1, CONS2, CONS3 = uuid_of('consumer1'), uuid_of('consumer2'), \
    uuid_of('consumer3')
PROJ, USER = uuid_of('project'), uuid_of('user')
MISSING = uuid_of('missing')
CONS5 = uuid_of('consumer5')


def g(uuid):
    """The provider's current generation, as Placement has it when the
    request is sent (``run.resolve``): a request meant to succeed."""
    return {'$generation': uuid}


def cg(uuid):
    """The consumer's current generation, as Placement has it."""
    return {'$consumer_generation': uuid}


def gen(path):
    """Read back a provider (its generation is what most checks need)."""
    return r('GET', path, note='read back')


def framework():
    yield r('GET', '/', version=None)
    yield r('GET', '/', version='1.0')
    yield r('GET', '/', accept=None)
    yield r('GET', '/', version='1.40', note='unknown version')
    yield r('GET', '/', version='1.1.1', note='malformed version')
    yield r('GET', '/', version='foo')
    yield r('GET', '/', token=None)
    yield r('GET', '/resource_providers', token=None, note='no token')
    for accept in (None, '*/*', JSON, 'text/html'):
        yield r('GET', '/nothing/here', accept=accept, note='unknown path')
        yield r('GET', '/resource_providers/%s' % MISSING, accept=accept)
        yield r('POST', '/resource_classes', b'{bad', accept=accept,
                note='malformed JSON')
        yield r('PUT', '/traits/lowercase', accept=accept,
                note='invalid trait name')
    yield r('PATCH', '/resource_providers', {}, note='method not allowed')
    yield r('DELETE', '/traits', note='method not allowed')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_X'},
            headers={'Content-Type': None}, note='body, no Content-Type')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_X'},
            content_type='text/plain', note='wrong Content-Type')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_X'},
            headers={'Content-Length': 'abc'},
            note='invalid Content-Length')
    yield r('POST', '/resource_classes', headers={'Content-Length': '0'},
            content_type=JSON, note='empty body')
    yield r('POST', '/resource_classes', content_type=JSON,
            note='no body, no Content-Length')
    yield r('GET', '/resource_providers', headers={'Content-Length': '0'})


def resource_classes():
    yield r('GET', '/resource_classes', version='1.1')
    yield r('GET', '/resource_classes', version='1.2')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_GOLD'},
            version='1.2')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_GOLD'},
            version='1.2', note='duplicate')
    yield r('POST', '/resource_classes', {'name': 'GOLD'}, version='1.2')
    yield r('POST', '/resource_classes', {'name': 'CUSTOM_' + 'A' * 250},
            version='1.2')
    yield r('POST', '/resource_classes', {'nom': 'CUSTOM_X'}, version='1.2')
    yield r('GET', '/resource_classes/CUSTOM_GOLD', version='1.2')
    yield r('GET', '/resource_classes/CUSTOM_NONE', version='1.2')
    yield r('GET', '/resource_classes/VCPU', version='1.2')
    yield r('PUT', '/resource_classes/CUSTOM_GOLD', {'name': 'CUSTOM_SILVER'},
            version='1.6')
    yield r('PUT', '/resource_classes/VCPU', {'name': 'CUSTOM_V'},
            version='1.6')
    yield r('PUT', '/resource_classes/CUSTOM_SILVER', version='1.7')
    yield r('PUT', '/resource_classes/CUSTOM_BRONZE', version='1.7')
    yield r('PUT', '/resource_classes/CUSTOM_BRONZE', version='1.7')
    yield r('PUT', '/resource_classes/BRONZE', version='1.7')
    yield r('PUT', '/resource_classes/CUSTOM_IRON', {'name': 'CUSTOM_IRON'},
            version='1.7', note='body ignored from 1.7')
    yield r('DELETE', '/resource_classes/VCPU', version='1.2')
    yield r('DELETE', '/resource_classes/CUSTOM_NONE', version='1.2')
    yield r('DELETE', '/resource_classes/CUSTOM_BRONZE', version='1.2')
    yield r('GET', '/resource_classes', version='1.15')


def traits():
    yield r('GET', '/traits', version='1.5')
    yield r('PUT', '/traits/CUSTOM_FAST', version='1.6')
    yield r('PUT', '/traits/CUSTOM_FAST', version='1.6')
    yield r('PUT', '/traits/CUSTOM_SLOW', version='1.6')
    yield r('PUT', '/traits/CUSTOM_RED', version='1.6')
    yield r('PUT', '/traits/FAST', version='1.6')
    yield r('PUT', '/traits/CUSTOM_bad', version='1.6')
    yield r('GET', '/traits/CUSTOM_FAST', version='1.6')
    yield r('GET', '/traits/CUSTOM_NONE', version='1.6')
    yield r('GET', '/traits?name=in:CUSTOM_FAST,CUSTOM_SLOW', version='1.6')
    yield r('GET', '/traits?name=startswith:CUSTOM', version='1.6')
    yield r('GET', '/traits?name=CUSTOM_FAST', version='1.6')
    yield r('GET', '/traits?associated=maybe', version='1.6')
    yield r('GET', '/traits?bogus=1', version='1.6')
    yield r('DELETE', '/traits/HW_CPU_X86_AVX', version='1.6')
    yield r('DELETE', '/traits/CUSTOM_NONE', version='1.6')
    yield r('DELETE', '/traits/CUSTOM_RED', version='1.6')


def providers():
    yield r('POST', '/resource_providers', {'name': 'root1', 'uuid': R1},
            version='1.0')
    yield r('POST', '/resource_providers', {'name': 'root2', 'uuid': R2},
            version='1.20')
    yield r('POST', '/resource_providers', {'name': 'root3', 'uuid': R3},
            version='1.14')
    yield r('POST', '/resource_providers',
            {'name': 'child1', 'uuid': C1, 'parent_provider_uuid': R1},
            version='1.14')
    yield r('POST', '/resource_providers',
            {'name': 'child2', 'uuid': C2, 'parent_provider_uuid': R1},
            version='1.20')
    yield r('POST', '/resource_providers', {'name': 'share', 'uuid': SHARE},
            version='1.20')
    yield r('POST', '/resource_providers', {'name': 'root1'}, version='1.20',
            note='duplicate name')
    yield r('POST', '/resource_providers', {'name': 'x', 'uuid': R1},
            version='1.20', note='duplicate uuid')
    yield r('POST', '/resource_providers', {'name': 'x', 'uuid': 'nope'},
            version='1.20')
    yield r('POST', '/resource_providers',
            {'name': 'x', 'parent_provider_uuid': R1}, version='1.13')
    yield r('POST', '/resource_providers',
            {'name': 'orphan', 'uuid': uuid_of('orphan'),
             'parent_provider_uuid': MISSING}, version='1.20')
    yield r('POST', '/resource_providers', {'name': ''}, version='1.20')
    yield r('POST', '/resource_providers', {}, version='1.20')
    for version in ('1.0', '1.11', '1.14', '1.15', '1.37'):
        yield r('GET', '/resource_providers/%s' % C1, version=version)
    yield r('GET', '/resource_providers?name=root1', version='1.0')
    yield r('GET', '/resource_providers?uuid=%s' % R2, version='1.0')
    yield r('GET', '/resource_providers?uuid=bad', version='1.0')
    yield r('GET', '/resource_providers?in_tree=%s' % R1, version='1.13')
    yield r('GET', '/resource_providers?in_tree=%s' % C2, version='1.14')
    yield r('GET', '/resource_providers?in_tree=bad', version='1.14')
    yield r('GET', '/resource_providers?bogus=1', version='1.14')
    # Updates: rename, self-parent, re-parent (1.37), un-parent.
    yield r('PUT', '/resource_providers/%s' % R3, {'name': 'root3b'},
            version='1.14')
    yield r('PUT', '/resource_providers/%s' % R3, {'name': 'root1'},
            version='1.14', note='name taken')
    yield r('PUT', '/resource_providers/%s' % R3,
            {'name': 'root3b', 'parent_provider_uuid': R3}, version='1.14',
            note='own parent')
    yield r('PUT', '/resource_providers/%s' % C2,
            {'name': 'child2', 'parent_provider_uuid': R2}, version='1.36',
            note='re-parent before 1.37')
    yield r('PUT', '/resource_providers/%s' % C2,
            {'name': 'child2', 'parent_provider_uuid': None},
            version='1.36', note='un-parent before 1.37')
    yield r('PUT', '/resource_providers/%s' % R1,
            {'name': 'root1', 'parent_provider_uuid': C1}, version='1.37',
            note='loop')
    yield r('PUT', '/resource_providers/%s' % MISSING, {'name': 'x'},
            version='1.14')
    yield r('PUT', '/resource_providers/%s' % R3, {'name': 'x', 'foo': 1},
            version='1.14')
    yield r('DELETE', '/resource_providers/%s' % R1, version='1.14',
            note='has children')
    yield r('DELETE', '/resource_providers/%s' % MISSING)


def inventories():
    path = '/resource_providers/%s/inventories' % R1
    yield r('GET', path, version='1.0')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'VCPU': {'total': 8, 'allocation_ratio': 2.0},
        'MEMORY_MB': {'total': 4096, 'reserved': 512}}}, version='1.0')
    yield r('PUT', path, {'resource_provider_generation': 0, 'inventories': {
        'VCPU': {'total': 8}}}, version='1.0', note='stale generation')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'CUSTOM_NONE': {'total': 8}}}, version='1.0')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'VCPU': {'total': 0}}}, version='1.0')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'VCPU': {'total': 8, 'reserved': 9}}}, version='1.0')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'VCPU': {'total': 8, 'reserved': 8}, 'MEMORY_MB': {'total': 4096}}},
        version='1.26', note='reserved may equal total from 1.26')
    yield r('PUT', path, {'resource_provider_generation': g(R1), 'inventories': {
        'VCPU': {'total': 8, 'allocation_ratio': 2.0},
        'MEMORY_MB': {'total': 4096, 'reserved': 512}}}, version='1.26')
    yield r('POST', path, {'resource_class': 'CUSTOM_SILVER', 'total': 10},
            version='1.0')
    yield r('POST', path, {'resource_class': 'CUSTOM_SILVER', 'total': 10},
            version='1.0', note='exists')
    yield r('POST', path, {'resource_class': 'CUSTOM_NONE', 'total': 10},
            version='1.0')
    yield r('GET', path + '/CUSTOM_SILVER', version='1.15')
    yield r('GET', path + '/DISK_GB', version='1.0')
    yield r('PUT', path + '/CUSTOM_SILVER',
            {'resource_provider_generation': g(R1), 'total': 20}, version='1.0')
    yield r('PUT', path + '/CUSTOM_SILVER',
            {'resource_provider_generation': 0, 'total': 20}, version='1.0',
            note='stale')
    yield r('PUT', path + '/DISK_GB',
            {'resource_provider_generation': g(R1), 'total': 20}, version='1.0')
    yield r('DELETE', path + '/CUSTOM_SILVER', version='1.0')
    yield r('DELETE', path + '/CUSTOM_SILVER', version='1.0')
    yield r('DELETE', '/resource_providers/%s/inventories' % R3,
            version='1.4')
    yield r('DELETE', '/resource_providers/%s/inventories' % R3,
            version='1.5')
    yield r('GET', '/resource_providers/%s/inventories' % MISSING)
    for uuid, invs in ((C1, {'SRIOV_NET_VF': {'total': 4},
                             'DISK_GB': {'total': 100}}),
                       (C2, {'SRIOV_NET_VF': {'total': 4}}),
                       (R2, {'VCPU': {'total': 4}, 'MEMORY_MB': {
                           'total': 2048}}),
                       (SHARE, {'DISK_GB': {'total': 1000, 'max_unit': 500,
                                            'step_size': 10}})):
        yield r('PUT', '/resource_providers/%s/inventories' % uuid,
                {'resource_provider_generation': g(uuid), 'inventories': invs})
    yield r('GET', path, version='1.15')


def aggregates_and_traits():
    yield r('GET', '/resource_providers/%s/aggregates' % R1, version='1.0')
    yield r('GET', '/resource_providers/%s/aggregates' % R1, version='1.1')
    yield r('PUT', '/resource_providers/%s/aggregates' % R2, [AGG1],
            version='1.1')
    yield r('PUT', '/resource_providers/%s/aggregates' % SHARE, [AGG1],
            version='1.18')
    yield r('PUT', '/resource_providers/%s/aggregates' % R2, [AGG1],
            version='1.19', note='list form at 1.19')
    yield r('PUT', '/resource_providers/%s/aggregates' % R1,
            {'resource_provider_generation': 1, 'aggregates': [AGG2]},
            version='1.19', note='stale generation')
    yield r('PUT', '/resource_providers/%s/aggregates' % R3,
            {'resource_provider_generation': g(R3), 'aggregates': ['x']},
            version='1.19')
    yield r('PUT', '/resource_providers/%s/aggregates' % R3,
            {'resource_provider_generation': g(R3), 'aggregates': [AGG2, AGG2]},
            version='1.19')
    yield r('GET', '/resource_providers/%s/aggregates' % R2, version='1.19')
    yield r('GET', '/resource_providers?member_of=%s' % AGG1, version='1.3')
    yield r('GET', '/resource_providers?member_of=in:%s,%s' % (AGG1, AGG2),
            version='1.3')
    yield r('GET', '/resource_providers?member_of=%s,%s' % (AGG1, AGG2),
            version='1.3')
    yield r('GET', '/resource_providers?member_of=!%s' % AGG1,
            version='1.31', note='forbidden before 1.32')
    yield r('GET', '/resource_providers?member_of=!%s' % AGG1,
            version='1.32')
    yield r('GET', '/resource_providers?member_of=%s&member_of=%s'
            % (AGG1, AGG2), version='1.23')
    yield r('GET', '/resource_providers?member_of=bad', version='1.3')
    tpath = '/resource_providers/%s/traits' % SHARE
    yield r('GET', tpath, version='1.5')
    yield r('GET', tpath, version='1.6')
    yield r('PUT', tpath, {'resource_provider_generation': g(SHARE), 'traits': [
        'MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_FAST']}, version='1.6')
    yield r('PUT', tpath, {'resource_provider_generation': 0, 'traits': [
        'CUSTOM_NONE']}, version='1.6', note='stale and unknown')
    yield r('PUT', tpath, {'resource_provider_generation': g(SHARE), 'traits': [
        'CUSTOM_NONE']}, version='1.6', note='unknown trait')
    yield r('PUT', tpath, {'resource_provider_generation': g(SHARE), 'traits': [
        'bad name']}, version='1.6', note='invalid trait name')
    yield r('PUT', '/resource_providers/%s/traits' % R1,
            {'resource_provider_generation': g(R1),
             'traits': ['CUSTOM_FAST', 'HW_CPU_X86_AVX']}, version='1.6')
    yield r('PUT', '/resource_providers/%s/traits' % C2,
            {'resource_provider_generation': g(C2), 'traits': ['CUSTOM_SLOW']},
            version='1.6')
    yield r('DELETE', '/traits/CUSTOM_SLOW', version='1.6', note='in use')
    yield r('GET', '/traits?associated=true', version='1.6')
    yield r('GET', '/traits?associated=false&name=startswith:CUSTOM',
            version='1.6')
    yield r('GET', '/resource_providers?required=CUSTOM_FAST',
            version='1.18')
    yield r('GET', '/resource_providers?required=!CUSTOM_FAST',
            version='1.21')
    yield r('GET', '/resource_providers?required=!CUSTOM_FAST',
            version='1.22')
    yield r('GET', '/resource_providers?required=CUSTOM_NONE',
            version='1.22')
    yield r('GET', '/resource_providers?required=in:CUSTOM_FAST,CUSTOM_SLOW',
            version='1.38')
    yield r('GET', '/resource_providers?required=in:CUSTOM_FAST,CUSTOM_SLOW',
            version='1.39')
    yield r('GET', '/resource_providers?required=in:CUSTOM_FAST,!CUSTOM_SLOW',
            version='1.39')
    yield r('GET', '/resource_providers?required=', version='1.39')
    yield r('GET', '/resource_providers?resources=VCPU:2', version='1.3')
    yield r('GET', '/resource_providers?resources=VCPU:2,DISK_GB:10',
            version='1.4')
    yield r('GET', '/resource_providers?resources=VCPU:x', version='1.4')
    yield r('GET', '/resource_providers?resources=CUSTOM_NONE:1',
            version='1.4')
    yield r('DELETE', '/resource_providers/%s/traits' % C2, version='1.6')
    for uuid in (R1, R2, C1, C2, SHARE, R3):
        yield gen('/resource_providers/%s' % uuid)


def allocations():
    a1 = '/allocations/%s' % CONS1
    yield r('PUT', a1, {'allocations': [{
        'resource_provider': {'uuid': R1}, 'resources': {'VCPU': 2}}]},
        version='1.0')
    yield r('GET', a1, version='1.0')
    yield r('PUT', a1, {'allocations': [{
        'resource_provider': {'uuid': R1}, 'resources': {'VCPU': 2}}]},
        version='1.8', note='no project')
    yield r('PUT', a1, {'allocations': [{
        'resource_provider': {'uuid': R1}, 'resources': {'VCPU': 3}}],
        'project_id': PROJ, 'user_id': USER}, version='1.8')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 1}},
                                        C1: {'resources': {'DISK_GB': 5}}},
                        'project_id': PROJ, 'user_id': USER},
            version='1.12')
    yield r('GET', a1, version='1.12')
    yield r('GET', a1, version='1.28')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': 0}, version='1.28',
            note='stale consumer generation')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.28',
            note='replace')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 100}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.28',
            note='over capacity')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'DISK_GB': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.28',
            note='no inventory')
    yield r('PUT', a1, {'allocations': {MISSING: {'resources': {'VCPU': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.28')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {
        'CUSTOM_NONE': 1}}}, 'project_id': PROJ, 'user_id': USER,
        'consumer_generation': cg(CONS1)}, version='1.28')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 0}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.28')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1),
                        'consumer_type': 'INSTANCE'}, version='1.38')
    yield r('PUT', a1, {'allocations': {R1: {'resources': {'VCPU': 1}}},
                        'project_id': PROJ, 'user_id': USER,
                        'consumer_generation': cg(CONS1)}, version='1.38',
            note='no consumer_type')
    yield r('GET', a1, version='1.38')
    yield r('POST', '/allocations', {CONS2: {
        'allocations': {R2: {'resources': {'VCPU': 1, 'MEMORY_MB': 256}},
                        SHARE: {'resources': {'DISK_GB': 20}}},
        'project_id': PROJ, 'user_id': USER, 'consumer_generation': None,
        'consumer_type': 'MIGRATION'}}, version='1.38')
    yield r('POST', '/allocations', {CONS2: {
        'allocations': {R2: {'resources': {'VCPU': 1}}},
        'project_id': PROJ, 'user_id': USER}}, version='1.12')
    yield r('POST', '/allocations', {CONS2: {
        'allocations': {R2: {'resources': {'VCPU': 1}}},
        'project_id': PROJ, 'user_id': USER}}, version='1.13')
    yield r('POST', '/allocations', {CONS3: {
        'allocations': {SHARE: {'resources': {'DISK_GB': 15}}},
        'project_id': PROJ, 'user_id': USER, 'consumer_generation': None}},
        version='1.28', note='not a step_size multiple')
    yield r('GET', '/resource_providers/%s/allocations' % R2)
    yield r('GET', '/resource_providers/%s/allocations' % MISSING)
    yield r('GET', '/resource_providers/%s/usages' % R1)
    yield r('GET', '/resource_providers/%s/usages' % SHARE, version='1.15')
    yield r('GET', '/usages?project_id=%s' % PROJ, version='1.8')
    yield r('GET', '/usages?project_id=%s' % PROJ, version='1.9')
    yield r('GET', '/usages?project_id=%s&user_id=%s' % (PROJ, USER),
            version='1.37')
    yield r('GET', '/usages?project_id=%s' % PROJ, version='1.38')
    yield r('GET', '/usages?project_id=%s&consumer_type=INSTANCE' % PROJ,
            version='1.38')
    yield r('GET', '/usages', version='1.9')
    yield r('GET', '/resource_providers?resources=VCPU:1', version='1.38')
    # Inventory in use (and the order the classes are named in).
    yield r('PUT', '/allocations/%s' % CONS5, {
        'allocations': {R2: {'resources': {'VCPU': 1, 'MEMORY_MB': 64}}},
        'project_id': PROJ, 'user_id': USER, 'consumer_generation': None},
        version='1.28')
    path = '/resource_providers/%s/inventories' % R2
    yield r('PUT', path, {'resource_provider_generation': g(R2),
                          'inventories': {}}, version='1.0')
    yield r('DELETE', path, version='1.5')
    yield r('DELETE', path + '/VCPU', version='1.5')
    yield r('PUT', path + '/VCPU', {'resource_provider_generation': g(R2),
                                    'total': 0}, version='1.5')
    for uuid in (R1, R2, C1, SHARE):
        yield gen('/resource_providers/%s' % uuid)
    yield r('DELETE', '/allocations/%s' % CONS5)
    yield r('DELETE', '/allocations/%s' % CONS2)
    yield r('DELETE', '/allocations/%s' % CONS2)
    for uuid in (R2, SHARE):
        yield gen('/resource_providers/%s' % uuid)
    yield r('PUT', '/allocations/%s' % CONS2, {
        'allocations': {R2: {'resources': {'VCPU': 1}}}, 'project_id': PROJ,
        'user_id': USER, 'consumer_generation': None,
        'consumer_type': 'INSTANCE'}, version='1.38')
    yield r('PUT', '/allocations/%s' % CONS2, {
        'allocations': {}, 'project_id': PROJ, 'user_id': USER,
        'consumer_generation': cg(CONS2), 'consumer_type': 'INSTANCE'},
        version='1.38', note='empty allocations delete')
    yield gen('/resource_providers/%s' % R2)
    yield r('DELETE', '/resource_providers/%s' % R1, version='1.14',
            note='in use')
