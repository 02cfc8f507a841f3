"""Malformed requests for the fuzzer (tests/functional/test_fuzz.py), drawn
from a seeded ``random.Random`` so that a seed replays a run exactly.

A request is a route of either API (tests.functional.api_routes) with
hostile parts: path items that are other tenants' ids, unknown ids or not
ids at all; callers with and without rights, and tokens that are not
tokens; microversions in and out of range or malformed; query strings with
wrong types, huge numbers, repeated keys, bad percent-escapes; bodies made
from a valid example of the route (or any schema of the API), then
mutated: wrong types, boundary and huge numbers, unicode edge cases (lone
surrogates, NUL, right-to-left marks, control characters, decomposed
forms), deep nesting, extra, missing and duplicate keys; then written as
JSON text with numbers json.dumps never writes (1E400, -0.0e-5), in
UTF-16/32, with bytes that are not UTF-8 inside strings; or bytes that are
not JSON at all. Headers: microversions of the other API or garbage,
Content-Types with charsets Python cannot decode with, Accept values that
accept nothing, and Content-Lengths that are no length or not the body's.
"""
import json
import re
import urllib.parse
import uuid

from volapi.api.schemas import attachments as attachment_schemas
from volapi.api.schemas import backups as backup_schemas
from volapi.api.schemas import groups as group_schemas
from volapi.api.schemas import qos_specs as qos_schemas
from volapi.api.schemas import snapshot_manage as snapshot_manage_schemas
from volapi.api.schemas import snapshots as snapshot_schemas
from volapi.api.schemas import types as type_schemas
from volapi.api.schemas import volume_actions as action_schemas
from volapi.api.schemas import volume_manage as manage_schemas
from volapi.api.schemas import volumes as volume_schemas
from volapi.api.schemas import workers as worker_schemas
from volapi.placement.schemas import aggregate as aggregate_schemas
from volapi.placement.schemas import allocation as allocation_schemas
from volapi.placement.schemas import inventory as inventory_schemas
from volapi.placement.schemas import reshaper as reshaper_schemas
from volapi.placement.schemas import resource_class as rc_schemas
from volapi.placement.schemas import resource_provider as rp_schemas
from volapi.placement.schemas import trait as trait_schemas

HOSTILE_TEXT = [
    '', ' ', '0', '-1', '1e3', '0x10', '\u00b2', '\u0661', '1_0', '5' * 5000,
    '\x00', 'a\x00b', '\ud800', 'a\udfffb', '\u202eevil', '\ufeff',
    '\u00e9', '\U0001f600', 'x' * 256, 'x' * 70000, "' OR 1=1 --",
    '%s%n%x', '../../etc/passwd', 'true', 'null', 'None', 'NaN', '\r\n',
    '<script>', 'CUSTOM_\u00c9', 'DISK_GB', 'CUSTOM_FUZZ', 'admin',
    '00000000-0000-0000-0000-000000000000', str(uuid.uuid4()),
    # Control characters, decomposed and non-characters, lengths at a
    # column's limit in characters (not bytes).
    '\x01\x1f\x7f', '\u2028', 'cafe\u0301', '\ufffe\uffff', '\U0010ffff',
    '\u00e9' * 255, '\U0001f600' * 256, 'e\u0301' * 200, ' x ',
]
HOSTILE_NUMBERS = [
    0, -1, 1, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 63 - 1, 2 ** 63,
    2 ** 64, -2 ** 63 - 1, 10 ** 100, int('9' * 4000), 1.5, -0.0, 1e308,
    -1e308, 5e-324, 3.40282e+38, 3.5e+38,
]
HOSTILE_VALUES = HOSTILE_TEXT + HOSTILE_NUMBERS + [
    None, True, False, [], {}, [None], {'': ''}, {'a': {'b': {}}},
]
RAW_BODIES = [
    b'', b' ', b'{', b'[', b'"x', b'}', b'nul', b'NaN', b'Infinity',
    b'-Infinity', b'1' * 5000, b'\xff\xfe', b'\xed\xa0\x80', b'\x00',
    b'{"a": 1, "a": 2}', b'[' * 100000, b'{"a":' * 5000,
    b'\xef\xbb\xbf{}', b'{"volume": {"size": 1}} trailing',
    b'1E400', b'{"volume": {"size": 1E400}}', b'"\\ud800"', b'\x1f\x8b',
]
# Numbers as JSON text that json.dumps never writes: put in place of a
# number of a body (Python reads 1E400 as inf, 1.0 as a float).
RAW_NUMBERS = ['1E400', '-1E400', '1e-400', '1.0', '2.0', '1E2', '-0',
               '-0.0e-5', '0.1e1', '9' * 400, '1' + '0' * 30, 'NaN',
               'Infinity', '-Infinity', 'true', '"1"', '" 1"', '"1.0"']
# Bytes that are not UTF-8 (a surrogate, an overlong NUL, past U+10FFFF,
# latin-1), put inside a string of a body.
NOT_UTF8 = [b'\xff', b'\xed\xa0\x80', b'\xc0\x80', b'\xf4\x90\x80\x80',
            b'\xe9', b'\x80']
# Other encodings of a body's JSON text.
BODY_ENCODINGS = ['utf-16', 'utf-32', 'utf-8-sig', 'utf-16-be', 'latin-1']
HOSTILE_SEGMENTS = [
    '%00', '..', '.', 'x' * 300, '%ED%A0%80', '%E2%98%83', '%25', "'",
    '%20', '%FF', '%', '%zz', 'detail', 'action', '0', '-1', '9' * 30,
    '00000000-0000-0000-0000-000000000000', 'DISK_GB', 'CUSTOM_FUZZ',
    '%2F', 'a%2Fb', ';', '%0D%0A', '%C0%80', '%F4%90%80%80', '%E2%80%AE',
    '%2e%2e', 'x%20', '%09', '+', 'caf%C3%A9', 'cafe%CC%81',
]
QUERY_KEYS = [
    'limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir',
    'all_tenants', 'with_count', 'name', 'status', 'metadata', 'project_id',
    'volume_id', 'size', 'bootable', 'is_public', 'extra_specs', 'cascade',
    'force', 'name~', 'created_at', 'attach_status', 'instance_id',
    'resources', 'required', 'member_of', 'in_tree', 'uuid',
    'group_policy', 'consumer_type', 'user_id', 'root_required',
    'same_subtree', 'resources1', 'required_x', 'associated', 'usage',
    'vol_type_id', 'consumer', 'id', 'host', 'cluster', 'binary',
    'list_volume', 'group_type_id', 'availability_zone', 'zone',
]
# Values of Cinder's filters read as Python literals (metadata=,
# extra_specs=), each once a 500.
PYTHON_LITERALS = ["{'k': 'v'}", '{[]: 1}', '-' * 100000 + '1',
                   "{'k': '\\x00'}", "{'\\ud800': 'v'}",
                   "{'k': 0x%s}" % ('f' * 5000), "{'k': b'v'}",
                   '{' * 300 + '}' * 300, "{'k': 1E400}"]
_NUMBER_TOKEN = re.compile(r'(?<=[\[:,] )-?[0-9][0-9.eE+-]*(?=[,\]}])|'
                           r'(?<=\[)-?[0-9][0-9.eE+-]*(?=[,\]}])')
_STRING_TOKEN = re.compile(r'"(?:[^"\\]|\\.)+"')
# Microversions: (valid ones, malformed or out of range ones).
VOLUME_VERSIONS = (['3.0', '3.1', '3.27', '3.31', '3.39', '3.44', '3.53',
                    '3.54', '3.55', '3.57', '3.59', '3.60', '3.62', '3.64',
                    '3.65', '3.66', '3.67', 'latest'],
                   ['3.', '3.68', '4.0', '2.0', '3.99999999999999999999',
                    '\u0663.0', '', 'x', '3.0 3.1', '3.-1', '3.999',
                    '3.' + '0' * 5000 + '1', '03.05', '3.1e2', ' 3.5'])
PLACEMENT_VERSIONS = (['1.%d' % n for n in range(0, 40)] + ['latest'],
                      ['1.', '1.40', '2.0', '1.99999999999999999999', '',
                       'x', '1.-1', '1.\u0661', '1.' + '0' * 5000 + '1',
                       '01.5', '1.5.1'])
# Whole OpenStack-API-Version headers either API may be sent: the other
# API's, several services, garbage.
VERSION_HEADERS = ['volume 3.999', 'placement latest', 'volume latest',
                   'placement 1.39', 'compute 2.1', 'volume 3.5, volume 3.9',
                   'placement 1.2, volume 3.1', 'VOLUME 3.5', 'PLACEMENT 1.5',
                   ',', 'volume', 'placement', '\xff\xfe', 'volume\t3.5',
                   'x' * 5000, '']
CONTENT_TYPES = ['application/json'] * 12 + [
    None, 'text/plain', 'application/json; charset=latin-1',
    'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
    '\u00e9/json', 'application/json; charset=zlib',
    'application/json; charset=nonexistent', 'application/json; charset=',
    'application/json; charset=utf-16', 'APPLICATION/JSON',
    ' application/json ', 'application/json;;', 'application/jsonx']
ACCEPTS = ['application/json'] * 8 + [
    None, '*/*', 'text/html', 'application/xml', 'x/\u00e9',
    'application/json;q=0', '*/*;q=0', 'application/*', ',',
    'application/json;q=x']
# Content-Length values that are no length, or not the body's.
CONTENT_LENGTHS = ['abc', '-1', '+1', ' 1', '1e3', '0', '9' * 30,
                   '\u0661', 'short', 'long']


def _uuid():
    return str(uuid.uuid4())


# Valid bodies of each volume API route (templates as api_routes names
# them), before mutation. Values in angle brackets are filled from the
# fuzzer's resources.
VOLUME_EXAMPLES = {
    ('POST', '/v3/volumes'): [
        {'volume': {'size': 1, 'name': 'v', 'metadata': {'k': 'v'}}},
        {'volume': {'size': 1, 'snapshot_id': '<snapshot_id>'}},
        {'volume': {'size': 1, 'source_volid': '<volume_id>',
                    'volume_type': '<type_name>', 'multiattach': True}}],
    ('PUT', '/v3/volumes/{volume_id}'): [
        {'volume': {'name': 'n', 'description': 'd',
                    'metadata': {'a': 'b'}}}],
    ('POST', '/v3/volumes/{volume_id}/metadata'): [{'metadata': {'k': 'v'}}],
    ('PUT', '/v3/volumes/{volume_id}/metadata'): [{'metadata': {'k': 'v'}}],
    ('PUT', '/v3/volumes/{volume_id}/metadata/{key}'): [
        {'meta': {'<key>': 'v'}}],
    ('POST', '/v3/snapshots'): [
        {'snapshot': {'volume_id': '<volume_id>', 'name': 's',
                      'force': True, 'metadata': {'k': 'v'}}}],
    ('PUT', '/v3/snapshots/{snapshot_id}'): [
        {'snapshot': {'name': 's', 'description': 'd'}}],
    ('POST', '/v3/snapshots/{snapshot_id}/metadata'): [
        {'metadata': {'k': 'v'}}],
    ('PUT', '/v3/snapshots/{snapshot_id}/metadata'): [
        {'metadata': {'k': 'v'}}],
    ('PUT', '/v3/snapshots/{snapshot_id}/metadata/{key}'): [
        {'meta': {'<key>': 'v'}}],
    ('POST', '/v3/types'): [
        {'volume_type': {'name': 't', 'extra_specs': {'multiattach':
                                                      '<is> True'}}}],
    ('PUT', '/v3/types/{type_id}'): [
        {'volume_type': {'name': 't2', 'is_public': True}}],
    ('POST', '/v3/types/{type_id}/extra_specs'): [
        {'extra_specs': {'k': 'v'}}],
    ('PUT', '/v3/types/{type_id}/extra_specs/{key}'): [{'<key>': 'v'}],
    ('POST', '/v3/qos-specs'): [
        {'qos_specs': {'name': 'q', 'consumer': 'front-end',
                       'total_iops_sec': '100'}}],
    ('PUT', '/v3/qos-specs/{qos_id}'): [
        {'qos_specs': {'consumer': 'both', 'read_iops_sec': None,
                       '<key>': 'v'}}],
    ('PUT', '/v3/qos-specs/{qos_id}/delete_keys'): [{'keys': ['<key>']}],
    ('POST', '/v3/attachments'): [
        {'attachment': {'volume_uuid': '<volume_id>',
                        'instance_uuid': '<uuid>'}},
        {'attachment': {'volume_uuid': '<volume_id>',
                        'instance_uuid': '<uuid>', 'mode': 'ro',
                        'connector': {'host': 'h', 'initiator': 'iqn.x',
                                      'mountpoint': '/dev/vdb',
                                      'multipath': False,
                                      'wwpns': ['50014380186af83c']}}}],
    ('PUT', '/v3/attachments/{attachment_id}'): [
        {'attachment': {'connector': {'host': 'h', 'mountpoint': '/dev/x'}}}],
    ('PUT', '/v3/os-quota-sets/{project_id}'): [
        {'quota_set': {'volumes': 20, 'gigabytes': 100}}],
    ('PUT', '/v3/os-quota-class-sets/{class_name}'): [
        {'quota_class_set': {'snapshots': 20}}],
    ('*', '/v3/workers/cleanup'): [
        {}, {'service_id': 1, 'host': 'h', 'is_up': False,
             'resource_type': 'volume', 'resource_id': '<volume_id>'}],
    ('*', '/v3/volumes/{volume_id}/action'): [
        {'os-extend': {'new_size': 2}}, {'os-reserve': None},
        {'os-unreserve': None}, {'os-begin_detaching': None},
        {'os-roll_detaching': None},
        {'os-attach': {'instance_uuid': '<uuid>', 'mountpoint': '/dev/vdb',
                       'mode': 'rw'}},
        {'os-detach': {'attachment_id': '<attachment_id>'}},
        {'os-reset_status': {'status': 'available',
                             'attach_status': 'detached'}},
        {'os-retype': {'new_type': '<type_name>',
                       'migration_policy': 'never'}},
        {'os-update_readonly_flag': {'readonly': True}},
        {'os-set_image_metadata': {'metadata': {'k': 'v'}}},
        {'os-unset_image_metadata': {'key': 'k'}},
        {'os-show_image_metadata': None},
        {'os-force_detach': {'attachment_id': '<attachment_id>',
                             'connector': {'host': 'h'}}},
        {'os-initialize_connection': {'connector': {
            'host': 'h', 'initiator': 'iqn.x', 'multipath': False}}},
        {'os-terminate_connection': {'connector': {'host': 'h'}}},
        {'os-unmanage': None},
        {'os-force_delete': None},
        {'revert': {'snapshot_id': '<snapshot_id>'}}],
    ('POST', '/v3/volume-transfers'): [
        {'transfer': {'volume_id': '<volume_id>', 'name': 't'}},
        {'transfer': {'volume_id': '<volume_id>', 'no_snapshots': True}}],
    ('POST', '/v3/os-volume-transfer'): [
        {'transfer': {'volume_id': '<volume_id>', 'name': 't'}}],
    ('*', '/v3/volume-transfers/{transfer_id}/accept'): [
        {'accept': {'auth_key': '<auth_key>'}}],
    ('*', '/v3/os-volume-transfer/{transfer_id}/accept'): [
        {'accept': {'auth_key': '<auth_key>'}}],
    ('PUT', '/v3/default-types/{project_id}'): [
        {'default_type': {'volume_type': '<type_name>'}},
        {'default_type': {'volume_type': '<type_id>'}}],
    ('*', '/v3/snapshots/{snapshot_id}/action'): [
        {'os-reset_status': {'status': 'available'}},
        {'os-force_delete': None},
        {'os-update_snapshot_status': {'status': 'available',
                                       'progress': '100%'}},
        {'os-unmanage': None}],
    ('POST', '/v3/manageable_snapshots'): [
        {'snapshot': {'volume_id': '<volume_id>',
                      'ref': {'source-name': 'x'}, 'name': 's',
                      'description': 'd', 'metadata': {'k': 'v'}}}],
    ('POST', '/v3/os-snapshot-manage'): [
        {'snapshot': {'volume_id': '<volume_id>', 'ref': 'x'}}],
    ('*', '/v3/attachments/{attachment_id}/action'): [
        {'os-complete': None}],
    ('POST', '/v3/backups'): [
        {'backup': {'volume_id': '<volume_id>', 'name': 'b',
                    'description': 'd', 'container': 'c', 'force': True,
                    'incremental': False, 'metadata': {'k': 'v'}}},
        {'backup': {'volume_id': '<volume_id>',
                    'snapshot_id': '<snapshot_id>'}}],
    ('PUT', '/v3/backups/{backup_id}'): [
        {'backup': {'name': 'b', 'description': 'd', 'metadata': {'k': 'v'}}}],
    ('*', '/v3/backups/{backup_id}/restore'): [
        {'restore': {'volume_id': '<volume_id>', 'name': 'r'}},
        {'restore': None}],
    ('*', '/v3/backups/{backup_id}/action'): [
        {'os-reset_status': {'status': 'available'}},
        {'os-force_delete': {}}],
    ('POST', '/v3/group_types'): [
        {'group_type': {'name': 'g', 'description': 'd', 'is_public': True,
                        'group_specs': {'k': 'v'}}}],
    ('PUT', '/v3/group_types/{group_type_id}'): [
        {'group_type': {'name': 'g2', 'description': 'd',
                        'is_public': False}}],
    ('POST', '/v3/group_types/{group_type_id}/group_specs'): [
        {'group_specs': {'k': 'v'}}],
    ('PUT', '/v3/group_types/{group_type_id}/group_specs/{key}'): [
        {'<key>': 'v'}],
    ('POST', '/v3/groups'): [
        {'group': {'group_type': '<group_type_id>',
                   'volume_types': ['<type_id>'], 'name': 'g',
                   'description': 'd', 'availability_zone': 'nova'}}],
    ('PUT', '/v3/groups/{group_id}'): [
        {'group': {'name': 'g', 'description': 'd',
                   'add_volumes': '<volume_id>',
                   'remove_volumes': '<volume_id>'}}],
    ('*', '/v3/groups/{group_id}/action'): [
        {'delete': {'delete-volumes': True}}, {'delete': {}}],
    ('POST', '/v3/manageable_volumes'): [
        {'volume': {'host': '<host>', 'ref': {'source-name': '<file>'},
                    'name': 'm', 'volume_type': '<type_name>',
                    'metadata': {'k': 'v'}, 'bootable': False}},
        {'volume': {'cluster': '<host>', 'ref': {'source-name': '<file>'}}}],
    ('POST', '/v3/os-volume-manage'): [
        {'volume': {'host': '<host>', 'ref': {'source-name': '<file>'}}}],
    ('PUT', '/v3/os-services/disable-log-reason'): [
        {'host': '<host>', 'binary': 'cinder-volume',
         'disabled_reason': 'r'}],
    ('PUT', '/v3/os-services/enable'): [
        {'host': '<host>', 'binary': 'cinder-volume'}],
    ('PUT', '/v3/os-services/disable'): [
        {'host': '<host>', 'binary': 'cinder-volume'}],
    ('PUT', '/v3/os-services/freeze'): [
        {'host': '<host>'}, {'cluster': '<host>'}],
    ('PUT', '/v3/os-services/thaw'): [
        {'host': '<host>'}, {'cluster': '<host>'}],
    ('PUT', '/v3/os-services/failover_host'): [
        {'host': '<host>', 'backend_id': 'b'}, {'cluster': '<host>'}],
}

PLACEMENT_EXAMPLES = {
    ('POST', '/resource_classes'): [{'name': 'CUSTOM_FUZZ'}],
    ('PUT', '/resource_classes/{name}'): [{'name': 'CUSTOM_FUZZ2'}, None],
    ('POST', '/resource_providers'): [
        {'name': 'rp', 'uuid': '<uuid>'},
        {'name': 'child', 'parent_provider_uuid': '<rp_uuid>'}],
    ('PUT', '/resource_providers/{uuid}'): [
        {'name': 'renamed', 'parent_provider_uuid': None}],
    ('POST', '/resource_providers/{uuid}/inventories'): [
        {'resource_class': 'DISK_GB', 'total': 100, 'reserved': 1,
         'allocation_ratio': 1.5}],
    ('PUT', '/resource_providers/{uuid}/inventories'): [
        {'resource_provider_generation': '<generation>',
         'inventories': {'DISK_GB': {'total': 100, 'max_unit': 50},
                         'VCPU': {'total': 8}}}],
    ('PUT', '/resource_providers/{uuid}/inventories/{resource_class}'): [
        {'resource_provider_generation': '<generation>', 'total': 50}],
    ('PUT', '/resource_providers/{uuid}/aggregates'): [
        {'resource_provider_generation': '<generation>',
         'aggregates': ['<uuid>']}, ['<uuid>']],
    ('POST', '/allocations'): [
        {'<consumer>': {'allocations': {'<rp_uuid>': {'resources': {
            'DISK_GB': 1}}}, 'project_id': 'p', 'user_id': 'u',
            'consumer_generation': None}}],
    ('PUT', '/allocations/{consumer_uuid}'): [
        {'allocations': {'<rp_uuid>': {'resources': {'DISK_GB': 2}}},
         'project_id': 'p', 'user_id': 'u', 'consumer_generation': None},
        {'allocations': [{'resource_provider': {'uuid': '<rp_uuid>'},
                          'resources': {'DISK_GB': 1}}]}],
    ('PUT', '/traits/{name}'): [None],
    ('PUT', '/resource_providers/{uuid}/traits'): [
        {'resource_provider_generation': '<generation>',
         'traits': ['CUSTOM_FUZZ', 'HW_CPU_X86_AVX']}],
    ('POST', '/reshaper'): [
        {'inventories': {'<rp_uuid>': {
            'resource_provider_generation': '<generation>',
            'inventories': {'DISK_GB': {'total': 10}}}},
         'allocations': {}}],
}

# Any schema of each API: a body drawn from another route's schema is one
# more kind of wrong body.
VOLUME_SCHEMAS = [
    getattr(module, name)
    for module in (attachment_schemas, snapshot_schemas, type_schemas,
                   action_schemas, volume_schemas, worker_schemas,
                   qos_schemas, backup_schemas, group_schemas,
                   manage_schemas, snapshot_manage_schemas)
    for name in dir(module)
    if not name.startswith('_') and isinstance(getattr(module, name), dict)]
PLACEMENT_SCHEMAS = [
    getattr(module, name)
    for module in (aggregate_schemas, allocation_schemas, inventory_schemas,
                   reshaper_schemas, rc_schemas, rp_schemas, trait_schemas)
    for name in dir(module)
    if name.isupper() and isinstance(getattr(module, name), dict)
    and 'type' in getattr(module, name)]


class Generator:
    """Hostile requests from ``rng`` (a random.Random); ``resources``
    gives the ids of what exists (``pick(kind)``)."""

    def __init__(self, rng, resources):
        self.rng = rng
        self.resources = resources

    def choice(self, items):
        return self.rng.choice(items)

    def chance(self, probability):
        return self.rng.random() < probability

    def weighted(self, pairs):
        """One of ``pairs`` (weight, value), by weight."""
        return self.rng.choices([value for _weight, value in pairs],
                                [weight for weight, _value in pairs])[0]

    def version(self, versions):
        valid, invalid = versions
        return self.choice(valid if self.chance(0.9) else invalid)

    # -- values ---------------------------------------------------------------
    def hostile_value(self, depth=0):
        roll = self.rng.random()
        if roll < 0.75 or depth > 2:
            return self.choice(HOSTILE_VALUES)
        if roll < 0.85:
            nested = 'x'
            for _ in range(self.rng.choice([10, 33, 40, 200])):
                nested = [nested] if self.chance(0.5) else {'a': nested}
            return nested
        if roll < 0.93:
            return [self.hostile_value(depth + 1)
                    for _ in range(self.rng.randint(0, 3))]
        return {self.choice(HOSTILE_TEXT[:40]): self.hostile_value(depth + 1)
                for _ in range(self.rng.randint(0, 3))}

    def filled(self, value):
        """``value`` with its <placeholders> replaced by resources."""
        if isinstance(value, str) and value.startswith('<') and \
                value.endswith('>'):
            return self.resources.pick(value[1:-1])
        if isinstance(value, dict):
            return {self.filled(k): self.filled(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.filled(v) for v in value]
        return value

    def from_schema(self, schema, depth=0):
        """A value roughly fitting ``schema`` (enough to get past the
        first checks, so mutations land deeper)."""
        if depth > 6 or not isinstance(schema, dict):
            return self.choice(HOSTILE_VALUES)
        for combinator in ('oneOf', 'anyOf'):
            if combinator in schema:
                return self.from_schema(self.choice(schema[combinator]),
                                        depth + 1)
        if 'enum' in schema:
            return self.choice(schema['enum'])
        kind = schema.get('type', 'object')
        if isinstance(kind, list):
            kind = self.choice(kind)
        if kind == 'object':
            result = {}
            properties = schema.get('properties', {})
            for name, sub in properties.items():
                if name in schema.get('required', ()) or self.chance(0.5):
                    result[name] = self.from_schema(sub, depth + 1)
            for pattern, sub in schema.get('patternProperties', {}).items():
                if self.chance(0.5):
                    result[self.choice(['DISK_GB', 'CUSTOM_FUZZ', 'k',
                                        self.resources.pick('rp_uuid')])] = \
                        self.from_schema(sub, depth + 1)
            return result
        if kind == 'array':
            items = schema.get('items', {})
            return [self.from_schema(items, depth + 1)
                    for _ in range(self.rng.randint(0, 3))]
        if kind == 'integer':
            low = schema.get('minimum', -10)
            high = schema.get('maximum', 10 ** 6)
            return self.choice([low, high, self.rng.randint(
                int(max(low, -10 ** 6)), int(min(high, 10 ** 6)))])
        if kind == 'number':
            return self.rng.uniform(-10, 10)
        if kind == 'boolean':
            return self.chance(0.5)
        if kind == 'null':
            return None
        if schema.get('format') == 'uuid' or 'uuid' in str(
                schema.get('pattern', '')).lower():
            return _uuid()
        return self.choice(['x', 'DISK_GB', 'CUSTOM_FUZZ', _uuid(), 'rw'])

    def mutated(self, value, mutations=None):
        """``value`` with one to three hostile changes somewhere inside."""
        for _ in range(mutations or self.rng.randint(1, 3)):
            value = self._mutate_once(value)
        return value

    def _mutate_once(self, value):
        if not isinstance(value, (dict, list)) or not value or \
                self.chance(0.15):
            return self.hostile_value()
        if isinstance(value, dict):
            value = dict(value)
            key = self.choice(list(value))
            roll = self.rng.random()
            if roll < 0.5:
                value[key] = self._mutate_once(value[key])
            elif roll < 0.65:
                del value[key]
            elif roll < 0.8:
                value[self.choice(HOSTILE_TEXT[:40])] = self.hostile_value()
            elif roll < 0.9:
                value[key] = [value[key]]
            else:
                value[self.choice(HOSTILE_TEXT[:30])] = value.pop(key)
            return value
        value = list(value)
        index = self.rng.randrange(len(value))
        value[index] = self._mutate_once(value[index])
        return value

    # -- requests -------------------------------------------------------------
    def body(self, examples, schemas):
        """(bytes or None, content type)."""
        roll = self.rng.random()
        if roll < 0.07:
            return None, self.choice(CONTENT_TYPES)
        if roll < 0.15:
            return self.choice(RAW_BODIES), self.choice(CONTENT_TYPES)
        if examples and roll < 0.8:
            value = self.filled(self.choice(examples))
            if self.chance(0.85):
                value = self.mutated(value)
        else:
            value = self.from_schema(self.choice(schemas))
            if self.chance(0.7):
                value = self.mutated(value)
        return self.json_text(value), self.choice(CONTENT_TYPES)

    def json_text(self, value):
        """``value`` as JSON bytes, mostly as json.dumps writes it; else
        with a duplicate key, a number json.dumps never writes, bytes that
        are not UTF-8 in a string, or in another encoding."""
        roll = self.rng.random()
        if roll < 0.75:
            return json.dumps(value).encode('ascii')
        if roll < 0.82:
            return self._with_duplicate_key(value).encode('ascii')
        text = json.dumps(value)
        if roll < 0.9:
            numbers = list(_NUMBER_TOKEN.finditer(text))
            if numbers:
                found = self.choice(numbers)
                text = (text[:found.start()] + self.choice(RAW_NUMBERS) +
                        text[found.end():])
            return text.encode('ascii')
        if roll < 0.95:
            strings = list(_STRING_TOKEN.finditer(text))
            raw = text.encode('ascii')
            if strings:
                # Inside the quotes of one string (ASCII: offsets agree).
                found = self.choice(strings)
                at = self.rng.randint(found.start() + 1, found.end() - 1)
                raw = raw[:at] + self.choice(NOT_UTF8) + raw[at:]
            return raw
        # 'replace': a lone surrogate has no encoding.
        return json.dumps(value, ensure_ascii=False).encode(
            self.choice(BODY_ENCODINGS), 'replace')

    def _with_duplicate_key(self, value):
        """JSON text of ``value`` with one key of an object in it written
        twice, the second time with a hostile value (the parser keeps the
        last)."""
        if isinstance(value, list):
            return '[%s]' % ', '.join(self._with_duplicate_key(item)
                                      for item in value)
        if not isinstance(value, dict) or not value:
            return json.dumps(value)
        pairs = list(value.items())
        index = self.rng.randrange(len(pairs))
        key, item = pairs[index]
        if isinstance(item, dict) and item and self.chance(0.5):
            written = [json.dumps(k) + ': ' + (
                self._with_duplicate_key(v) if k == key else json.dumps(v))
                for k, v in pairs]
        else:
            written = [json.dumps(k) + ': ' + json.dumps(v)
                       for k, v in pairs]
            duplicate = json.dumps(key) + ': ' + json.dumps(
                self.hostile_value())
            written.insert(self.rng.randint(0, len(written)), duplicate)
        return '{%s}' % ', '.join(written)

    def segment(self, kind):
        """A path item: an id of ``kind`` (maybe another tenant's), or
        something that is no id at all."""
        roll = self.rng.random()
        if roll < 0.6:
            return urllib.parse.quote(str(self.resources.pick(kind)),
                                      safe='')
        if roll < 0.75:
            return _uuid()
        return self.choice(HOSTILE_SEGMENTS)

    def query(self):
        if self.chance(0.5):
            return ''
        pairs = []
        for _ in range(self.rng.randint(1, 4)):
            key = self.choice(QUERY_KEYS)
            roll = self.rng.random()
            if roll < 0.3:
                value = self.resources.pick(self.choice(
                    ['volume_id', 'snapshot_id', 'attachment_id', 'rp_uuid',
                     'uuid', 'type_id', 'qos_id', 'backup_id', 'group_id',
                     'group_type_id', 'host']))
            elif roll < 0.5:
                value = self.structured_value()
            else:
                value = self.choice(HOSTILE_VALUES)
            if not isinstance(value, str):
                value = json.dumps(value)
            pairs.append(self._quoted(key) + '=' + self._quoted(value))
            if self.chance(0.1):
                # The key again: the same value, or a valid one (APIs
                # that check one of them and use the other).
                pairs.append(self.choice([
                    pairs[-1], self._quoted(key) + '=' + self.choice(
                        ['1', 'true', 'none', 'DISK_GB:1', 'name'])]))
        if self.chance(0.1):
            pairs.append(self.choice(['%zz', '=', '&&', 'a=%', '%00=1',
                                      'limit=%ED%A0%80', 'x' * 5000]))
        if self.chance(0.05):
            # Bytes that are no UTF-8, as a value or a key.
            junk = ''.join('%%%02X' % b for b in self.choice(NOT_UTF8))
            pairs.append(self.choice([
                self._quoted(self.choice(QUERY_KEYS)) + '=' + junk,
                junk + '=1']))
        return '?' + '&'.join(pairs)

    def structured_value(self):
        """A query value in one of placement's or Cinder's small
        languages, with a hostile part."""
        hostile = self.choice(HOSTILE_VALUES)
        hostile = hostile if isinstance(hostile, str) else json.dumps(hostile)
        rp = self.resources.pick('rp_uuid')
        return self.choice([
            'DISK_GB:%s' % hostile, 'VCPU:1,DISK_GB:%s' % hostile,
            '%s:1' % hostile, 'in:%s,%s' % (rp, hostile), '!%s' % hostile,
            'in:%s' % hostile, 'CUSTOM_FUZZ,!%s' % hostile,
            'name:%s' % hostile, 'size:%s' % hostile,
            '{"%s": "%s"}' % (hostile[:20], hostile[:20]),
            'created_at:%s,id' % hostile] + PYTHON_LITERALS)

    @staticmethod
    def _quoted(text):
        return urllib.parse.quote(
            text.encode('utf-8', 'surrogatepass'), safe='~:')

    def fill_path(self, template, kinds):
        """``template`` with its path items filled; an item the fuzzer
        has no kind for (a new route's) gets an unknown or hostile id."""
        path = template
        for item, kind in kinds.items():
            while item in path:
                path = path.replace(item, self.segment(kind), 1)
        return re.sub(r'\{[^}]*\}', lambda _m: self.segment('unknown'), path)
