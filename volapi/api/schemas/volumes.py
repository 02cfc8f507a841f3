"""Bodies of POST /volumes and PUT /volumes/{id}.

Before 3.53 Cinder ignored unknown keys in a create and accepted an update
naming no field; from 3.53 both are refused.
"""
import copy

from volapi.api.schemas import parameter_types as types

create = {
    'type': 'object',
    'properties': {
        'volume': {
            'type': 'object',
            'properties': {
                'name': types.optional_name,
                'description': types.description,
                'display_name': types.optional_name,
                'display_description': types.description,
                'volume_type': types.optional_text,
                'metadata': types.key_value_pairs_allow_null,
                'snapshot_id': types.optional_uuid,
                'source_volid': types.optional_uuid,
                'consistencygroup_id': types.optional_uuid,
                'size': types.volume_size_allows_null,
                'availability_zone': types.availability_zone,
                'multiattach': types.optional_boolean,
                'image_id': types.optional_text,
                'imageRef': types.optional_text,
                'group_id': types.optional_text,
                'backup_id': types.optional_uuid,
            },
            'additionalProperties': True,
        },
        'OS-SCH-HNT:scheduler_hints': {'type': ['object', 'null']},
    },
    'required': ['volume'],
    'additionalProperties': False,
}

create_v353 = copy.deepcopy(create)
create_v353['properties']['volume']['additionalProperties'] = False

update = types.single_key('volume', {
    'type': 'object',
    'properties': {
        'name': types.optional_name,
        'description': types.description,
        'display_name': types.optional_name,
        'display_description': types.description,
        'metadata': types.key_value_pairs,
    },
    'additionalProperties': False,
})

update_v353 = copy.deepcopy(update)
update_v353['properties']['volume']['anyOf'] = [
    {'required': ['name']}, {'required': ['description']},
    {'required': ['display_name']}, {'required': ['display_description']},
    {'required': ['metadata']}]

metadata = types.single_key('metadata', types.key_value_pairs)

metadata_item = types.single_key('meta', dict(
    types.key_value_pairs, minProperties=1, maxProperties=1))
