"""GET /limits."""
from volapi.policies import base

USED_LIMITS = 'limits_extension:used_limits'

rules = [
    base.operation(USED_LIMITS, base.RULE_ADMIN_OR_OWNER,
                   "Show a project's limits and what it uses of them.",
                   'GET', '/limits'),
]


def list_rules():
    return rules
