"""Volume types."""
from volapi.policies import base

MANAGE = 'volume_extension:types_manage'
EXTRA_SPECS = 'volume_extension:access_types_extra_specs'
QOS_SPECS_ID = 'volume_extension:access_types_qos_specs_id'

rules = [
    base.operation(MANAGE, base.RULE_ADMIN_API,
                   'Create or delete volume types.', 'POST', '/types'),
    base.operation(EXTRA_SPECS, '', "Show a type's extra specs.",
                   'GET', '/types/{type_id}'),
    base.operation(QOS_SPECS_ID, base.RULE_ADMIN_API,
                   "Show a type's qos_specs_id.", 'GET', '/types/{type_id}'),
]


def list_rules():
    return rules
