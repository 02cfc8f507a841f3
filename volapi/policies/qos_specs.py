"""QoS specs: administrators only, under Cinder's rule names, each with
the routes Cinder lists for it."""
from oslo_policy import policy

from volapi.policies import base

GET_ALL = 'volume_extension:qos_specs_manage:get_all'
GET = 'volume_extension:qos_specs_manage:get'
CREATE = 'volume_extension:qos_specs_manage:create'
UPDATE = 'volume_extension:qos_specs_manage:update'
DELETE = 'volume_extension:qos_specs_manage:delete'


def _rule(name, description, *operations):
    return policy.DocumentedRuleDefault(
        name, base.RULE_ADMIN_API, description,
        operations=[{'method': method, 'path': path}
                    for method, path in operations],
        scope_types=base.SCOPE_TYPES)


rules = [
    _rule(GET_ALL, 'List qos specs or list all associations.',
          ('GET', '/qos-specs'), ('GET', '/qos-specs/{qos_id}/associations')),
    _rule(GET, 'Show qos specs.', ('GET', '/qos-specs/{qos_id}')),
    _rule(CREATE, 'Create qos specs.', ('POST', '/qos-specs')),
    _rule(UPDATE, 'Update qos specs (including updating association).',
          ('PUT', '/qos-specs/{qos_id}'),
          ('GET', '/qos-specs/{qos_id}/disassociate_all'),
          ('GET', '/qos-specs/{qos_id}/associate'),
          ('GET', '/qos-specs/{qos_id}/disassociate')),
    _rule(DELETE, 'delete qos specs or unset one specified qos key.',
          ('DELETE', '/qos-specs/{qos_id}'),
          ('PUT', '/qos-specs/{qos_id}/delete_keys')),
]


def list_rules():
    return rules
