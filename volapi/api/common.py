"""Query parameters every list takes (limit, marker, offset, sort), the
links a view carries and the actions of snapshots and backups, as Cinder's
api/common.py has them."""
import urllib.parse

import pecan
from oslo_utils import strutils

from volapi.api import errors
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi import conf as volapi_conf
from volapi import request_text

CONF = volapi_conf.CONF
SORT_DIRECTIONS = ('asc', 'desc')
DB_MAX_INT = 0x7FFFFFFF
# What a column holds of a project id or a quota class name.
MAX_NAME_LENGTH = 255


def _non_negative_int(params, name):
    value = params.get(name)
    if value is None:
        return None
    number = request_text.integer(value)
    if number is None:
        raise errors.BadRequest('%s param must be an integer' % name)
    if number < 0:
        raise errors.BadRequest('%s param must be positive' % name)
    if number > DB_MAX_INT:
        raise errors.BadRequest('%s param must be less than or equal to %d'
                                % (name, DB_MAX_INT))
    return number


def pagination_params(params):
    """(limit, marker, offset) from the query; limit is capped at
    [api] osapi_max_limit."""
    limit = _non_negative_int(params, 'limit')
    max_limit = CONF.api.osapi_max_limit
    limit = max_limit if limit is None else min(limit, max_limit)
    offset = _non_negative_int(params, 'offset')
    return limit, params.get('marker'), offset


# The parameters of a list's paging and order, apart from its filters.
PAGING = ('limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir')


def filtered_listing(params, sort_keys, filters):
    """(all_tenants, the get_all arguments: filters, limit, marker,
    offset, sort_keys, sort_dirs) of a list's query ``params`` (a dict,
    consumed), which sorts by ``sort_keys`` and filters by ``filters``;
    any other parameter is Cinder's 400."""
    all_tenants = strutils.bool_from_string(params.pop('all_tenants',
                                                       'false'))
    limit, marker, offset = pagination_params(params)
    keys, dirs = sort_params(params)
    for key in keys:
        if key not in sort_keys:
            raise invalid_sort_key(key)
    for name in PAGING:
        params.pop(name, None)
    unknown = sorted(set(params) - set(filters))
    if unknown:
        raise invalid_filters(unknown)
    return all_tenants, dict(filters=params, limit=limit, marker=marker,
                             offset=offset, sort_keys=keys, sort_dirs=dirs)


def invalid_sort_key(key):
    """Cinder's 400 for a sort key a list does not sort by (quoting a
    short excerpt of it)."""
    return errors.BadRequest('Invalid input received: Invalid sort key %s'
                             % request_text.excerpt(key))


def require_version(request, version):
    """Cinder's 404 for a request older than ``version``, the microversion
    a method came with."""
    if request.api_version < version:
        raise errors.NotFound('API version %d.%d is not supported on this '
                              'method.' % tuple(request.api_version)[:2])


def cluster_host(request, params, cluster_version):
    """(cluster, host): one and only one, the cluster only from
    ``cluster_version``, None: never (Cinder's get_cluster_host)."""
    if cluster_version is not None and \
            request.api_version >= cluster_version:
        cluster_name = params.get('cluster')
        message = 'One and only one of cluster and host must be set.'
    else:
        cluster_name = None
        message = 'Host field is missing.'
    host = params.get('host')
    if bool(cluster_name) == bool(host):
        raise errors.BadRequest('Invalid input received: %s' % message)
    return cluster_name, host


def boolean_param(name, value):
    """A query parameter that must be a boolean (Cinder's get_bool_param:
    its 400 names the parameter and quotes the value)."""
    if not strutils.is_valid_boolstr(value):
        raise errors.BadRequest("Value '%s' for '%s' is not a boolean."
                                % (request_text.excerpt(value), name))
    return strutils.bool_from_string(value, strict=True)


def boolean_field(value, name):
    """A body field that must be a boolean, or a string that says one."""
    if isinstance(value, bool):
        return value
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise errors.BadRequest('Invalid value %s for %s: must be a boolean.'
                                % (value, name)) from None


def type_name(spec):
    """The name of a volume or group type being made, stripped; Cinder's
    400 for one that is only white space."""
    name = spec['name'].strip()
    if not name:
        raise errors.BadRequest(
            'Invalid input for field/attribute name. Value: %s. It '
            'must not be empty or only white space.' % spec['name'])
    return name


def storable_name(name, value):
    """Cinder's check_string_length of a project id or class name the
    request stores (longer than its column: a 500 on PostgreSQL and
    MySQL)."""
    if len(value) > MAX_NAME_LENGTH:
        raise errors.BadRequest(
            'Invalid input received: %s has more than %d characters.'
            % (name, MAX_NAME_LENGTH))


def invalid_filters(names):
    """Cinder's 400 for query filters a list does not take."""
    return errors.BadRequest('Invalid filters %s are found in query '
                             'options.' % request_text.excerpt(
                                 ','.join(sorted(names))))


def no_such_action(name):
    """Cinder's 400 for an action a resource does not take."""
    return errors.BadRequest('There is no such action: %s'
                             % request_text.excerpt(name))


def run_action(actions, resource_id):
    """POST .../{id}/action of a snapshot or backup: ``actions`` maps each
    action's name to (argument schema, policy rule, handler); the handler
    runs with the rule checked on the resource's project, and the answer
    is Cinder's 202 with an empty body."""
    request = pecan.request
    name, argument = validation.parse_action(request)
    action = actions.get(name)
    if action is None:
        raise no_such_action(name)
    schema, rule, handler = action
    validation.validate(schema, argument)
    handler(request.ctx, resource_id, argument, version=request.api_version,
            authorize=policy.authorizer(request.ctx, rule))
    return rest.respond(None, 202)


def sort_params(params, default_key='created_at', default_dir='desc'):
    """(keys, dirs) from ``sort=k1:d1,k2`` or the older ``sort_key`` and
    ``sort_dir`` (which cannot be combined with ``sort``)."""
    if 'sort' in params:
        if 'sort_key' in params or 'sort_dir' in params:
            raise errors.BadRequest(
                "The 'sort_key' and 'sort_dir' parameters are deprecated "
                "and cannot be used with the 'sort' parameter.")
        keys, dirs = [], []
        for item in params['sort'].split(','):
            key, _sep, direction = item.strip().partition(':')
            keys.append(key.strip())
            dirs.append(direction.strip().lower() or default_dir)
    else:
        keys = [params.get('sort_key', default_key)]
        dirs = [params.get('sort_dir', default_dir).lower()]
    for direction in dirs:
        if direction not in SORT_DIRECTIONS:
            raise errors.BadRequest(
                "Invalid input received: Unknown sort direction, must be "
                "'desc' or 'asc'")
    return keys, dirs


def base_url(request):
    """Scheme, host and the path up to the API (no /v3)."""
    return request.host_url + request.script_name


def resource_links(request, collection, ident):
    project_id = request.ctx.project_id
    base = base_url(request)
    return [
        {'rel': 'self',
         'href': '%s/v3/%s/%s/%s' % (base, project_id, collection, ident)},
        {'rel': 'bookmark',
         'href': '%s/%s/%s/%s' % (base, project_id, collection, ident)},
    ]


def next_link(request, collection, items, limit):
    """Cinder's ``*_links``: a next page link when the page is full."""
    if not items or limit is None or len(items) < limit:
        return None
    params = [(k, v) for k, v in request.GET.items() if k != 'marker']
    params.append(('marker', items[-1]['id']))
    return [{'rel': 'next', 'href': '%s/v3/%s/%s?%s' % (
        base_url(request), request.ctx.project_id, collection,
        urllib.parse.urlencode(params))}]


def list_query(context, params, sort_columns, filter_columns,
               default_dir='desc'):
    """The arguments of an object's ``get_all`` for a list request's query
    ``params``: ``project_id`` (None, every project, for an administrator
    asking ``all_tenants``), ``filters``, the page and the order.
    ``sort_columns``/``filter_columns`` map the parameters the list takes
    to columns."""
    limit, marker, offset = pagination_params(params)
    keys, dirs = sort_params(params, default_dir=default_dir)
    try:
        sort_keys = [sort_columns[key] for key in keys]
    except KeyError as e:
        raise invalid_sort_key(e.args[0]) from None
    filters = {filter_columns[key]: value for key, value in params.items()
               if key in filter_columns}
    all_tenants = context.is_admin and strutils.bool_from_string(
        params.get('all_tenants', False))
    return {'project_id': None if all_tenants else context.project_id,
            'filters': filters, 'limit': limit, 'marker': marker,
            'offset': offset, 'sort_keys': sort_keys, 'sort_dirs': dirs}
