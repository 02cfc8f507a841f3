"""Schemas of allocation bodies: PUT /allocations/{consumer_uuid} and
POST /allocations, one per microversion that changed them.

They follow Placement's, with one difference: amounts and generations are
bounded by what an integer column holds, so a huge number is a 400 here
rather than a database error.
"""
import copy

from volapi.placement.schemas import common

AMOUNT = {'type': 'integer', 'minimum': 1, 'maximum': common.MAX_INT}
GENERATION = {'type': 'integer', 'minimum': -common.MAX_INT - 1,
              'maximum': common.MAX_INT}
OWNER_ID = {'type': 'string', 'minLength': 1, 'maxLength': 255}

RESOURCES = {
    'type': 'object',
    'minProperties': 1,
    'patternProperties': {common.RC_PATTERN: AMOUNT},
    'additionalProperties': False,
}

# 1.0-1.7: a list of {"resource_provider": {"uuid"}, "resources"}.
ALLOCATION_SCHEMA = {
    'type': 'object',
    'properties': {
        'allocations': {
            'type': 'array',
            'minItems': 1,
            'items': {
                'type': 'object',
                'properties': {
                    'resource_provider': {
                        'type': 'object',
                        'properties': {
                            'uuid': {'type': 'string', 'format': 'uuid'},
                        },
                        'additionalProperties': False,
                        'required': ['uuid'],
                    },
                    'resources': RESOURCES,
                },
                'required': ['resource_provider', 'resources'],
                'additionalProperties': False,
            },
        },
    },
    'required': ['allocations'],
    'additionalProperties': False,
}

# 1.8-1.11: project and user required.
ALLOCATION_SCHEMA_V1_8 = copy.deepcopy(ALLOCATION_SCHEMA)
ALLOCATION_SCHEMA_V1_8['properties']['project_id'] = OWNER_ID
ALLOCATION_SCHEMA_V1_8['properties']['user_id'] = OWNER_ID
ALLOCATION_SCHEMA_V1_8['required'].extend(['project_id', 'user_id'])

# 1.12-1.27: the dict form of GET /allocations/{consumer_uuid}.
ALLOCATION_SCHEMA_V1_12 = {
    'type': 'object',
    'properties': {
        'allocations': {
            'type': 'object',
            'minProperties': 1,
            'patternProperties': {
                common.UUID_PATTERN: {
                    'type': 'object',
                    'properties': {
                        # As GET shows it; ignored.
                        'generation': GENERATION,
                        'resources': RESOURCES,
                    },
                    'required': ['resources'],
                    'additionalProperties': False,
                },
            },
            'additionalProperties': False,
        },
        'project_id': OWNER_ID,
        'user_id': OWNER_ID,
    },
    'additionalProperties': False,
    'required': ['allocations', 'project_id', 'user_id'],
}

# POST /allocations (1.13): the 1.12 form keyed by consumer uuid, where
# empty allocations remove the consumer's.
DELETABLE_ALLOCATIONS = copy.deepcopy(ALLOCATION_SCHEMA_V1_12)
DELETABLE_ALLOCATIONS['properties']['allocations']['minProperties'] = 0


def _keyed_by_consumer(per_consumer):
    return {
        'type': 'object',
        'minProperties': 1,
        'additionalProperties': False,
        'patternProperties': {common.UUID_PATTERN: per_consumer},
    }


POST_ALLOCATIONS_V1_13 = _keyed_by_consumer(DELETABLE_ALLOCATIONS)

# 1.28: consumer_generation required (null for a new consumer); PUT may
# then be empty, which removes the allocations.
ALLOCATION_SCHEMA_V1_28 = copy.deepcopy(DELETABLE_ALLOCATIONS)
ALLOCATION_SCHEMA_V1_28['properties']['consumer_generation'] = dict(
    GENERATION, type=['integer', 'null'])
ALLOCATION_SCHEMA_V1_28['required'].append('consumer_generation')
POST_ALLOCATIONS_V1_28 = _keyed_by_consumer(ALLOCATION_SCHEMA_V1_28)

# 1.34: optional mappings of request group suffixes to providers (accepted,
# not stored, as in Placement).
GROUP_SUFFIX_PATTERN = r'[a-zA-Z0-9_-]{1,64}'
MAPPINGS = {
    'type': 'object',
    'patternProperties': {
        GROUP_SUFFIX_PATTERN: {
            'type': 'array',
            'minItems': 1,
            'items': {'type': 'string', 'format': 'uuid'},
        },
    },
}
ALLOCATION_SCHEMA_V1_34 = copy.deepcopy(ALLOCATION_SCHEMA_V1_28)
ALLOCATION_SCHEMA_V1_34['properties']['mappings'] = MAPPINGS
POST_ALLOCATIONS_V1_34 = _keyed_by_consumer(ALLOCATION_SCHEMA_V1_34)

# 1.38: consumer_type required.
ALLOCATION_SCHEMA_V1_38 = copy.deepcopy(ALLOCATION_SCHEMA_V1_34)
ALLOCATION_SCHEMA_V1_38['properties']['consumer_type'] = {
    'type': 'string',
    'pattern': common.CONSUMER_TYPE_PATTERN,
    'minLength': 1,
    'maxLength': 255,
}
ALLOCATION_SCHEMA_V1_38['required'].append('consumer_type')
POST_ALLOCATIONS_V1_38 = _keyed_by_consumer(ALLOCATION_SCHEMA_V1_38)

# (first version, PUT schema, POST schema), newest first.
BY_VERSION = [
    ((1, 38), ALLOCATION_SCHEMA_V1_38, POST_ALLOCATIONS_V1_38),
    ((1, 34), ALLOCATION_SCHEMA_V1_34, POST_ALLOCATIONS_V1_34),
    ((1, 28), ALLOCATION_SCHEMA_V1_28, POST_ALLOCATIONS_V1_28),
    ((1, 13), ALLOCATION_SCHEMA_V1_12, POST_ALLOCATIONS_V1_13),
    ((1, 12), ALLOCATION_SCHEMA_V1_12, None),
    ((1, 8), ALLOCATION_SCHEMA_V1_8, None),
    ((1, 0), ALLOCATION_SCHEMA, None),
]


def put_schema(version):
    return next(put for first, put, _ in BY_VERSION
                if version.matches(first))


def post_schema(version):
    return next(post for first, _, post in BY_VERSION
                if version.matches(first))
