"""Group snapshots (volapi/api/v3/group_snapshots.py); Cinder's rule
names, and its defaults: the owner or an administrator, reset_status
for administrators."""
from volapi.policies import base

CREATE = 'group:create_group_snapshot'
DELETE = 'group:delete_group_snapshot'
GET = 'group:get_group_snapshot'
GET_ALL = 'group:get_all_group_snapshots'
PROJECT_ATTRIBUTE = 'group:group_snapshot_project_attribute'
RESET_STATUS = 'group:reset_group_snapshot_status'

rules = [
    base.operation(CREATE, base.RULE_ADMIN_OR_OWNER,
                   'Create a group snapshot.', 'POST', '/group_snapshots'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER,
                   'Delete a group snapshot.',
                   'DELETE', '/group_snapshots/{group_snapshot_id}'),
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a group snapshot.',
                   'GET', '/group_snapshots/{group_snapshot_id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER,
                   'List group snapshots.', 'GET', '/group_snapshots'),
    base.operation(PROJECT_ATTRIBUTE, base.RULE_ADMIN_API,
                   "Show a group snapshot's project id (3.58).",
                   'GET', '/group_snapshots/{group_snapshot_id}'),
    base.operation(RESET_STATUS, base.RULE_ADMIN_API,
                   "Reset a group snapshot's status.", 'POST',
                   '/group_snapshots/{group_snapshot_id}/action '
                   '(reset_status)'),
]


def list_rules():
    return rules
