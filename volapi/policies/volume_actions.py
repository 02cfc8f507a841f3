"""POST /volumes/{volume_id}/action (volapi/api/v3/volume_actions.py and attachments.py)."""
from volapi.policies import base

EXTEND = 'volume:extend'
EXTEND_ATTACHED = 'volume:extend_attached_volume'
RETYPE = 'volume:retype'
REVERT = 'volume:revert_to_snapshot'
UPDATE_READONLY_FLAG = 'volume:update_readonly_flag'
RESET_STATUS = 'volume_extension:volume_admin_actions:reset_status'
MIGRATE = 'volume_extension:volume_admin_actions:migrate_volume'
MIGRATE_COMPLETION = \
    'volume_extension:volume_admin_actions:migrate_volume_completion'
FORCE_DETACH = 'volume_extension:volume_admin_actions:force_detach'
ATTACH = 'volume_extension:volume_actions:attach'
DETACH = 'volume_extension:volume_actions:detach'
RESERVE = 'volume_extension:volume_actions:reserve'
UNRESERVE = 'volume_extension:volume_actions:unreserve'
BEGIN_DETACHING = 'volume_extension:volume_actions:begin_detaching'
ROLL_DETACHING = 'volume_extension:volume_actions:roll_detaching'
INITIALIZE_CONNECTION = \
    'volume_extension:volume_actions:initialize_connection'
TERMINATE_CONNECTION = 'volume_extension:volume_actions:terminate_connection'
ATTACHMENT_CREATE = 'volume:attachment_create'
ATTACHMENT_UPDATE = 'volume:attachment_update'
ATTACHMENT_DELETE = 'volume:attachment_delete'
ATTACHMENT_COMPLETE = 'volume:attachment_complete'
ATTACHMENT_GET = 'volume:attachment_get'

_ACTION = '/volumes/{volume_id}/action'

rules = [base.operation(name, check, description, 'POST', path)
         for name, check, description, path in [
    (EXTEND, base.RULE_ADMIN_OR_OWNER, 'Extend a volume.', _ACTION),
    (EXTEND_ATTACHED, base.RULE_ADMIN_OR_OWNER,
     'Extend an attached volume.', _ACTION),
    (RETYPE, base.RULE_ADMIN_OR_OWNER, 'Retype a volume.', _ACTION),
    (REVERT, base.RULE_ADMIN_OR_OWNER,
     'Revert a volume to its latest snapshot.', _ACTION),
    (UPDATE_READONLY_FLAG, base.RULE_ADMIN_OR_OWNER,
     "Set a volume's read-only flag.", _ACTION),
    (RESET_STATUS, base.RULE_ADMIN_API, "Reset a volume's status.",
     _ACTION),
    (MIGRATE, base.RULE_ADMIN_API, 'Migrate a volume to another pool.',
     _ACTION),
    (MIGRATE_COMPLETION, base.RULE_ADMIN_API,
     'End a volume migration from outside (roll it back on error).',
     _ACTION),
    (FORCE_DETACH, base.RULE_ADMIN_API, 'Force-detach a volume.', _ACTION),
    (ATTACH, base.RULE_ADMIN_OR_OWNER, 'Attach a volume.', _ACTION),
    (DETACH, base.RULE_ADMIN_OR_OWNER, 'Detach a volume.', _ACTION),
    (RESERVE, base.RULE_ADMIN_OR_OWNER, 'Reserve a volume.', _ACTION),
    (UNRESERVE, base.RULE_ADMIN_OR_OWNER, 'Unreserve a volume.', _ACTION),
    (BEGIN_DETACHING, base.RULE_ADMIN_OR_OWNER,
     'Mark a volume as detaching.', _ACTION),
    (ROLL_DETACHING, base.RULE_ADMIN_OR_OWNER,
     'Undo begin-detaching.', _ACTION),
    (INITIALIZE_CONNECTION, base.RULE_ADMIN_OR_OWNER,
     'Initialize a connection to a volume.', _ACTION),
    (TERMINATE_CONNECTION, base.RULE_ADMIN_OR_OWNER,
     'Terminate a connection to a volume.', _ACTION),
    (ATTACHMENT_CREATE, '', 'Create an attachment.', '/attachments'),
    (ATTACHMENT_UPDATE, base.RULE_ADMIN_OR_OWNER,
     'Update an attachment.', '/attachments/{attachment_id}'),
    (ATTACHMENT_DELETE, base.RULE_ADMIN_OR_OWNER,
     'Delete an attachment.', '/attachments/{attachment_id}'),
    (ATTACHMENT_COMPLETE, base.RULE_ADMIN_OR_OWNER,
     'Mark an attachment complete.',
     '/attachments/{attachment_id}/action'),
    (ATTACHMENT_GET, base.RULE_ADMIN_OR_OWNER,
     'Show or list attachments.', '/attachments'),
]]


def list_rules():
    return rules
