"""Building blocks of the body schemas (Cinder's parameter_types)."""

DB_MAX_INT = 0x7FFFFFFF

name = {'type': 'string', 'minLength': 1, 'maxLength': 255}

# Text of a column (255 characters), or null; the second not ''.
optional_text = {'type': ['string', 'null'], 'minLength': 0,
                 'maxLength': 255}
optional_nonempty_text = {'type': ['string', 'null'], 'minLength': 1,
                          'maxLength': 255}

optional_name = optional_text

description = optional_text

optional_uuid = {'oneOf': [{'type': 'null'},
                           {'type': 'string', 'format': 'uuid'}]}

# A UUID with or without its dashes, checked by pattern (as Cinder's
# actions and attachments do).
hex_uuid = {'type': 'string',
            'pattern': '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                       '[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$'}
optional_hex_uuid = {'oneOf': [{'type': 'null'}, hex_uuid]}

boolean = {'type': ['boolean', 'string'],
           'enum': [True, 'True', 'TRUE', 'true', '1', 'ON', 'On', 'on',
                    'YES', 'Yes', 'yes', 'y', 't',
                    False, 'False', 'FALSE', 'false', '0', 'OFF', 'Off',
                    'off', 'NO', 'No', 'no', 'n', 'f']}

optional_boolean = {'oneOf': [{'type': 'null'}, boolean]}

volume_size = {'type': ['integer', 'string'], 'pattern': '^[0-9]+$',
               'minimum': 1, 'maximum': DB_MAX_INT}

volume_size_allows_null = dict(volume_size,
                               type=['integer', 'string', 'null'])

# Keys and values of metadata and extra specs.
key_value_pairs = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. /]{1,255}$': {'type': 'string', 'maxLength': 255},
    },
    'additionalProperties': False,
}

key_value_pairs_allow_null = dict(key_value_pairs, type=['object', 'null'])

availability_zone = optional_nonempty_text


def single_key(key, schema):
    """An object holding ``key`` (as ``schema``) and nothing else."""
    return {'type': 'object', 'properties': {key: schema},
            'required': [key], 'additionalProperties': False}
