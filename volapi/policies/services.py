"""/os-services, with Cinder's rule names."""
from volapi.policies import base

GET_ALL = 'volume_extension:services:index'
UPDATE = 'volume_extension:services:update'
FREEZE = 'volume:freeze_host'
THAW = 'volume:thaw_host'
FAILOVER = 'volume:failover_host'

rules = [
    base.operation(GET_ALL, base.RULE_ADMIN_API,
                   'List the volume services and whether they are up.',
                   'GET', '/os-services'),
    base.operation(UPDATE, base.RULE_ADMIN_API,
                   'Enable or disable a volume service: a disabled one gets '
                   'no new volumes.', 'PUT', '/os-services/{action}'),
    # Cinder asks for UPDATE and then for these.
    base.operation(FREEZE, base.RULE_ADMIN_API,
                   'Freeze a backend host: no new volumes, no deletes or '
                   'snapshots of its volumes.', 'PUT', '/os-services/freeze'),
    base.operation(THAW, base.RULE_ADMIN_API, 'Thaw a backend host.',
                   'PUT', '/os-services/thaw'),
    base.operation(FAILOVER, base.RULE_ADMIN_API,
                   'Failover a backend host (volapi has no replication: '
                   'always refused).', 'PUT', '/os-services/failover_host'),
]


def list_rules():
    return rules
