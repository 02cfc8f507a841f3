"""/v3/[{project_id}/]scheduler-stats/get_pools (admin): the pools volumes
are scheduled to, read from placement (volapi.volume.pool_stats).

``?detail=True`` adds each pool's capabilities. As Cinder: from 3.28 the
pools may be filtered by ``name`` (another filter is a 400), from 3.35 by
``volume_type`` (name or id: the pools with every trait the type
requires); before those versions the filters are ignored.
"""
import pecan

from objects import volume_type as type_obj
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.policies import scheduler_stats as policies
from volapi import request_text
from volapi.volume import pool_stats

FILTERS = ('name', 'volume_type')


def _filters(request):
    """{name: value} of the filters the request's version takes."""
    filters = {k: v for k, v in request.GET.items() if k != 'detail'}
    if request.api_version < mv.POOL_FILTER:
        return {}
    invalid = [name for name in filters if name not in FILTERS]
    if invalid:
        raise common.invalid_filters(invalid)
    if request.api_version < mv.POOL_TYPE_FILTER:
        filters.pop('volume_type', None)
    return filters


def _extra_specs(context, ident):
    try:
        return type_obj.VolumeType.get(context, ident).extra_specs
    except type_obj.VolumeTypeNotFound:
        raise errors.NotFound('Volume type %s could not be found.'
                              % request_text.excerpt(ident)) from None


class SchedulerStatsController:

    get_pools = rest.by_method()

    @get_pools.when(method='GET')
    @rest.json(200)
    def list_pools(self, **params):
        request = pecan.request
        context = request.ctx
        policy.authorize(context, policies.GET_POOLS)
        detail = common.boolean_param('detail',
                                      request.GET.get('detail', 'False'))
        filters = _filters(request)
        extra_specs = None
        if 'volume_type' in filters:
            extra_specs = _extra_specs(context, filters['volume_type'])
        pools = pool_stats.get_pools(context, name=filters.get('name'),
                                     extra_specs=extra_specs)
        if not detail:
            pools = [{'name': pool['name']} for pool in pools]
        return {'pools': pools}
