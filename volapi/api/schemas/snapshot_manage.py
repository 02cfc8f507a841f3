"""Body of POST /manageable_snapshots and /os-snapshot-manage (Cinder's
snapshot_manage schema)."""
from volapi.api.schemas import parameter_types as types

create = types.single_key('snapshot', {
    'type': 'object',
    'properties': {
        'description': types.description,
        'metadata': types.key_value_pairs_allow_null,
        'name': types.optional_name,
        'volume_id': types.hex_uuid,
        'ref': {'type': ['object', 'null', 'string']},
    },
    'required': ['ref', 'volume_id'],
    'additionalProperties': False,
})
