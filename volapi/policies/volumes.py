"""Volume CRUD and what a volume view shows."""
from volapi.policies import base

CREATE = 'volume:create'
GET = 'volume:get'
GET_ALL = 'volume:get_all'
UPDATE = 'volume:update'
DELETE = 'volume:delete'
FORCE_DELETE = 'volume_extension:volume_admin_actions:force_delete'
METADATA_GET = 'volume:get_volume_metadata'
METADATA_UPDATE = 'volume:update_volume_metadata'
METADATA_DELETE = 'volume:delete_volume_metadata'
ENCRYPTION_METADATA = 'volume_extension:volume_encryption_metadata'
TENANT_ATTRIBUTE = 'volume_extension:volume_tenant_attribute'
HOST_ATTRIBUTE = 'volume_extension:volume_host_attribute'
MIG_STATUS_ATTRIBUTE = 'volume_extension:volume_mig_status_attribute'
IMAGE_METADATA_SHOW = 'volume_extension:volume_image_metadata:show'
IMAGE_METADATA_SET = 'volume_extension:volume_image_metadata:set'
IMAGE_METADATA_REMOVE = 'volume_extension:volume_image_metadata:remove'

rules = [
    base.operation(CREATE, '', 'Create a volume.', 'POST', '/volumes'),
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a volume.',
                   'GET', '/volumes/{volume_id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER, 'List volumes.',
                   'GET', '/volumes'),
    base.operation(UPDATE, base.RULE_ADMIN_OR_OWNER,
                   'Update a volume (name, description, metadata).',
                   'PUT', '/volumes/{volume_id}'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a volume.',
                   'DELETE', '/volumes/{volume_id}'),
    base.operation(FORCE_DELETE, base.RULE_ADMIN_API,
                   'Delete a volume whatever its status.',
                   'POST', '/volumes/{volume_id}/action (os-force_delete)'),
    base.operation(METADATA_GET, base.RULE_ADMIN_OR_OWNER,
                   "Show a volume's metadata.",
                   'GET', '/volumes/{volume_id}/metadata'),
    base.operation(METADATA_UPDATE, base.RULE_ADMIN_OR_OWNER,
                   "Create or replace a volume's metadata.",
                   'PUT', '/volumes/{volume_id}/metadata'),
    base.operation(ENCRYPTION_METADATA, base.RULE_ADMIN_OR_OWNER,
                   "Show a volume's encryption metadata.",
                   'GET', '/volumes/{volume_id}/encryption'),
    base.operation(METADATA_DELETE, base.RULE_ADMIN_OR_OWNER,
                   "Delete a volume's metadata key.",
                   'DELETE', '/volumes/{volume_id}/metadata/{key}'),
    base.operation(TENANT_ATTRIBUTE, base.RULE_ADMIN_OR_OWNER,
                   'Show os-vol-tenant-attr:tenant_id in volume details.',
                   'GET', '/volumes/{volume_id}'),
    base.operation(HOST_ATTRIBUTE, base.RULE_ADMIN_API,
                   'Show os-vol-host-attr:host in volume details.',
                   'GET', '/volumes/{volume_id}'),
    base.operation(MIG_STATUS_ATTRIBUTE, base.RULE_ADMIN_API,
                   'Show os-vol-mig-status-attr:* in volume details.',
                   'GET', '/volumes/{volume_id}'),
    base.operation(IMAGE_METADATA_SHOW, base.RULE_ADMIN_OR_OWNER,
                   "Show a volume's image metadata (volume_image_metadata "
                   "in its details, os-show_image_metadata).",
                   'GET', '/volumes/{volume_id}'),
    base.operation(IMAGE_METADATA_SET, base.RULE_ADMIN_OR_OWNER,
                   "Set a volume's image metadata.",
                   'POST', '/volumes/{volume_id}/action '
                   '(os-set_image_metadata)'),
    base.operation(IMAGE_METADATA_REMOVE, base.RULE_ADMIN_OR_OWNER,
                   "Remove a key of a volume's image metadata.",
                   'POST', '/volumes/{volume_id}/action '
                   '(os-unset_image_metadata)'),
]


def list_rules():
    return rules
