"""Existing storage taken into volapi and let go (``cinder manage``,
``cinder unmanage``, ``cinder manageable-list``): administrators only, as
in Cinder."""
from volapi.policies import base

LIST = 'volume_extension:list_manageable'
MANAGE = 'volume_extension:volume_manage'
UNMANAGE = 'volume_extension:volume_unmanage'

rules = [
    base.operation(LIST, base.RULE_ADMIN_API,
                   'List the volumes a backend could manage.', 'GET',
                   '/manageable_volumes'),
    base.operation(MANAGE, base.RULE_ADMIN_API,
                   'Manage an existing volume.', 'POST',
                   '/manageable_volumes'),
    base.operation(UNMANAGE, base.RULE_ADMIN_API,
                   'Stop managing a volume.', 'POST',
                   '/volumes/{volume_id}/action (os-unmanage)'),
]


def list_rules():
    return rules
