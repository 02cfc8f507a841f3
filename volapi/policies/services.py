"""GET /os-services, with Cinder's rule name."""
from volapi.policies import base

GET_ALL = 'volume_extension:services:index'

rules = [
    base.operation(GET_ALL, base.RULE_ADMIN_API,
                   'List the volume services and whether they are up.',
                   'GET', '/os-services'),
]


def list_rules():
    return rules
