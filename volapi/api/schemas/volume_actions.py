"""Bodies of POST /volumes/{id}/action, one schema per action (the value
under the action's key)."""
from volapi.api.schemas import parameter_types as types
from volapi.volume.transitions import table

# os-reserve and friends take no arguments; cinderclient sends null.
no_arguments = {'type': ['null', 'object'], 'additionalProperties': False}

extend = types.single_key('new_size', types.volume_size)

attach = {
    'type': 'object',
    'properties': {
        'instance_uuid': types.hex_uuid,
        'host_name': types.name,
        'mountpoint': types.name,
        'mode': {'type': 'string', 'enum': ['rw', 'ro']},
    },
    'required': ['mountpoint'],
    'anyOf': [{'required': ['instance_uuid']}, {'required': ['host_name']}],
    'additionalProperties': False,
}

detach = {
    'type': ['null', 'object'],
    'properties': {'attachment_id': types.optional_hex_uuid},
    'additionalProperties': False,
}

# Cinder's, but a connector must be an object (a string would reach the
# driver as one).
initialize_connection = types.single_key('connector', {'type': 'object'})
terminate_connection = types.single_key('connector',
                                        {'type': ['object', 'null']})

# Cinder's: any attachment id (one the volume does not have settles its
# statuses), and a connector that volapi does not need (it terminates the
# connection it recorded).
force_detach = {
    'type': 'object',
    'properties': {
        'connector': {'type': ['string', 'object', 'null']},
        'attachment_id': {'type': ['string', 'null']},
    },
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
        'new_type': types.name,
        'migration_policy': {'type': ['string', 'null'],
                             'enum': ['on-demand', 'never', None]},
    },
    'required': ['new_type'],
    'additionalProperties': False,
}

# Before 3.16 the destination is required; from 3.16 it may be null (the
# scheduler chooses) and ``cluster`` may name it instead.
_MIGRATE_PROPERTIES = {
    'host': types.name,
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
        'new_volume': types.hex_uuid,
        'error': types.optional_boolean,
    },
    'required': ['new_volume'],
    'additionalProperties': False,
}

update_readonly_flag = types.single_key('readonly', types.boolean)
set_bootable = types.single_key('bootable', types.boolean)


# Image metadata (os-set_image_metadata ...): keys as other metadata's,
# values image properties of up to 64 KiB.
image_metadata = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. /]{1,255}$': {'type': 'string',
                                       'format': 'mysql_text'},
    },
    'additionalProperties': False,
}

set_image_metadata = types.single_key('metadata', image_metadata)

unset_image_metadata = types.single_key('key', types.name)

# Cinder takes any value (cinderclient sends null).
show_image_metadata = {}

# revert (3.40): as Cinder's, other keys ignored; a missing or null
# snapshot_id is refused as not the latest snapshot.
revert = {'type': 'object',
          'properties': {'snapshot_id': {'type': ['string', 'null'],
                                         'maxLength': 255}}}
