"""Body of POST /workers/cleanup (Cinder's filters)."""
from volapi.api.schemas import parameter_types as types

cleanup = {
    'type': 'object',
    'properties': {
        'service_id': {'type': 'integer', 'minimum': 1,
                       'maximum': types.DB_MAX_INT},
        'host': types.optional_nonempty_text,
        'binary': types.optional_nonempty_text,
        'cluster_name': types.optional_nonempty_text,
        'is_up': types.optional_boolean,
        'disabled': types.optional_boolean,
        'resource_type': {'type': ['string', 'null'], 'minLength': 1,
                          'maxLength': 40},
        'resource_id': types.optional_hex_uuid,
    },
    'additionalProperties': False,
}
