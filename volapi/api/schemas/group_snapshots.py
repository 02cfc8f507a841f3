"""Bodies of the group snapshot requests (Cinder's group_snapshots
schemas) and of the group create-from-src action."""
from volapi.api.schemas import parameter_types as types

_uuid = {'type': 'string', 'format': 'uuid'}

create = types.single_key('group_snapshot', {
    'type': 'object',
    'properties': {
        'group_id': _uuid,
        'name': types.optional_name,
        'description': types.description,
    },
    'required': ['group_id'],
    'additionalProperties': False,
})

reset_status = {
    'type': 'object',
    'properties': {
        'status': {'type': 'string', 'maxLength': 255},
    },
    'required': ['status'],
    'additionalProperties': False,
}

create_from_src = types.single_key('create-from-src', {
    'type': 'object',
    'properties': {
        'description': types.description,
        'name': types.optional_name,
        'source_group_id': _uuid,
        'group_snapshot_id': _uuid,
    },
    'oneOf': [{'required': ['group_snapshot_id']},
              {'required': ['source_group_id']}],
    'additionalProperties': False,
})
