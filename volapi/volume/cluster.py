"""Clusters: the workers that serve the same storage.

A worker names its cluster with ``[DEFAULT] cluster``; its full name is
``<cluster>@<backend_name>`` (Cinder's), and a volume it creates records
``cluster_name = <cluster>@<backend_name>#<pool>`` beside its host.
Operations on a volume are cast to the RPC server named after its cluster,
on which every member listens, so any live member takes each one (the
``workers`` row's claim keeps it to one); a worker without a cluster is a
cluster of its own, addressed by its host.
"""
from oslo_config import cfg

import objects
from objects import service as service_obj

CONF = cfg.CONF
BINARY = service_obj.VOLUME_BINARY


def cluster_of(conf):
    """This worker's cluster, ``cluster@backend``, or None."""
    if not conf.cluster:
        return None
    return '%s@%s' % (conf.cluster, conf.volume.backend_name)


def server_of(location):
    """The RPC server of ``host@backend#pool`` (or of a cluster name): the
    part before '#'. None (not placed yet) means any worker."""
    if not location:
        return None
    return location.partition('#')[0]


def address_of(volume):
    """The RPC server to cast a volume's operations to: its cluster where
    it has one, else the worker that created it, else any worker."""
    return server_of(volume.cluster_name or volume.host)


def services_named(context, name):
    """The volume services of host or cluster ``name`` (``host@backend``
    or ``cluster@backend``)."""
    return (objects.Service.get_all(context, binary=BINARY, host=name)
            or objects.Service.get_all(context, binary=BINARY,
                                       cluster_name=name))


def cluster_name_of_pool(context, host):
    """``host`` (``<server>@<backend>#<pool>``) as a volume in that pool
    records its cluster_name: itself if ``<server>@<backend>`` is a
    cluster's name, else None (the pool is one worker's)."""
    members = objects.Service.get_all(context, binary=BINARY,
                                      cluster_name=server_of(host))
    return host if members else None


class Membership:
    """Which volumes a worker serves: those of its cluster, those it
    created outside any cluster, and those not placed anywhere yet."""

    def __init__(self, server_name, cluster_name=None):
        self.server_name = server_name
        self.cluster_name = cluster_name

    def serves(self, volume):
        if volume.cluster_name:
            return server_of(volume.cluster_name) == self.cluster_name
        if volume.host:
            # A volume scheduled to a cluster's pool names the cluster
            # until a member has created it.
            return server_of(volume.host) in (self.server_name,
                                              self.cluster_name)
        return True


def has_live_member(context, volume):
    """True if a worker that serves ``volume`` heartbeats (within
    ``service_down_time``): a member of its cluster, or its host. A call
    to a volume with none answers at once instead of waiting out the RPC
    timeout."""
    address = address_of(volume)
    if address is None:
        candidates = objects.Service.get_all(context, binary=BINARY)
    elif volume.cluster_name:
        candidates = objects.Service.get_all(context, binary=BINARY,
                                             cluster_name=address)
    else:
        candidates = objects.Service.get_all(context, binary=BINARY,
                                             host=address)
    # Up is enough: a service disabled by an operator takes no new
    # volumes, but still serves the ones it has (as Cinder's).
    return any(s.is_up(CONF.service_down_time) for s in candidates)


def unavailable_servers(context):
    """The servers (``host@backend`` or ``cluster@backend``, what a pool's
    name starts with) none of whose volume services takes new work (all
    disabled or frozen by an operator, ``cinder service-disable`` or
    ``freeze-host``, or down, as Cinder's scheduler skips a backend whose
    service is down). A server without a services row is not one of
    them."""
    serving, not_serving = set(), set()
    for service in objects.Service.get_all(context, binary=BINARY):
        for server in filter(None, (service.host, service.cluster_name)):
            (serving if service.serves(CONF.service_down_time)
             else not_serving).add(server)
    return not_serving - serving
