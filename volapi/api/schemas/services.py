"""Bodies of PUT /os-services/enable, disable and disable-log-reason
(Cinder's)."""
import copy

from volapi.api.schemas import parameter_types as types

enable_and_disable = {
    'type': 'object',
    'properties': {
        'binary': types.name,
        'host': types.name,
        'cluster': types.optional_text,
        'service': types.name,
    },
    'anyOf': [{'required': ['binary']}, {'required': ['service']}],
    'additionalProperties': False,
}

disable_log_reason = copy.deepcopy(enable_and_disable)
# Not all spaces, as Cinder checks it.
disable_log_reason['properties']['disabled_reason'] = dict(
    types.name, pattern=r'\S')
