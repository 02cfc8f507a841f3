"""Freezing a backend (``cinder freeze-host``/``thaw-host``) and its
failover, as Cinder does them for a backend without replication.

A frozen backend gets no new volumes (its services do not serve, see
objects.service.Service.serves), and the deletes and snapshots of the
volumes it holds are refused: a condition of their transitions' swaps on
its services rows (transitions.blocks.NOT_FROZEN), so a freeze that
commits first wins. Failover needs replication, which volapi has not:
it is always refused, in Cinder's words, and changes nothing.
"""
import objects
from volapi.volume import api as volume_api
from volapi.volume import cluster as cluster_mod

# What Cinder's failover expects of replication_status.
FAILOVER_FROM = ['enabled', 'failed-over']


def _matches(name, value):
    """Cinder's host match (db _filter_host, level chosen by ``value``):
    exact with a pool; else also ``value#...``, and without a backend also
    ``value@...``."""
    if name is None:
        return False
    if name == value or '#' in value:
        return name == value
    if name.startswith(value + '#'):
        return True
    return '@' not in value and name.startswith(value + '@')


def services_of(context, host, cluster_name):
    """(cluster name or None, the volume services of ``host`` or
    ``cluster_name``): all of its cluster's where ``host``'s services are
    in one (Cinder's _get_cluster_and_services_for_replication)."""
    every = objects.Service.get_all(context, binary=cluster_mod.BINARY)
    if cluster_name:
        services = [s for s in every
                    if _matches(s.cluster_name, cluster_name)]
    else:
        services = [s for s in every if _matches(s.host, host)]
    if not services:
        raise volume_api.InvalidRequest(
            'No service found with host=%s' % host if host
            else 'No service found with cluster=%s' % cluster_name)
    found_cluster = services[0].cluster_name
    attribute = 'cluster_name' if cluster_name else 'host'
    expected = getattr(services[0], attribute)
    if any(getattr(s, attribute) != expected for s in services):
        raise volume_api.InvalidRequest(
            'Services from different clusters found.')
    if host and found_cluster:
        services = [s for s in every if s.cluster_name == found_cluster]
    return found_cluster, services


def _refusal(field, expected, found_cluster, services, check_up=False):
    # Cinder's words: the cluster's row fails first where there is one.
    up = 'and must be up ' if check_up else ''
    where = found_cluster or [s.host for s in services]
    reason = '%s in %s must be %s %sto failover.' % (
        field, where, expected, up)
    if not found_cluster:
        reason = 'No service could be changed: ' + reason
    return volume_api.InvalidRequest('Invalid input received: ' + reason)


def set_frozen(context, host, cluster_name, frozen):
    """Freeze (``frozen``) or thaw the backend ``host`` or
    ``cluster_name``: one compare-and-swap on its services' rows, changing
    those not already so; refused if none was to change."""
    found_cluster, services = services_of(context, host, cluster_name)
    if not objects.Service.set_frozen(context, [s.id for s in services],
                                      frozen):
        raise _refusal('frozen', not frozen, found_cluster, services)


def failover(context, host, cluster_name):
    """Refused: no service has replication 'enabled' or 'failed-over'."""
    found_cluster, services = services_of(context, host, cluster_name)
    raise _refusal('replication_status', FAILOVER_FROM, found_cluster,
                   services, check_up=True)
