"""Bodies of POST /types, PUT /types/{id} and the extra specs."""
from volapi.api.schemas import parameter_types as types

create = types.single_key('volume_type', {
    'type': 'object',
    'properties': {
        'name': types.name,
        'description': types.description,
        'extra_specs': types.key_value_pairs_allow_null,
        'os-volume-type-access:is_public': types.boolean,
    },
    'required': ['name'],
    'additionalProperties': False,
})

update = types.single_key('volume_type', {
    'type': 'object',
    'properties': {
        'name': types.optional_name,
        'description': types.description,
        'is_public': types.boolean,
    },
    'additionalProperties': False,
})

extra_specs = types.single_key('extra_specs', types.key_value_pairs)

extra_spec_item = dict(types.key_value_pairs, minProperties=1,
                       maxProperties=1)

project_access = {'type': 'object',
                  'properties': {'project': types.name},
                  'required': ['project'],
                  'additionalProperties': False}
