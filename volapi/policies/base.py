"""The rules other rules are written with."""
from oslo_policy import policy

CONTEXT_IS_ADMIN = 'context_is_admin'
ADMIN_API = 'admin_api'
ADMIN_OR_OWNER = 'admin_or_owner'
RULE_CONTEXT_IS_ADMIN = 'rule:' + CONTEXT_IS_ADMIN
RULE_ADMIN_API = 'rule:' + ADMIN_API
RULE_ADMIN_OR_OWNER = 'rule:' + ADMIN_OR_OWNER

# The projects' own rules apply to project-scoped tokens (as Cinder's).
SCOPE_TYPES = ['project']

rules = [
    # Checked once per request: its answer is the context's is_admin.
    policy.RuleDefault(CONTEXT_IS_ADMIN, 'role:admin',
                       'Decides who is an administrator.'),
    policy.RuleDefault(ADMIN_API, RULE_CONTEXT_IS_ADMIN,
                       'Administrators only.'),
    policy.RuleDefault(ADMIN_OR_OWNER,
                       RULE_CONTEXT_IS_ADMIN + ' or project_id:%(project_id)s',
                       'Administrators or members of the owning project.'),
]


def list_rules():
    return rules


def operation(name, check_str, description, method, path):
    return policy.DocumentedRuleDefault(
        name, check_str, description,
        operations=[{'method': method, 'path': path}],
        scope_types=SCOPE_TYPES)
