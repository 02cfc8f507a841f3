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
                'volume_type': {'type': ['string', 'null'], 'minLength': 0,
                                'maxLength': 255},
                'metadata': types.key_value_pairs_allow_null,
                'snapshot_id': types.optional_uuid,
                'source_volid': types.optional_uuid,
                'consistencygroup_id': types.optional_uuid,
                'size': types.volume_size_allows_null,
                'availability_zone': types.availability_zone,
                'multiattach': types.optional_boolean,
                'image_id': {'type': ['string', 'null'], 'minLength': 0,
                             'maxLength': 255},
                'imageRef': {'type': ['string', 'null'], 'minLength': 0,
                             'maxLength': 255},
                'group_id': {'type': ['string', 'null'], 'minLength': 0,
                             'maxLength': 255},
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

update = {
    'type': 'object',
    'properties': {
        'volume': {
            'type': 'object',
            'properties': {
                'name': types.optional_name,
                'description': types.description,
                'display_name': types.optional_name,
                'display_description': types.description,
                'metadata': types.key_value_pairs,
            },
            'additionalProperties': False,
        },
    },
    'required': ['volume'],
    'additionalProperties': False,
}

update_v353 = copy.deepcopy(update)
update_v353['properties']['volume']['anyOf'] = [
    {'required': ['name']}, {'required': ['description']},
    {'required': ['display_name']}, {'required': ['display_description']},
    {'required': ['metadata']}]

metadata = {
    'type': 'object',
    'properties': {'metadata': types.key_value_pairs},
    'required': ['metadata'],
    'additionalProperties': False,
}

metadata_item = {
    'type': 'object',
    'properties': {
        'meta': dict(types.key_value_pairs, minProperties=1,
                     maxProperties=1),
    },
    'required': ['meta'],
    'additionalProperties': False,
}
