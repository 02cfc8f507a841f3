"""Snapshots (volapi/api/v3/snapshots.py)."""
from volapi.policies import base

CREATE = 'volume:create_snapshot'
GET = 'volume:get_snapshot'
GET_ALL = 'volume:get_all_snapshots'
UPDATE = 'volume:update_snapshot'
DELETE = 'volume:delete_snapshot'
RESET_STATUS = 'volume_extension:snapshot_admin_actions:reset_status'
FORCE_DELETE = 'volume_extension:snapshot_admin_actions:force_delete'

rules = [
    base.operation(CREATE, base.RULE_ADMIN_OR_OWNER, 'Create a snapshot.',
                   'POST', '/snapshots'),
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a snapshot.',
                   'GET', '/snapshots/{snapshot_id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER, 'List snapshots.',
                   'GET', '/snapshots'),
    base.operation(UPDATE, base.RULE_ADMIN_OR_OWNER, 'Update a snapshot.',
                   'PUT', '/snapshots/{snapshot_id}'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a snapshot.',
                   'DELETE', '/snapshots/{snapshot_id}'),
    base.operation(RESET_STATUS, base.RULE_ADMIN_API,
                   "Reset a snapshot's status.",
                   'POST', '/snapshots/{snapshot_id}/action'),
    base.operation(FORCE_DELETE, base.RULE_ADMIN_API,
                   'Delete a snapshot whatever its status.',
                   'POST', '/snapshots/{snapshot_id}/action'),
]


def list_rules():
    return rules
