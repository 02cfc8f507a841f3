"""Body of POST /manageable_volumes and /os-volume-manage (Cinder's
volume_manage schema; ``cluster`` from 3.16)."""
import copy

from volapi.api.schemas import parameter_types as types

# Cinder's cinder_host: host, host@backend or host@backend#pool.
_host = {'type': ['string', 'null'], 'minLength': 1, 'maxLength': 255}

create = types.single_key('volume', {
    'type': 'object',
    'properties': {
        'description': types.description,
        'availability_zone': types.optional_text,
        'bootable': types.boolean,
        'volume_type': types.optional_text,
        'name': types.optional_text,
        'host': _host,
        'ref': {'type': ['object', 'string']},
        'metadata': types.key_value_pairs_allow_null,
    },
    'required': ['ref'],
    'additionalProperties': False,
})

create_v316 = copy.deepcopy(create)
create_v316['properties']['volume']['properties']['cluster'] = {
    'type': ['string', 'null'], 'minLength': 0, 'maxLength': 255}
