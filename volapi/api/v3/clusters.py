"""/v3/[{project_id}/]clusters (3.7+, admin): the clusters of volume
workers (volapi.volume.cluster_states), as Cinder's clusters API shows and
disables them.

``GET /clusters`` and ``/clusters/detail`` take the filters ``name``,
``binary``, ``is_up``, ``disabled``, ``num_hosts`` and ``num_down_hosts``
(and, from 3.26, the replication fields, which volapi does not have: no
cluster matches a value other than Cinder's for a cluster without
replication); another is a 400. ``GET /clusters/{name}?binary=`` shows one.
``PUT /clusters/disable`` (``name``, ``binary``, ``disabled_reason``) and
``/clusters/enable`` change every member at once. ``cinder-volume``
(Cinder's clients' default binary) names ``volapi-volume``.
"""
import pecan
from oslo_utils import timeutils

from objects import service as service_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import clusters as schemas
from volapi.policies import clusters as policies
from volapi import request_text
from volapi.volume import cluster_states

FILTERS = ('name', 'binary', 'is_up', 'disabled', 'num_hosts',
           'num_down_hosts')
# Cinder's values for a cluster without replication.
REPLICATION = {'replication_status': 'not-capable', 'frozen': False,
               'active_backend_id': None}


def _time(value):
    return timeutils.normalize_time(value) if value else ''


def _summary(cluster, replication):
    view = {'name': cluster.name, 'binary': cluster.binary,
            'state': 'up' if cluster.is_up else 'down',
            'status': 'disabled' if cluster.disabled else 'enabled'}
    if replication:
        view['replication_status'] = REPLICATION['replication_status']
    return view


def _detail(cluster, replication):
    view = _summary(cluster, False)
    view.update(num_hosts=cluster.num_hosts,
                num_down_hosts=cluster.num_down_hosts,
                last_heartbeat=_time(cluster.last_heartbeat),
                created_at=_time(cluster.created_at),
                updated_at=_time(cluster.updated_at),
                disabled_reason=cluster.disabled_reason)
    if replication:
        view.update(REPLICATION)
    return view


def _matcher(params, replication):
    """fn(cluster, its detailed view) -> True if it passes the filters."""
    allowed = FILTERS + (tuple(REPLICATION) if replication else ())
    invalid = sorted(set(params) - set(allowed))
    if invalid:
        raise errors.BadRequest('Invalid input received: Invalid filter '
                                'keys: %s' % request_text.excerpt(
                                    ', '.join(invalid)))
    wanted = {}
    for key, value in params.items():
        if key in ('is_up', 'disabled', 'frozen'):
            wanted[key] = common.boolean_param(key, value)
        elif key in ('num_hosts', 'num_down_hosts'):
            number = request_text.integer(value)
            if number is None:
                raise errors.BadRequest('Invalid input received: %s=%s'
                                        % (key, request_text.excerpt(value)))
            wanted[key] = number
        elif key == 'binary':
            wanted[key] = service_obj.binary_named(value)
        else:
            wanted[key] = value

    def matches(cluster, view):
        known = dict(view, is_up=cluster.is_up, disabled=cluster.disabled,
                     **REPLICATION)
        return all(known[key] == value for key, value in wanted.items())
    return matches


def _listed(detailed):
    request = pecan.request
    common.require_version(request, mv.CLUSTER_SUPPORT)
    context = request.ctx
    policy.authorize(context, policies.GET_ALL)
    replication = request.api_version >= mv.REPLICATION_CLUSTER
    matches = _matcher(dict(request.GET), replication)
    views = []
    for cluster in cluster_states.get_all(context):
        detail = _detail(cluster, replication)
        if matches(cluster, detail):
            views.append(detail if detailed
                         else _summary(cluster, replication))
    return {'clusters': views}


class ClusterController:

    def __init__(self, name):
        self.name = name

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self, binary=service_obj.VOLUME_BINARY, **params):
        request = pecan.request
        common.require_version(request, mv.CLUSTER_SUPPORT)
        policy.authorize(request.ctx, policies.GET)
        found = cluster_states.get_all(
            request.ctx, name=self.name,
            binary=service_obj.binary_named(binary))
        if not found:
            raise errors.NotFound('Cluster %s could not be found.'
                                  % request_text.excerpt(self.name))
        return {'cluster': _detail(
            found[0], request.api_version >= mv.REPLICATION_CLUSTER)}


class ClustersController(rest.Listing):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    def listed(self, detailed):
        return _listed(detailed)

    def member(self, name):
        return ClusterController(name)

    enable = rest.by_method()
    disable = rest.by_method()

    @enable.when(method='PUT')
    @rest.json(200)
    def put_enable(self):
        return _set_disabled(schemas.enable_cluster, False)

    @disable.when(method='PUT')
    @rest.json(200)
    def put_disable(self):
        return _set_disabled(schemas.disable_cluster, True)


def _set_disabled(schema, disabled):
    request = pecan.request
    common.require_version(request, mv.CLUSTER_SUPPORT)
    context = request.ctx
    policy.authorize(context, policies.UPDATE)
    body = validation.parse_body(request)
    validation.validate(schema, body)
    name = body['name']
    binary = service_obj.binary_named(
        body.get('binary') or service_obj.VOLUME_BINARY)
    reason = (body.get('disabled_reason') or '').strip() or None
    changed = cluster_states.set_disabled(context, name, binary, disabled,
                                          reason)
    # Read again for the answer: its members may have gone meanwhile.
    found = changed and cluster_states.get_all(context, name=name,
                                               binary=binary)
    if not found:
        raise errors.NotFound('Cluster %s could not be found.'
                              % request_text.excerpt(name))
    view = _summary(found[0], request.api_version >= mv.REPLICATION_CLUSTER)
    view['disabled_reason'] = reason
    return {'cluster': view}
