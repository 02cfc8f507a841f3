"""Schemas of inventory bodies."""
import copy

from volapi.placement.schemas import common

BASE_INVENTORY_SCHEMA = {
    'type': 'object',
    'properties': {
        'resource_provider_generation': {'type': 'integer'},
        'total': {'type': 'integer', 'maximum': common.MAX_INT,
                  'minimum': 1},
        'reserved': {'type': 'integer', 'maximum': common.MAX_INT,
                     'minimum': 0},
        'min_unit': {'type': 'integer', 'maximum': common.MAX_INT,
                     'minimum': 1},
        'max_unit': {'type': 'integer', 'maximum': common.MAX_INT,
                     'minimum': 1},
        'step_size': {'type': 'integer', 'maximum': common.MAX_INT,
                      'minimum': 1},
        'allocation_ratio': {'type': 'number',
                             'maximum': common.SQL_SP_FLOAT_MAX},
    },
    'required': ['total', 'resource_provider_generation'],
    'additionalProperties': False,
}

POST_INVENTORY_SCHEMA = copy.deepcopy(BASE_INVENTORY_SCHEMA)
POST_INVENTORY_SCHEMA['properties']['resource_class'] = {
    'type': 'string', 'pattern': common.RC_PATTERN}
POST_INVENTORY_SCHEMA['required'].append('resource_class')
POST_INVENTORY_SCHEMA['required'].remove('resource_provider_generation')

PUT_INVENTORY_RECORD_SCHEMA = copy.deepcopy(BASE_INVENTORY_SCHEMA)
PUT_INVENTORY_RECORD_SCHEMA['required'].remove(
    'resource_provider_generation')
PUT_INVENTORY_SCHEMA = {
    'type': 'object',
    'properties': {
        'resource_provider_generation': {'type': 'integer'},
        'inventories': {
            'type': 'object',
            'patternProperties': {
                common.RC_PATTERN: PUT_INVENTORY_RECORD_SCHEMA,
            },
            # Other names fail later as unknown classes (Placement's
            # message), but their bodies are checked all the same.
            'additionalProperties': PUT_INVENTORY_RECORD_SCHEMA,
        },
    },
    'required': ['resource_provider_generation', 'inventories'],
    'additionalProperties': False,
}
