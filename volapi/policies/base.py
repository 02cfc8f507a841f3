"""The rules other rules are written with."""
from oslo_policy import policy

RULE_ADMIN_API = 'rule:admin_api'
RULE_ADMIN_OR_OWNER = 'rule:admin_or_owner'

rules = [
    policy.RuleDefault('context_is_admin', 'role:admin',
                       'Decides who is an administrator.'),
    policy.RuleDefault('admin_api', 'is_admin:True or role:admin',
                       'Administrators only.'),
    policy.RuleDefault('admin_or_owner',
                       'is_admin:True or role:admin or '
                       'project_id:%(project_id)s',
                       'Administrators or members of the owning project.'),
]


def list_rules():
    return rules


def operation(name, check_str, description, method, path):
    return policy.DocumentedRuleDefault(
        name, check_str, description,
        [{'method': method, 'path': path}])
