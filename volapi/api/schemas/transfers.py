"""Bodies of POST /volume-transfers (os-volume-transfer) and of .../accept,
as Cinder's api/schemas/volume_transfer.py."""
from volapi.api.schemas import parameter_types as types

_NAME = {'oneOf': [{'type': 'string',
                    'format': 'name_skip_leading_trailing_spaces'},
                   {'type': 'null'}]}
_UUID = {'type': 'string', 'format': 'uuid'}


def _create(**more):
    return types.single_key('transfer', {
        'type': 'object',
        'properties': dict({'volume_id': _UUID, 'name': _NAME}, **more),
        'required': ['volume_id'],
        'additionalProperties': False,
    })


create = _create()
# 3.55: the volume may be given without its snapshots.
create_v355 = _create(no_snapshots=types.boolean)

accept = types.single_key('accept', {
    'type': 'object',
    'properties': {'auth_key': {'type': ['string', 'integer']}},
    'required': ['auth_key'],
    'additionalProperties': False,
})
