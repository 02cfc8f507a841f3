"""Bodies of POST /volumes/{id}/action, one schema per action (the value
under the action's key)."""
from volapi.api.schemas import parameter_types as types
from volapi.volume.transitions import table

uuid = {'type': 'string',
        'pattern': '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                   '[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$'}
optional_uuid = {'oneOf': [{'type': 'null'}, uuid]}

# os-reserve and friends take no arguments; cinderclient sends null.
no_arguments = {'type': ['null', 'object'], 'additionalProperties': False}

extend = {
    'type': 'object',
    'properties': {'new_size': types.volume_size},
    'required': ['new_size'],
    'additionalProperties': False,
}

attach = {
    'type': 'object',
    'properties': {
        'instance_uuid': uuid,
        'host_name': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'mountpoint': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'mode': {'type': 'string', 'enum': ['rw', 'ro']},
    },
    'required': ['mountpoint'],
    'anyOf': [{'required': ['instance_uuid']}, {'required': ['host_name']}],
    'additionalProperties': False,
}

detach = {
    'type': ['null', 'object'],
    'properties': {'attachment_id': optional_uuid},
    'additionalProperties': False,
}

reset_status = {
    'type': 'object',
    'properties': {
        'status': {'type': 'string',
                   'enum': list(table.RESET_STATUSES)},
        'attach_status': {'type': 'string',
                          'enum': list(table.RESET_ATTACH_STATUSES)},
        'migration_status': {
            'type': 'string',
            'enum': list(table.RESET_MIGRATION_STATUSES)},
    },
    'additionalProperties': False,
}

retype = {
    'type': 'object',
    'properties': {
        'new_type': {'type': 'string', 'minLength': 1, 'maxLength': 255},
        'migration_policy': {'type': ['string', 'null'],
                             'enum': ['on-demand', 'never', None]},
    },
    'required': ['new_type'],
    'additionalProperties': False,
}

# Before 3.16 the destination is required; from 3.16 it may be null (the
# scheduler chooses) and ``cluster`` may name it instead.
_MIGRATE_PROPERTIES = {
    'host': {'type': 'string', 'minLength': 1, 'maxLength': 255},
    'force_host_copy': types.boolean,
    'lock_volume': types.boolean,
}
migrate_volume = {
    'type': 'object',
    'properties': _MIGRATE_PROPERTIES,
    'required': ['host'],
    'additionalProperties': False,
}
migrate_volume_v316 = {
    'type': 'object',
    'properties': dict(
        _MIGRATE_PROPERTIES,
        host={'type': ['string', 'null'], 'maxLength': 255},
        cluster={'type': ['string', 'null'], 'maxLength': 255}),
    'additionalProperties': False,
}

migrate_volume_completion = {
    'type': 'object',
    'properties': {
        'new_volume': uuid,
        'error': {'type': ['string', 'null', 'boolean']},
    },
    'required': ['new_volume'],
    'additionalProperties': False,
}

update_readonly_flag = {
    'type': 'object',
    'properties': {'readonly': types.boolean},
    'required': ['readonly'],
    'additionalProperties': False,
}
