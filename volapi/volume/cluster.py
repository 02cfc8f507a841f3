"""Clusters: the workers that serve the same storage.

A worker names its cluster with ``[DEFAULT] cluster``; its full name is
``<cluster>@<backend_name>`` (Cinder's), and a volume it creates records
``cluster_name = <cluster>@<backend_name>#<pool>`` beside its host.
Operations on a volume are cast to the RPC server named after its cluster,
on which every member listens, so any live member takes each one (the
``workers`` row's claim keeps it to one); a worker without a cluster is a
cluster of its own, addressed by its host.
"""


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
            return server_of(volume.host) == self.server_name
        return True
