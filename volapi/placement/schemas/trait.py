"""Schemas of trait bodies and query strings."""
import copy

from volapi.placement.schemas import common

TRAIT = {'type': 'string', 'minLength': 1, 'maxLength': 255}

CUSTOM_TRAIT = copy.deepcopy(TRAIT)
CUSTOM_TRAIT['pattern'] = common.CUSTOM_TRAIT_PATTERN

PUT_TRAITS_SCHEMA = {
    'type': 'object',
    'properties': {
        'traits': {'type': 'array', 'items': CUSTOM_TRAIT},
    },
    'required': ['traits'],
    'additionalProperties': False,
}

SET_TRAITS_FOR_RP_SCHEMA = copy.deepcopy(PUT_TRAITS_SCHEMA)
SET_TRAITS_FOR_RP_SCHEMA['properties']['traits']['items'] = TRAIT
SET_TRAITS_FOR_RP_SCHEMA['properties']['resource_provider_generation'] = {
    'type': 'integer'}
SET_TRAITS_FOR_RP_SCHEMA['required'].append('resource_provider_generation')

LIST_TRAIT_SCHEMA = {
    'type': 'object',
    'properties': {
        'name': {'type': 'string'},
        'associated': {'type': 'string'},
    },
    'additionalProperties': False,
}
