"""Body of POST /types."""
from volapi.api.schemas import parameter_types as types

create = {
    'type': 'object',
    'properties': {
        'volume_type': {
            'type': 'object',
            'properties': {
                'name': types.name,
                'description': types.description,
                'extra_specs': types.key_value_pairs_allow_null,
                'os-volume-type-access:is_public': types.boolean,
            },
            'required': ['name'],
            'additionalProperties': False,
        },
    },
    'required': ['volume_type'],
    'additionalProperties': False,
}
