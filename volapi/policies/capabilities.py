"""GET /capabilities/{host}, with Cinder's rule name."""
from volapi.policies import base

SHOW = 'volume_extension:capabilities'

rules = [
    base.operation(SHOW, base.RULE_ADMIN_API,
                   "Show a volume backend's capabilities.",
                   'GET', '/capabilities/{host_name}'),
]


def list_rules():
    return rules
