"""Admin actions on backups (POST /backups/{id}/action)."""
from volapi.policies import base

RESET_STATUS = 'volume_extension:backup_admin_actions:reset_status'
FORCE_DELETE = 'volume_extension:backup_admin_actions:force_delete'

rules = [
    base.operation(RESET_STATUS, base.RULE_ADMIN_API,
                   "Reset a backup's status.",
                   'POST', '/backups/{backup_id}/action'),
    base.operation(FORCE_DELETE, base.RULE_ADMIN_API,
                   'Delete a backup whatever its status.',
                   'POST', '/backups/{backup_id}/action'),
]


def list_rules():
    return rules
