"""Backups (volapi/api/v3/backups.py). Names and defaults are Cinder's."""
from volapi.policies import base

GET_ALL = 'backup:get_all'
GET = 'backup:get'
CREATE = 'backup:create'
UPDATE = 'backup:update'
DELETE = 'backup:delete'
RESTORE = 'backup:restore'
ATTRIBUTES = 'backup:backup_project_attribute'
IMPORT = 'backup:backup-import'
EXPORT = 'backup:export-import'

rules = [
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER, 'List backups.',
                   'GET', '/backups'),
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a backup.',
                   'GET', '/backups/{backup_id}'),
    base.operation(CREATE, base.RULE_ADMIN_OR_OWNER, 'Create a backup.',
                   'POST', '/backups'),
    base.operation(UPDATE, base.RULE_ADMIN_OR_OWNER, 'Update a backup.',
                   'PUT', '/backups/{backup_id}'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a backup.',
                   'DELETE', '/backups/{backup_id}'),
    base.operation(RESTORE, base.RULE_ADMIN_OR_OWNER, 'Restore a backup.',
                   'POST', '/backups/{backup_id}/restore'),
    base.operation(ATTRIBUTES, base.RULE_ADMIN_API,
                   "Show a backup's project and user (3.18, 3.56).",
                   'GET', '/backups/{backup_id}'),
    base.operation(IMPORT, base.RULE_ADMIN_API, 'Import a backup record.',
                   'POST', '/backups/import_record'),
    base.operation(EXPORT, base.RULE_ADMIN_API, 'Export a backup record.',
                   'GET', '/backups/{backup_id}/export_record'),
]


def list_rules():
    return rules
