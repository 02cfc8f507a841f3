"""Bodies of POST /qos-specs, PUT /qos-specs/{id} and its delete_keys,
as Cinder's schemas have them."""
from volapi.api.schemas import parameter_types as types

# Cinder's, with its oddity: a top-level "type" object is allowed (and
# ignored). The other keys of qos_specs are the keys of the spec, checked
# as Cinder checks them (volapi.api.v3.qos_specs).
create = {
    'type': 'object',
    'properties': {
        'type': {'type': 'object'},
        'qos_specs': {
            'type': 'object',
            'properties': {
                'name': {'type': 'string',
                         'format': 'name_skip_leading_trailing_spaces'},
            },
            'required': ['name'],
            'additionalProperties': True,
        },
    },
    'required': ['qos_specs'],
    'additionalProperties': False,
}

set_keys = types.single_key('qos_specs', {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. /]{1,255}$': {
            'type': ['string', 'null'], 'maxLength': 255},
    },
    'additionalProperties': False,
})

unset_keys = types.single_key('keys', {
    'type': 'array',
    'items': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'uniqueItems': True,
})
