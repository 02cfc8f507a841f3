"""Bodies of the attachments API (3.27+)."""
from volapi.api.schemas import parameter_types as types

# os-brick's connector properties: text, flags, small numbers, lists of
# text (wwpns...). host and mountpoint are written to columns of their own;
# the whole connector to a TEXT column (64 KiB on MySQL).
_connector_text = {'type': ['string', 'null'], 'maxLength': 255}
_connector_value = {'anyOf': [
    _connector_text,
    {'type': 'boolean'},
    {'type': 'integer', 'minimum': -types.DB_MAX_INT,
     'maximum': types.DB_MAX_INT},
    {'type': 'array', 'maxItems': 64, 'items': _connector_text},
]}
connector = {
    'type': 'object',
    'properties': {
        'host': _connector_text,
        'mountpoint': _connector_text,
        'mode': {'type': ['string', 'null'], 'enum': ['rw', 'ro', None]},
    },
    'patternProperties': {'^.{1,255}$': _connector_value},
    'additionalProperties': False,
    'maxSerializedLength': 16384,
}

create = types.single_key('attachment', {
    'type': 'object',
    'properties': {
        'volume_uuid': types.hex_uuid,
        'instance_uuid': types.hex_uuid,
        'connector': {'oneOf': [{'type': 'null'}, connector]},
        'mode': {'type': 'string', 'enum': ['rw', 'ro']},
    },
    'required': ['volume_uuid', 'instance_uuid'],
    'additionalProperties': False,
})

update = types.single_key('attachment', {
    'type': 'object',
    'properties': {'connector': connector},
    'required': ['connector'],
    'additionalProperties': False,
})

# POST /attachments/{id}/action: {"os-complete": <anything>}. Cinder
# validates no value: openstacksdk sends the attachment's id, others null.
complete = {}
