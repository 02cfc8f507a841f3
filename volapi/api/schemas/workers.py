"""Body of POST /workers/cleanup (Cinder's filters)."""
from volapi.api.schemas import parameter_types as types
from volapi.api.schemas import volume_actions

cleanup = {
    'type': 'object',
    'properties': {
        'service_id': {'type': 'integer', 'minimum': 1,
                       'maximum': types.DB_MAX_INT},
        'host': {'type': ['string', 'null'], 'minLength': 1,
                 'maxLength': 255},
        'binary': {'type': ['string', 'null'], 'minLength': 1,
                   'maxLength': 255},
        'cluster_name': {'type': ['string', 'null'], 'minLength': 1,
                         'maxLength': 255},
        'is_up': types.optional_boolean,
        'disabled': types.optional_boolean,
        'resource_type': {'type': ['string', 'null'], 'minLength': 1,
                          'maxLength': 40},
        'resource_id': volume_actions.optional_uuid,
    },
    'additionalProperties': False,
}
