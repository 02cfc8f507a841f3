"""Bodies of PUT /os-services/enable, disable, disable-log-reason,
get-log and set-log (Cinder's)."""
import copy

from volapi import log_levels
from volapi.api.schemas import parameter_types as types
from volapi.volume import service_logs

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

get_log = {
    'type': 'object',
    'properties': {
        'binary': {'type': ['string', 'null'],
                   'enum': ['', None] + list(service_logs.BINARIES)},
        'server': types.optional_text,
        'prefix': types.optional_text,
    },
    'additionalProperties': False,
}

set_log = copy.deepcopy(get_log)
set_log['properties']['level'] = {
    'type': 'string',
    'pattern': '^(?i:%s)$' % '|'.join(log_levels.LEVELS)}
set_log['required'] = ['level']

# Cinder's cinder_host: host, host@backend or host@backend#pool.
_host = {'type': ['string', 'null'], 'minLength': 1, 'maxLength': 255}

freeze_and_thaw = {
    'type': 'object',
    'properties': {
        'cluster': types.optional_text,
        'host': _host,
    },
    'additionalProperties': False,
}

failover_host = copy.deepcopy(freeze_and_thaw)
failover_host['properties']['backend_id'] = types.optional_text
