"""Volume transfers (volapi/api/v3/transfers.py), under Cinder's names.
Accepting is open to every project, as in Cinder: the key is what
authorizes it."""
from oslo_policy import policy

from volapi.policies import base

CREATE = 'volume:create_transfer'
ACCEPT = 'volume:accept_transfer'
DELETE = 'volume:delete_transfer'
GET = 'volume:get_transfer'
GET_ALL = 'volume:get_all_transfers'

_PATHS = ('/os-volume-transfer', '/volume-transfers')


def _operation(name, check_str, description, method, suffix=''):
    return policy.DocumentedRuleDefault(
        name, check_str, description,
        operations=[{'method': method, 'path': path + suffix}
                    for path in _PATHS],
        scope_types=base.SCOPE_TYPES)


rules = [
    _operation(GET_ALL, base.RULE_ADMIN_OR_OWNER, 'List volume transfers.',
               'GET'),
    _operation(CREATE, base.RULE_ADMIN_OR_OWNER, 'Create a volume transfer.',
               'POST'),
    _operation(GET, base.RULE_ADMIN_OR_OWNER,
               'Show one volume transfer.', 'GET', '/{transfer_id}'),
    _operation(ACCEPT, '', 'Accept a volume transfer.', 'POST',
               '/{transfer_id}/accept'),
    _operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a volume transfer.',
               'DELETE', '/{transfer_id}'),
]


def list_rules():
    return rules
