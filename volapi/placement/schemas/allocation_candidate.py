"""Schemas of the GET /allocation_candidates query string, one per
microversion that changed it (``for_version`` picks)."""
import copy

from volapi.placement.schemas import common

GET_SCHEMA_1_10 = {
    'type': 'object',
    'properties': {'resources': {'type': 'string'}},
    'required': ['resources'],
    'additionalProperties': False,
}

GET_SCHEMA_1_16 = copy.deepcopy(GET_SCHEMA_1_10)
GET_SCHEMA_1_16['properties']['limit'] = {
    'type': ['integer', 'string'], 'pattern': '^[1-9][0-9]*$',
    'minimum': 1, 'minLength': 1}

GET_SCHEMA_1_17 = copy.deepcopy(GET_SCHEMA_1_16)
GET_SCHEMA_1_17['properties']['required'] = {'type': ['string']}

GET_SCHEMA_1_21 = copy.deepcopy(GET_SCHEMA_1_17)
GET_SCHEMA_1_21['properties']['member_of'] = {'type': ['string']}

# 1.25: granular groups; resources, required and member_of may carry a
# numeric suffix, and nothing is required any more (the handler checks).
GET_SCHEMA_1_25 = copy.deepcopy(GET_SCHEMA_1_21)
for _name in ('resources', 'required', 'member_of'):
    del GET_SCHEMA_1_25['properties'][_name]
del GET_SCHEMA_1_25['required']
_GROUP_KEY = '^%s(' + common.GROUP_PAT + ')?$'
GET_SCHEMA_1_25['patternProperties'] = {
    _GROUP_KEY % name: {'type': 'string'}
    for name in ('resources', 'required', 'member_of')}
GET_SCHEMA_1_25['properties']['group_policy'] = {
    'type': 'string', 'enum': ['none', 'isolate']}

GET_SCHEMA_1_31 = copy.deepcopy(GET_SCHEMA_1_25)
GET_SCHEMA_1_31['patternProperties'][_GROUP_KEY % 'in_tree'] = {
    'type': 'string'}

GET_SCHEMA_1_33 = copy.deepcopy(GET_SCHEMA_1_31)
_GROUP_KEY_1_33 = '^%s(' + common.GROUP_PAT_1_33 + ')?$'
GET_SCHEMA_1_33['patternProperties'] = {
    _GROUP_KEY_1_33 % name: {'type': 'string'}
    for name in ('resources', 'required', 'member_of', 'in_tree')}

GET_SCHEMA_1_35 = copy.deepcopy(GET_SCHEMA_1_33)
GET_SCHEMA_1_35['properties']['root_required'] = {'type': ['string']}

GET_SCHEMA_1_36 = copy.deepcopy(GET_SCHEMA_1_35)
GET_SCHEMA_1_36['properties']['same_subtree'] = {'type': ['string']}

_BY_VERSION = [((1, 36), GET_SCHEMA_1_36), ((1, 35), GET_SCHEMA_1_35),
               ((1, 33), GET_SCHEMA_1_33), ((1, 31), GET_SCHEMA_1_31),
               ((1, 25), GET_SCHEMA_1_25), ((1, 21), GET_SCHEMA_1_21),
               ((1, 17), GET_SCHEMA_1_17), ((1, 16), GET_SCHEMA_1_16)]


def for_version(version):
    for first, schema in _BY_VERSION:
        if version.matches(first):
            return schema
    return GET_SCHEMA_1_10
