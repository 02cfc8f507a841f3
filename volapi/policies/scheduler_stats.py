"""GET /scheduler-stats/get_pools, with Cinder's rule name."""
from volapi.policies import base

GET_POOLS = 'scheduler_extension:scheduler_stats:get_pools'

rules = [
    base.operation(GET_POOLS, base.RULE_ADMIN_API,
                   'List the pools volumes are scheduled to, with their '
                   'capacity.', 'GET', '/scheduler-stats/get_pools'),
]


def list_rules():
    return rules
