"""/v3/[{project_id}/]manageable_volumes (3.8+) and /os-volume-manage
(admin): the storage a backend could manage, listed as Cinder lists it,
and ``cinder manage`` (volapi.volume.manage). ``cinder unmanage`` is the
volume action os-unmanage.

A list names its backend with ``host`` or, from 3.17, ``cluster`` (one
and only one); it takes ``marker`` (a reference, as JSON), ``limit``,
``offset`` and ``sort`` by ``reference`` or ``size``.
"""
import pecan
from oslo_utils import strutils

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import volume_manage as schemas
from volapi.api.views import volumes as views
from volapi.policies import manageable_volumes as policies
from volapi.volume import manage

SUMMARY_FIELDS = ('reference', 'size', 'safe_to_manage')


def listed(minimum, detailed, rule=policies.LIST, lister=manage.manageable,
           key='manageable-volumes', summary_fields=SUMMARY_FIELDS):
    """The body of a GET of manageable volumes (or, with the other
    arguments, snapshots): ``rule`` authorized, ``lister`` asked as
    manage.manageable, ``summary_fields`` of each entry without
    ``detailed``."""
    request = pecan.request
    common.require_version(request, minimum)
    context = request.ctx
    policy.authorize(context, rule)
    params = dict(request.GET)
    cluster_name, host = common.cluster_host(request, params,
                                             mv.MANAGE_EXISTING_CLUSTER)
    limit, marker, offset = common.pagination_params(params)
    keys, dirs = common.sort_params(params, default_key='reference')
    invalid = [key for key in keys if key not in manage.SORT_KEYS]
    if invalid:
        raise errors.BadRequest('Invalid input received: Invalid sort keys '
                                'passed: %s' % ', '.join(invalid))
    entries = lister(
        context, host=host, cluster_name=cluster_name, marker=marker,
        limit=limit, offset=offset, sort_keys=keys, sort_dirs=dirs)
    if not detailed:
        entries = [{k: e[k] for k in summary_fields} for e in entries]
    return {key: entries}


class ManageableVolumesController:
    """The same resource under both of Cinder's names; ``minimum`` is the
    microversion its name came with."""

    def __init__(self, minimum=mv.MIN_VERSION):
        self.minimum = tuple(minimum)

    index = rest.by_method()
    detail = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return listed(self.minimum, detailed=False)

    @detail.when(method='GET')
    @rest.json(200)
    def get_detail(self, **params):
        return listed(self.minimum, detailed=True)

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create_v316,
                       min_version=mv.VOLUME_MIGRATE_CLUSTER)
    @validation.schema(schemas.create,
                       max_version=mv.prior(mv.VOLUME_MIGRATE_CLUSTER))
    def create(self, body):
        request = pecan.request
        common.require_version(request, self.minimum)
        context = request.ctx
        policy.authorize(context, policies.MANAGE)
        spec = body['volume']
        cluster_name, host = common.cluster_host(request, spec,
                                                 mv.VOLUME_MIGRATE_CLUSTER)
        volume = manage.manage(
            context, spec['ref'], host=host, cluster_name=cluster_name,
            name=(spec.get('name') or '').strip() or None,
            description=(spec.get('description') or '').strip() or None,
            volume_type=spec.get('volume_type'),
            metadata=spec.get('metadata'),
            availability_zone=spec.get('availability_zone'),
            bootable=strutils.bool_from_string(spec.get('bootable', False),
                                               strict=True),
            version=request.api_version)
        return views.show(request, volume)
