"""Bodies of POST /backups, PUT /backups/{id}, POST /backups/{id}/restore
and the backup actions, by microversion as Cinder's."""
import copy

from volapi.api.schemas import parameter_types as types
from volapi.api.schemas import volume_actions

uuid = {'type': 'string', 'format': 'uuid'}

create = types.single_key('backup', {
    'type': 'object',
    'properties': {
        'volume_id': uuid,
        'container': types.optional_text,
        'description': types.description,
        'incremental': types.boolean,
        'force': types.boolean,
        'name': types.optional_name,
        'snapshot_id': types.optional_uuid,
    },
    'required': ['volume_id'],
    'additionalProperties': False,
})

# 3.43: metadata.
create_v343 = copy.deepcopy(create)
create_v343['properties']['backup']['properties']['metadata'] = \
    types.key_value_pairs_allow_null

# 3.51: the availability zone.
create_v351 = copy.deepcopy(create_v343)
create_v351['properties']['backup']['properties']['availability_zone'] = \
    types.optional_text

update = types.single_key('backup', {
    'type': ['object', 'null'],
    'properties': {
        'name': types.optional_name,
        'description': types.description,
    },
    'additionalProperties': False,
})

update_v343 = copy.deepcopy(update)
update_v343['properties']['backup']['properties']['metadata'] = \
    types.key_value_pairs

restore = types.single_key('restore', {
    'type': ['object', 'null'],
    'properties': {
        'name': types.optional_name,
        'volume_id': types.optional_uuid,
    },
    'additionalProperties': False,
})

# POST /backups/{id}/action arguments; the status is checked against
# transitions.BACKUP_RESET_STATUSES, lower-cased as Cinder does.
reset_status = {
    'type': 'object',
    'properties': {'status': {'type': 'string', 'minLength': 1,
                              'maxLength': 255}},
    'required': ['status'],
    'additionalProperties': False,
}

force_delete = volume_actions.no_arguments

# POST /backups/import_record (Cinder's; the URL's base64 is checked as it
# is decoded, with Cinder's messages).
import_record = types.single_key('backup-record', {
    'type': 'object',
    'properties': {
        'backup_service': {'type': 'string', 'minLength': 0,
                           'maxLength': 255},
        'backup_url': {'type': 'string', 'minLength': 1},
    },
    'required': ['backup_service', 'backup_url'],
    'additionalProperties': False,
})
