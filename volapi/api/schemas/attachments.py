"""Bodies of the attachments API (3.27+)."""
from volapi.api.schemas import volume_actions

connector = {'type': 'object'}

create = {
    'type': 'object',
    'properties': {
        'attachment': {
            'type': 'object',
            'properties': {
                'volume_uuid': volume_actions.uuid,
                'instance_uuid': volume_actions.uuid,
                'connector': {'type': ['object', 'null']},
                'mode': {'type': 'string', 'enum': ['rw', 'ro']},
            },
            'required': ['volume_uuid', 'instance_uuid'],
            'additionalProperties': False,
        },
    },
    'required': ['attachment'],
    'additionalProperties': False,
}

update = {
    'type': 'object',
    'properties': {
        'attachment': {
            'type': 'object',
            'properties': {'connector': connector},
            'required': ['connector'],
            'additionalProperties': False,
        },
    },
    'required': ['attachment'],
    'additionalProperties': False,
}

# POST /attachments/{id}/action: {"os-complete": null}
complete = {'type': ['null', 'object'], 'additionalProperties': False}
