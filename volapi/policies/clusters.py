"""/clusters, with Cinder's rule names."""
from volapi.policies import base

GET = 'clusters:get'
GET_ALL = 'clusters:get_all'
UPDATE = 'clusters:update'

rules = [
    base.operation(GET_ALL, base.RULE_ADMIN_API,
                   'List the clusters of volume services.', 'GET',
                   '/clusters'),
    base.operation(GET, base.RULE_ADMIN_API, 'Show a cluster.', 'GET',
                   '/clusters/{name}'),
    base.operation(UPDATE, base.RULE_ADMIN_API,
                   'Enable or disable every member of a cluster.', 'PUT',
                   '/clusters/{action}'),
]


def list_rules():
    return rules
