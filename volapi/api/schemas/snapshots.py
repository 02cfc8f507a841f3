"""Bodies of POST /snapshots and PUT /snapshots/{id}."""
from volapi.api.schemas import parameter_types as types
from volapi.api.schemas import volume_actions

create = types.single_key('snapshot', {
    'type': 'object',
    'properties': {
        'volume_id': types.hex_uuid,
        'force': types.boolean,
        'name': types.optional_name,
        'display_name': types.optional_name,
        'description': types.description,
        'display_description': types.description,
        'metadata': types.key_value_pairs_allow_null,
    },
    'required': ['volume_id'],
    'additionalProperties': False,
})

update = types.single_key('snapshot', {
    'type': 'object',
    'properties': {
        'name': types.optional_name,
        'display_name': types.optional_name,
        'description': types.description,
        'display_description': types.description,
    },
    'anyOf': [{'required': ['name']},
              {'required': ['display_name']},
              {'required': ['description']},
              {'required': ['display_description']}],
    'additionalProperties': False,
})

# POST /snapshots/{id}/action arguments. The status is checked, in any
# case, against transitions.SNAPSHOT_RESET_STATUSES by the controller, as
# Cinder lower-cases it.
reset_status = {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255}},
    'required': ['status'],
    'additionalProperties': False,
}

force_delete = volume_actions.no_arguments

# os-unmanage: Cinder's schema takes any value.
unmanage = {}

# os-update_snapshot_status: a status, and a progress "<0-100>%" as
# Cinder's 'progress' format.
update_snapshot_status = {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255},
                   'progress': {'type': 'string',
                                'pattern': '^(100|[1-9]?[0-9])%$'}},
    'required': ['status'],
    'additionalProperties': False,
}
