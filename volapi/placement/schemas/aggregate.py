"""Schemas of provider aggregate bodies."""
import copy

_AGGREGATES_LIST_SCHEMA = {
    'type': 'array',
    # At most 36 characters: the column's width (Placement would fail on a
    # braced or urn: form, which its uuid check otherwise lets through).
    'items': {'type': 'string', 'format': 'uuid', 'maxLength': 36},
    'uniqueItems': True,
}

PUT_AGGREGATES_SCHEMA_V1_1 = copy.deepcopy(_AGGREGATES_LIST_SCHEMA)

PUT_AGGREGATES_SCHEMA_V1_19 = {
    'type': 'object',
    'properties': {
        'aggregates': copy.deepcopy(_AGGREGATES_LIST_SCHEMA),
        'resource_provider_generation': {'type': 'integer'},
    },
    'required': ['aggregates', 'resource_provider_generation'],
    'additionalProperties': False,
}
