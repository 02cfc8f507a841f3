"""Generic volume groups and group types (volapi/api/v3/groups.py,
group_types.py, group_specs.py); Cinder's rule names."""
from volapi.policies import base

CREATE = 'group:create'
UPDATE = 'group:update'
GET = 'group:get'
GET_ALL = 'group:get_all'
DELETE = 'group:delete'
RESET_STATUS = 'group:reset_status'
PROJECT_ATTRIBUTE = 'group:group_project_attribute'
TYPE_CREATE = 'group:group_types:create'
TYPE_UPDATE = 'group:group_types:update'
TYPE_DELETE = 'group:group_types:delete'
TYPE_SHOW_SPECS = 'group:access_group_types_specs'
SPEC_GET = 'group:group_types_specs:get'
SPEC_GET_ALL = 'group:group_types_specs:get_all'
SPEC_CREATE = 'group:group_types_specs:create'
SPEC_UPDATE = 'group:group_types_specs:update'
SPEC_DELETE = 'group:group_types_specs:delete'

rules = [
    base.operation(CREATE, base.RULE_ADMIN_OR_OWNER, 'Create a group.',
                   'POST', '/groups'),
    base.operation(UPDATE, base.RULE_ADMIN_OR_OWNER,
                   'Rename a group, add or remove its volumes.',
                   'PUT', '/groups/{group_id}'),
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a group.',
                   'GET', '/groups/{group_id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER, 'List groups.',
                   'GET', '/groups'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a group.',
                   'POST', '/groups/{group_id}/action (delete)'),
    base.operation(RESET_STATUS, base.RULE_ADMIN_API,
                   "Reset a group's status (3.20).",
                   'POST', '/groups/{group_id}/action (reset_status)'),
    base.operation(PROJECT_ATTRIBUTE, base.RULE_ADMIN_API,
                   "Show a group's project id (3.58).",
                   'GET', '/groups/{group_id}'),
    base.operation(TYPE_CREATE, base.RULE_ADMIN_API, 'Create a group type.',
                   'POST', '/group_types'),
    base.operation(TYPE_UPDATE, base.RULE_ADMIN_API, 'Update a group type.',
                   'PUT', '/group_types/{group_type_id}'),
    base.operation(TYPE_DELETE, base.RULE_ADMIN_API, 'Delete a group type.',
                   'DELETE', '/group_types/{group_type_id}'),
    base.operation(TYPE_SHOW_SPECS, base.RULE_ADMIN_API,
                   "Show a group type's group specs.",
                   'GET', '/group_types/{group_type_id}'),
    base.operation(SPEC_GET, base.RULE_ADMIN_API, 'Show a group spec.',
                   'GET', '/group_types/{group_type_id}/group_specs/{key}'),
    base.operation(SPEC_GET_ALL, base.RULE_ADMIN_API,
                   "List a group type's group specs.",
                   'GET', '/group_types/{group_type_id}/group_specs'),
    base.operation(SPEC_CREATE, base.RULE_ADMIN_API,
                   'Create or change group specs.',
                   'POST', '/group_types/{group_type_id}/group_specs'),
    base.operation(SPEC_UPDATE, base.RULE_ADMIN_API, 'Change a group spec.',
                   'PUT', '/group_types/{group_type_id}/group_specs/{key}'),
    base.operation(SPEC_DELETE, base.RULE_ADMIN_API, 'Delete a group spec.',
                   'DELETE',
                   '/group_types/{group_type_id}/group_specs/{key}'),
]


def list_rules():
    return rules
