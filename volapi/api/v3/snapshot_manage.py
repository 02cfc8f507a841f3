"""/v3/[{project_id}/]manageable_snapshots (3.8+) and /os-snapshot-manage
(admin): the storage a backend could take as snapshots, listed as Cinder
lists it (as manageable volumes are, volapi.api.v3.volume_manage, with
each entry's ``source_reference``), and ``cinder snapshot-manage``
(volapi.volume.snapshot_manage). ``cinder snapshot-unmanage`` is the
snapshot action os-unmanage.
"""
import pecan

from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import snapshot_manage as schemas
from volapi.api.v3 import volume_manage
from volapi.api.views import snapshots as views
from volapi.policies import manageable_snapshots as policies
from volapi.volume import snapshot_manage

SUMMARY_FIELDS = ('reference', 'size', 'safe_to_manage', 'source_reference')


def _listed(minimum, detailed):
    return volume_manage.listed(
        minimum, detailed, rule=policies.LIST,
        lister=snapshot_manage.manageable, key='manageable-snapshots',
        summary_fields=SUMMARY_FIELDS)


class ManageableSnapshotsController:
    """The same resource under both of Cinder's names; ``minimum`` is the
    microversion its name came with."""

    def __init__(self, minimum=mv.MIN_VERSION):
        self.minimum = tuple(minimum)

    index = rest.by_method()
    detail = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        return _listed(self.minimum, detailed=False)

    @detail.when(method='GET')
    @rest.json(200)
    def get_detail(self, **params):
        return _listed(self.minimum, detailed=True)

    @index.when(method='POST')
    @rest.json(202)
    @validation.schema(schemas.create)
    def create(self, body):
        request = pecan.request
        common.require_version(request, self.minimum)
        context = request.ctx
        spec = body['snapshot']
        snapshot = snapshot_manage.manage_existing(
            context, spec['volume_id'], spec['ref'],
            name=spec.get('name'), description=spec.get('description'),
            metadata=spec.get('metadata'), version=request.api_version,
            authorize=policy.authorizer(context, policies.MANAGE))
        return views.show(request, snapshot, dict(spec.get('metadata')
                                                  or {}))
