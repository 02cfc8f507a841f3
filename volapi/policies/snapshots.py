"""Snapshots (volapi/api/v3/snapshots.py)."""
from volapi.policies import base

CREATE = 'volume:create_snapshot'
GET = 'volume:get_snapshot'
GET_ALL = 'volume:get_all_snapshots'
UPDATE = 'volume:update_snapshot'
DELETE = 'volume:delete_snapshot'
RESET_STATUS = 'volume_extension:snapshot_admin_actions:reset_status'
FORCE_DELETE = 'volume_extension:snapshot_admin_actions:force_delete'
UPDATE_STATUS = 'snapshot_extension:snapshot_actions:update_snapshot_status'
METADATA_GET = 'volume:get_snapshot_metadata'
METADATA_UPDATE = 'volume:update_snapshot_metadata'
METADATA_DELETE = 'volume:delete_snapshot_metadata'

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
    base.operation(UPDATE_STATUS, base.RULE_ADMIN_OR_OWNER,
                   "Update a snapshot's status and progress (a compute "
                   "service's assisted snapshot).",
                   'POST', '/snapshots/{snapshot_id}/action '
                   '(os-update_snapshot_status)'),
    base.operation(METADATA_GET, base.RULE_ADMIN_OR_OWNER,
                   "Show a snapshot's metadata.",
                   'GET', '/snapshots/{snapshot_id}/metadata'),
    base.operation(METADATA_UPDATE, base.RULE_ADMIN_OR_OWNER,
                   "Create or replace a snapshot's metadata.",
                   'PUT', '/snapshots/{snapshot_id}/metadata'),
    base.operation(METADATA_DELETE, base.RULE_ADMIN_OR_OWNER,
                   "Delete a snapshot's metadata key.",
                   'DELETE', '/snapshots/{snapshot_id}/metadata/{key}'),
]


def list_rules():
    return rules
