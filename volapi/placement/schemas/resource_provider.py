"""Schemas of resource provider bodies and list query strings."""
import copy

POST_RESOURCE_PROVIDER_SCHEMA = {
    'type': 'object',
    'properties': {
        # An empty name is refused by the create, in Placement's words.
        'name': {'type': 'string', 'maxLength': 200},
        'uuid': {'type': 'string', 'format': 'uuid'},
    },
    'required': ['name'],
    'additionalProperties': False,
}
PUT_RESOURCE_PROVIDER_SCHEMA = copy.deepcopy(POST_RESOURCE_PROVIDER_SCHEMA)
PUT_RESOURCE_PROVIDER_SCHEMA['properties'].pop('uuid')
# Stricter than Placement, which renames a provider to '' (see
# volapi.placement).
PUT_RESOURCE_PROVIDER_SCHEMA['properties']['name']['minLength'] = 1

# 1.14: a parent, or null for none.
POST_RP_SCHEMA_V1_14 = copy.deepcopy(POST_RESOURCE_PROVIDER_SCHEMA)
POST_RP_SCHEMA_V1_14['properties']['parent_provider_uuid'] = {
    'anyOf': [{'type': 'string', 'format': 'uuid'}, {'type': 'null'}]}
PUT_RP_SCHEMA_V1_14 = copy.deepcopy(POST_RP_SCHEMA_V1_14)
PUT_RP_SCHEMA_V1_14['properties'].pop('uuid')
PUT_RP_SCHEMA_V1_14['properties']['name']['minLength'] = 1

GET_RPS_SCHEMA_1_0 = {
    'type': 'object',
    'properties': {
        'name': {'type': 'string'},
        'uuid': {'type': 'string', 'format': 'uuid'},
    },
    'additionalProperties': False,
}
GET_RPS_SCHEMA_1_3 = copy.deepcopy(GET_RPS_SCHEMA_1_0)
GET_RPS_SCHEMA_1_3['properties']['member_of'] = {'type': 'string'}
GET_RPS_SCHEMA_1_4 = copy.deepcopy(GET_RPS_SCHEMA_1_3)
GET_RPS_SCHEMA_1_4['properties']['resources'] = {'type': 'string'}
GET_RPS_SCHEMA_1_14 = copy.deepcopy(GET_RPS_SCHEMA_1_4)
GET_RPS_SCHEMA_1_14['properties']['in_tree'] = {
    'type': 'string', 'format': 'uuid'}
GET_RPS_SCHEMA_1_18 = copy.deepcopy(GET_RPS_SCHEMA_1_14)
GET_RPS_SCHEMA_1_18['properties']['required'] = {'type': 'string'}


def list_schema(version):
    """The query-string schema of GET /resource_providers at ``version``."""
    for minimum, schema in (((1, 18), GET_RPS_SCHEMA_1_18),
                            ((1, 14), GET_RPS_SCHEMA_1_14),
                            ((1, 4), GET_RPS_SCHEMA_1_4),
                            ((1, 3), GET_RPS_SCHEMA_1_3)):
        if version.matches(minimum):
            return schema
    return GET_RPS_SCHEMA_1_0
