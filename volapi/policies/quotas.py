"""os-quota-sets and os-quota-class-sets (volapi/api/v3/quotas.py),
with Cinder's rule names."""
from volapi.policies import base

SHOW = 'volume_extension:quotas:show'
UPDATE = 'volume_extension:quotas:update'
DELETE = 'volume_extension:quotas:delete'
CLASSES = 'volume_extension:quota_classes'

rules = [
    base.operation(SHOW, base.RULE_ADMIN_OR_OWNER,
                   "Show a project's quota (and what it uses).",
                   'GET', '/os-quota-sets/{project_id}'),
    base.operation(UPDATE, base.RULE_ADMIN_API, "Set a project's quota.",
                   'PUT', '/os-quota-sets/{project_id}'),
    base.operation(DELETE, base.RULE_ADMIN_API,
                   "Put a project's quota back to the defaults.",
                   'DELETE', '/os-quota-sets/{project_id}'),
    base.operation(CLASSES, base.RULE_ADMIN_API,
                   'Show or set the quota of a quota class.',
                   'GET', '/os-quota-class-sets/{class_name}'),
]


def list_rules():
    return rules
