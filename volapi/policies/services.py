"""/os-services, with Cinder's rule names."""
from volapi.policies import base

GET_ALL = 'volume_extension:services:index'
UPDATE = 'volume_extension:services:update'

rules = [
    base.operation(GET_ALL, base.RULE_ADMIN_API,
                   'List the volume services and whether they are up.',
                   'GET', '/os-services'),
    base.operation(UPDATE, base.RULE_ADMIN_API,
                   'Enable or disable a volume service: a disabled one gets '
                   'no new volumes.', 'PUT', '/os-services/{action}'),
]


def list_rules():
    return rules
