"""What Cinder's clusters API shows of a cluster, from its members' services
rows (a cluster is the services that name it, volapi.volume.cluster; it has
no row of its own):

- up while any member is up (its heartbeat at most ``service_down_time``
  old), ``last_heartbeat`` the latest of theirs;
- disabled when every member is, with their reason when they share one;
- created when its first member was registered, updated when a member's
  row last changed.

Disabling or enabling a cluster is one statement on all its members' rows
(:func:`set_disabled`), so the scheduler sees the whole cluster change at
once (volapi.volume.scheduler skips the pools of a cluster whose members are
all disabled).
"""
import collections

from oslo_config import cfg

from db import api as db_api
from db import models
from objects import service as service_obj

CONF = cfg.CONF


class ClusterState:

    __slots__ = ('name', 'binary', 'num_hosts', 'num_down_hosts',
                 'last_heartbeat', 'created_at', 'updated_at', 'disabled',
                 'disabled_reason')

    def __init__(self, name, binary, members):
        self.name, self.binary = name, binary
        up = [m for m in members if m.is_up(CONF.service_down_time)]
        self.num_hosts = len(members)
        self.num_down_hosts = len(members) - len(up)
        self.last_heartbeat = max(filter(None, (m.last_seen()
                                                for m in members)),
                                  default=None)
        self.created_at = min(m.created_at for m in members)
        self.updated_at = max(filter(None, (m.updated_at for m in members)),
                              default=None)
        self.disabled = all(m.disabled for m in members)
        reasons = {m.disabled_reason for m in members}
        self.disabled_reason = reasons.pop() \
            if self.disabled and len(reasons) == 1 else None

    @property
    def is_up(self):
        return self.num_down_hosts < self.num_hosts


def get_all(context, name=None, binary=None):
    """The clusters (of ``name``, of ``binary``), by name then binary."""
    members = collections.defaultdict(list)
    for service in service_obj.Service.get_all(context, binary=binary,
                                               cluster_name=name):
        if service.cluster_name:
            members[(service.cluster_name, service.binary)].append(service)
    return [ClusterState(name, binary, found)
            for (name, binary), found in sorted(members.items())]


def set_disabled(context, name, binary, disabled, reason=None):
    """Disable (with ``reason``) or enable every live member of cluster
    ``name`` of ``binary``; False if it has none."""
    return db_api.conditional_update(
        context, models.Service,
        {'disabled': disabled, 'disabled_reason': reason},
        {'cluster_name': name, 'binary': binary, 'deleted': False})
