"""Schemas of usage query strings."""
import copy

from volapi.placement.schemas import common

GET_USAGES_SCHEMA_1_9 = {
    'type': 'object',
    'properties': {
        'project_id': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'user_id': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    },
    'required': ['project_id'],
    'additionalProperties': False,
}

# 1.38: usages grouped by consumer type, optionally filtered by one.
GET_USAGES_SCHEMA_V1_38 = copy.deepcopy(GET_USAGES_SCHEMA_1_9)
GET_USAGES_SCHEMA_V1_38['properties']['consumer_type'] = {
    'type': 'string', 'pattern': common.CONSUMER_TYPE_GET_PATTERN,
    'minLength': 1, 'maxLength': 255}
