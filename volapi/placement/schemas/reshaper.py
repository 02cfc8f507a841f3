"""Schema of POST /reshaper (1.30): the inventories of each provider as
PUT .../inventories takes them, and allocations as POST /allocations takes
them (possibly none)."""
import copy

from volapi.placement.schemas import allocation
from volapi.placement.schemas import common
from volapi.placement.schemas import inventory


def _reshaper_schema(post_allocations):
    allocations = copy.deepcopy(post_allocations)
    # Nothing may be allocated (now) of the inventory being moved.
    allocations['minProperties'] = 0
    return {
        'type': 'object',
        'properties': {
            'inventories': {
                'type': 'object',
                'patternProperties': {
                    common.UUID_PATTERN: inventory.PUT_INVENTORY_SCHEMA,
                },
                'minProperties': 1,
                'additionalProperties': False,
            },
            'allocations': allocations,
        },
        'required': ['inventories', 'allocations'],
        'additionalProperties': False,
    }


POST_RESHAPER_SCHEMA = _reshaper_schema(allocation.POST_ALLOCATIONS_V1_28)
POST_RESHAPER_SCHEMA_V1_34 = _reshaper_schema(
    allocation.POST_ALLOCATIONS_V1_34)
POST_RESHAPER_SCHEMA_V1_38 = _reshaper_schema(
    allocation.POST_ALLOCATIONS_V1_38)


def post_schema(version):
    if version.matches((1, 38)):
        return POST_RESHAPER_SCHEMA_V1_38
    if version.matches((1, 34)):
        return POST_RESHAPER_SCHEMA_V1_34
    return POST_RESHAPER_SCHEMA
