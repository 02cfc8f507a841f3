"""Projects' default volume types (3.62): administrators only, as in
Cinder."""
from volapi.policies import base

SET = 'volume_extension:default_set_or_update'
GET = 'volume_extension:default_get'
GET_ALL = 'volume_extension:default_get_all'
UNSET = 'volume_extension:default_unset'

rules = [
    base.operation(SET, base.RULE_ADMIN_API,
                   'Set or update default volume type.', 'PUT',
                   '/default-types'),
    base.operation(GET, base.RULE_ADMIN_API, 'Get default types.', 'GET',
                   '/default-types/{project-id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_API,
                   'Get all default types. WARNING: Changing this might '
                   'open up too much information regarding cloud '
                   'deployment.', 'GET', '/default-types/'),
    base.operation(UNSET, base.RULE_ADMIN_API, 'Unset default type.',
                   'DELETE', '/default-types/{project-id}'),
]


def list_rules():
    return rules
