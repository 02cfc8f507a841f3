"""The rules other rules are written with."""
from oslo_policy import policy

RULE_ADMIN_API = 'rule:admin_api'
RULE_ADMIN_OR_OWNER = 'rule:admin_or_owner'

CONTEXT_IS_ADMIN = 'context_is_admin'
# The projects' own rules apply to project-scoped tokens (as Cinder's).
SCOPE_TYPES = ['project']

rules = [
    # Checked once per request: its answer is the context's is_admin.
    policy.RuleDefault(CONTEXT_IS_ADMIN, 'role:admin',
                       'Decides who is an administrator.'),
    policy.RuleDefault('admin_api', 'rule:context_is_admin',
                       'Administrators only.'),
    policy.RuleDefault('admin_or_owner',
                       'rule:context_is_admin or project_id:%(project_id)s',
                       'Administrators or members of the owning project.'),
]


def list_rules():
    return rules


def operation(name, check_str, description, method, path):
    return policy.DocumentedRuleDefault(
        name, check_str, description,
        operations=[{'method': method, 'path': path}],
        scope_types=SCOPE_TYPES)
