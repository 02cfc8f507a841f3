"""Bodies of PUT /clusters/enable and /clusters/disable (Cinder's)."""
from volapi.api.schemas import parameter_types as types

enable_cluster = {
    'type': 'object',
    'properties': {
        'name': types.name,
        'binary': types.optional_text,
    },
    'required': ['name'],
    'additionalProperties': False,
}

disable_cluster = {
    'type': 'object',
    'properties': dict(enable_cluster['properties'],
                       disabled_reason=types.optional_text),
    'required': ['name'],
    'additionalProperties': False,
}
