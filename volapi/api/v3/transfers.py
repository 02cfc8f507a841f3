"""Volume transfers: /v3/[{project_id}/]os-volume-transfer (Cinder's
extension) and /v3/[{project_id}/]volume-transfers (its v3 controller):
create, list (summary and detail), show, delete and accept.

Both routes serve every microversion, as in Cinder; they differ in what
Cinder's two controllers differ in: ``volume-transfers`` takes
``no_snapshots`` from 3.55 and pages its lists from 3.59. The use cases
are ``volapi.volume.transfers``'s.
"""
import pecan
import sqlalchemy as sa
from oslo_utils import strutils

from db import models
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import transfers as schemas
from volapi.api.views import transfers as views
from volapi.policies import volume_transfer as policies
from volapi import request_text
from volapi.volume import transfers as transfer_api

_COLUMNS = models.Transfer.__table__.c
# What a list may be filtered and sorted by: the columns, as Cinder takes
# any of its model's (the key's salt and hash aside).
_KEYS = frozenset(c.name for c in _COLUMNS) - {'salt', 'crypt_hash'}
_PAGE_PARAMS = ('limit', 'marker', 'offset', 'sort', 'sort_key', 'sort_dir')


def _filter_value(column, value):
    """The value of a query filter for its column; None if it can match
    no row (a boolean or a time that is none)."""
    if isinstance(column.type, sa.Boolean):
        if not strutils.is_valid_boolstr(value):
            return None
        return strutils.bool_from_string(value, strict=True)
    if column.name.endswith('_at'):
        try:
            return request_text.utc_time(value)
        except ValueError:
            return None
    return value


def _filters(params):
    """{column: value} of the query filters; None when one can match
    nothing (Cinder lists nothing for a filter its model lacks)."""
    filters = {}
    for key, value in params.items():
        column = 'display_name' if key == 'name' else key
        if column not in _KEYS:
            return None
        filters[column] = _filter_value(_COLUMNS[column], value)
        if filters[column] is None:
            return None
    return filters


class TransferController:
    """/{transfers}/{transfer_id} and its accept."""

    def __init__(self, transfer_id):
        self.transfer_id = transfer_id

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.GET,
                         {'project_id': context.project_id})
        return {'transfer': views.detail(
            request, transfer_api.get(context, self.transfer_id))}

    @index.when(method='DELETE')
    @rest.json(202)
    def delete(self):
        context = pecan.request.ctx

        def authorize(volume):
            policy.authorize(context, policies.DELETE,
                             {'project_id': volume.project_id})
        transfer_api.delete(context, self.transfer_id, authorize)

    @pecan.expose()
    def accept(self, **params):
        request = pecan.request
        if request.method != 'POST':
            raise errors.MethodNotAllowed()
        context = request.ctx
        body = validation.parse_body(request)
        validation.validate(schemas.accept, body)
        policy.authorize(context, policies.ACCEPT,
                         {'project_id': context.project_id})
        transfer = transfer_api.accept(context, self.transfer_id,
                                       body['accept']['auth_key'])
        return rest.respond({'transfer': views.summary(request, transfer)},
                            202)


class TransfersController(rest.Listing):
    """/os-volume-transfer (``paged`` False: Cinder's extension) or
    /volume-transfers (True: its v3 controller)."""

    def __init__(self, paged):
        self.paged = paged

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return self.listed(detailed=False)

    def listed(self, detailed):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.GET_ALL,
                         {'project_id': context.project_id})
        params = dict(request.GET)
        all_tenants = strutils.bool_from_string(
            params.pop('all_tenants', 'false'))
        query = {'sort_keys': ('created_at', 'id'),
                 'sort_dirs': ('asc', 'asc')}
        limit = None
        if self.paged and request.api_version >= \
                mv.SUPPORT_TRANSFER_PAGINATION:
            limit, query['marker'], query['offset'] = \
                common.pagination_params(params)
            keys, dirs = common.sort_params(params)
            for key in keys:
                if key not in _KEYS:
                    raise common.invalid_sort_key(key)
            query.update(limit=limit, sort_keys=keys, sort_dirs=dirs)
            for name in _PAGE_PARAMS:
                params.pop(name, None)
        # An administrator's all_tenants list may name one project.
        project_id = params.pop('project_id', None)
        filters = _filters(params)
        if filters is None:
            return views.collection(request, [], detailed, limit)
        transfers = transfer_api.get_all(context, all_tenants, project_id,
                                         filters=filters, **query)
        return views.collection(request, transfers, detailed, limit)

    @index.when(method='POST')
    @rest.json(202)
    def create(self, **params):
        request = pecan.request
        context = request.ctx
        body = validation.parse_body(request)
        with_snapshots = self.paged and \
            request.api_version >= mv.TRANSFER_WITH_SNAPSHOTS
        validation.validate(schemas.create_v355 if with_snapshots
                            else schemas.create, body)
        spec = body['transfer']
        name = spec.get('name')

        def authorize(volume):
            policy.authorize(context, policies.CREATE,
                             {'project_id': volume.project_id})
        transfer, auth_key = transfer_api.create(
            context, spec['volume_id'],
            name=name.strip() if name is not None else None,
            no_snapshots=strutils.bool_from_string(
                spec.get('no_snapshots', False)),
            version=request.api_version, authorize=authorize)
        return views.created(request, transfer, auth_key)

    def member(self, transfer_id):
        return TransferController(transfer_id)
