"""Volume types."""
from volapi.policies import base

MANAGE = 'volume_extension:types_manage'
EXTRA_SPECS = 'volume_extension:access_types_extra_specs'
QOS_SPECS_ID = 'volume_extension:access_types_qos_specs_id'
EXTRA_SPECS_INDEX = 'volume_extension:types_extra_specs:index'
EXTRA_SPECS_SHOW = 'volume_extension:types_extra_specs:show'
EXTRA_SPECS_MANAGE = 'volume_extension:types_extra_specs:update'
ACCESS_LIST = 'volume_extension:volume_type_access:get_all_for_type'
ACCESS_ADD = 'volume_extension:volume_type_access:addProjectAccess'
ACCESS_REMOVE = 'volume_extension:volume_type_access:removeProjectAccess'
ENCRYPTION_CREATE = 'volume_extension:volume_type_encryption:create'
ENCRYPTION_GET = 'volume_extension:volume_type_encryption:get'
ENCRYPTION_UPDATE = 'volume_extension:volume_type_encryption:update'
ENCRYPTION_DELETE = 'volume_extension:volume_type_encryption:delete'

rules = [
    base.operation(ENCRYPTION_CREATE, base.RULE_ADMIN_API,
                   'Make a volume type encrypted (refused: no key '
                   'manager).', 'POST', '/types/{type_id}/encryption'),
    base.operation(ENCRYPTION_GET, base.RULE_ADMIN_API,
                   "Show a volume type's encryption.",
                   'GET', '/types/{type_id}/encryption'),
    base.operation(ENCRYPTION_UPDATE, base.RULE_ADMIN_API,
                   "Change a volume type's encryption.",
                   'PUT', '/types/{type_id}/encryption/{encryption_id}'),
    base.operation(ENCRYPTION_DELETE, base.RULE_ADMIN_API,
                   "Delete a volume type's encryption.",
                   'DELETE', '/types/{type_id}/encryption/{encryption_id}'),
    base.operation(MANAGE, base.RULE_ADMIN_API,
                   'Create, update or delete volume types.', 'POST',
                   '/types'),
    base.operation(EXTRA_SPECS, '', "Show a type's extra specs.",
                   'GET', '/types/{type_id}'),
    base.operation(QOS_SPECS_ID, base.RULE_ADMIN_API,
                   "Show a type's qos_specs_id.", 'GET', '/types/{type_id}'),
    base.operation(EXTRA_SPECS_INDEX, '', "List a type's extra specs.",
                   'GET', '/types/{type_id}/extra_specs'),
    base.operation(EXTRA_SPECS_SHOW, '', "Show one of a type's extra specs.",
                   'GET', '/types/{type_id}/extra_specs/{key}'),
    base.operation(EXTRA_SPECS_MANAGE, base.RULE_ADMIN_API,
                   "Create, change or delete a type's extra specs.",
                   'POST', '/types/{type_id}/extra_specs'),
    base.operation(ACCESS_LIST, base.RULE_ADMIN_API,
                   'List the projects that may use a private type.', 'GET',
                   '/types/{type_id}/os-volume-type-access'),
    base.operation(ACCESS_ADD, base.RULE_ADMIN_API,
                   'Let a project use a private type.', 'POST',
                   '/types/{type_id}/action (addProjectAccess)'),
    base.operation(ACCESS_REMOVE, base.RULE_ADMIN_API,
                   'Stop a project using a private type.', 'POST',
                   '/types/{type_id}/action (removeProjectAccess)'),
]


def list_rules():
    return rules
