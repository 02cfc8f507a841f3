"""Bodies of the group type, group spec and group requests (Cinder's
schemas group_types, group_specs and groups)."""
from volapi.api.schemas import parameter_types as types

# Cinder's group_specs_with_no_spaces_key_and_value_null.
_group_specs = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:.]{1,255}$': {'type': ['string', 'null'],
                                     'maxLength': 255},
    },
    'additionalProperties': False,
}

type_create = types.single_key('group_type', {
    'type': 'object',
    'properties': {
        'name': types.name,
        'description': types.description,
        'is_public': types.boolean,
        'group_specs': dict(_group_specs, type=['object', 'null']),
    },
    'required': ['name'],
    'additionalProperties': False,
})

type_update = types.single_key('group_type', {
    'type': 'object',
    'properties': {
        'name': types.optional_name,
        'description': types.description,
        'is_public': types.boolean,
    },
    'additionalProperties': False,
})

specs_create = types.single_key('group_specs', _group_specs)

spec_update = dict(_group_specs, minProperties=1, maxProperties=1)

create = types.single_key('group', {
    'type': 'object',
    'properties': {
        'description': types.description,
        'group_type': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'name': types.optional_name,
        'volume_types': {
            'type': 'array', 'minItems': 1,
            'items': {'type': 'string', 'minLength': 1, 'maxLength': 255},
            'uniqueItems': True,
        },
        'availability_zone': types.availability_zone,
    },
    'required': ['group_type', 'volume_types'],
    'additionalProperties': False,
})

update = types.single_key('group', {
    'type': 'object',
    'properties': {
        'description': types.description,
        'name': types.optional_name,
        # A comma-separated list of volume ids each (Cinder's text field).
        'add_volumes': types.description,
        'remove_volumes': types.description,
    },
    'anyOf': [{'required': ['name']}, {'required': ['description']},
              {'required': ['add_volumes']},
              {'required': ['remove_volumes']}],
    'additionalProperties': False,
})

# POST /groups/{id}/action: the argument of each action.
delete = {
    'type': 'object',
    'properties': {'delete-volumes': types.boolean},
    'additionalProperties': False,
}

reset_status = {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255}},
    'required': ['status'],
    'additionalProperties': False,
}
