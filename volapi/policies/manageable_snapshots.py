"""Existing storage taken into volapi as a snapshot and let go (``cinder
snapshot-manage``, ``snapshot-unmanage``, ``snapshot-manageable-list``):
administrators only, as in Cinder."""
from volapi.policies import base

LIST = 'snapshot_extension:list_manageable'
MANAGE = 'snapshot_extension:snapshot_manage'
UNMANAGE = 'snapshot_extension:snapshot_unmanage'

rules = [
    base.operation(LIST, base.RULE_ADMIN_API,
                   'List (in detail) of snapshots which are available to '
                   'manage.', 'GET', '/manageable_snapshots'),
    base.operation(MANAGE, base.RULE_ADMIN_API,
                   'Manage an existing snapshot.', 'POST',
                   '/manageable_snapshots'),
    base.operation(UNMANAGE, base.RULE_ADMIN_API,
                   'Stop managing a snapshot.', 'POST',
                   '/snapshots/{snapshot_id}/action (os-unmanage)'),
]


def list_rules():
    return rules
