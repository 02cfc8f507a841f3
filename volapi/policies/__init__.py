"""Default policies of the volume API, in code (oslo.policy).

``list_rules`` is the ``oslo.policy.policies`` entry point; an operator's
policy file overrides any rule by name. Rule names are Cinder's, so a
Cinder policy file means the same here.
"""
import itertools

from volapi.policies import backup_actions
from volapi.policies import backups
from volapi.policies import base
from volapi.policies import capabilities
from volapi.policies import clusters
from volapi.policies import default_types
from volapi.policies import group_snapshots
from volapi.policies import groups
from volapi.policies import limits
from volapi.policies import manageable_snapshots
from volapi.policies import manageable_volumes
from volapi.policies import messages
from volapi.policies import qos_specs
from volapi.policies import quotas
from volapi.policies import scheduler_stats
from volapi.policies import services
from volapi.policies import snapshots
from volapi.policies import types
from volapi.policies import volume_actions
from volapi.policies import volume_transfer
from volapi.policies import volumes
from volapi.policies import workers


def list_rules():
    return list(itertools.chain(
        base.list_rules(), volumes.list_rules(), volume_actions.list_rules(),
        snapshots.list_rules(), types.list_rules(), workers.list_rules(),
        limits.list_rules(), quotas.list_rules(), messages.list_rules(),
        scheduler_stats.list_rules(), services.list_rules(),
        clusters.list_rules(), capabilities.list_rules(),
        default_types.list_rules(), volume_transfer.list_rules(),
        qos_specs.list_rules(), manageable_volumes.list_rules(),
        backups.list_rules(), backup_actions.list_rules(),
        groups.list_rules(), group_snapshots.list_rules(),
        manageable_snapshots.list_rules()))
