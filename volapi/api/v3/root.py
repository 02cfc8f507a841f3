"""/v3: the resources, with or without a project id in the URL."""
import pecan

from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import routing
from volapi.api.v3 import attachments
from volapi.api.v3 import availability_zones
from volapi.api.v3 import backups
from volapi.api.v3 import capabilities
from volapi.api.v3 import clusters
from volapi.api.v3 import default_types
from volapi.api.v3 import extensions
from volapi.api.v3 import group_snapshots
from volapi.api.v3 import group_types
from volapi.api.v3 import groups
from volapi.api.v3 import limits
from volapi.api.v3 import messages
from volapi.api.v3 import qos_specs
from volapi.api.v3 import quotas
from volapi.api.v3 import resource_filters
from volapi.api.v3 import scheduler_stats
from volapi.api.v3 import services
from volapi.api.v3 import snapshot_manage
from volapi.api.v3 import snapshots
from volapi.api.v3 import transfers
from volapi.api.v3 import types
from volapi.api.v3 import volume_manage
from volapi.api.v3 import volumes
from volapi.api.v3 import workers
from volapi import request_text


class Resources:
    """What /v3/ and /v3/{project_id}/ both serve."""

    def __init__(self):
        self.volumes = volumes.VolumesController()
        self.types = types.TypesController()
        self.snapshots = snapshots.SnapshotsController()
        self.backups = backups.BackupsController()
        self.attachments = attachments.AttachmentsController()
        self.workers = workers.WorkersController()
        self.limits = limits.LimitsController()
        self.messages = messages.MessagesController()
        self.clusters = clusters.ClustersController()
        self.extensions = extensions.ExtensionsController()
        self.capabilities = capabilities.CapabilitiesController()
        self.groups = groups.GroupsController()
        self.group_types = group_types.GroupTypesController()
        self.group_snapshots = group_snapshots.GroupSnapshotsController()
        self.manageable_volumes = volume_manage.ManageableVolumesController(
            mv.MANAGE_EXISTING_LIST)
        self.manageable_snapshots = \
            snapshot_manage.ManageableSnapshotsController(
                mv.MANAGE_EXISTING_LIST)
        self.resource_filters = resource_filters.ResourceFiltersController()
        # Cinder's names are not identifiers.
        setattr(self, 'default-types',
                default_types.DefaultTypesController())
        setattr(self, 'os-quota-sets', quotas.QuotaSetsController())
        setattr(self, 'os-quota-class-sets',
                quotas.QuotaClassSetsController())
        setattr(self, 'os-services', services.ServicesController())
        setattr(self, 'os-availability-zone',
                availability_zones.AvailabilityZonesController())
        setattr(self, 'scheduler-stats',
                scheduler_stats.SchedulerStatsController())
        setattr(self, 'os-volume-transfer',
                transfers.TransfersController(paged=False))
        setattr(self, 'volume-transfers',
                transfers.TransfersController(paged=True))
        setattr(self, 'qos-specs', qos_specs.QosSpecsController())
        setattr(self, 'os-volume-manage',
                volume_manage.ManageableVolumesController())
        setattr(self, 'os-snapshot-manage',
                snapshot_manage.ManageableSnapshotsController())


class V3Controller:

    def __init__(self):
        self._resources = Resources()
        self._names = frozenset(vars(self._resources))

    @pecan.expose()
    def _route(self, args, request):
        """``/v3/[{project_id}/]<resource>/...``: a project id in the URL
        must be the caller's (Cinder's 400 "Malformed request url"); a
        resource volapi does not serve is Cinder's 404, whether or not a
        project id comes first."""
        _refuse_repeated_parameters(request)
        if args and args[0] not in self._names:
            if args[0] == request.ctx.project_id:
                args = args[1:]
            elif len(args) > 1 and args[1] in self._names:
                raise errors.BadRequest('Malformed request url')
            else:
                raise errors.NotFound()
            if not args:
                raise errors.NotFound()
        return routing.walk(self._resources, args)


def _refuse_repeated_parameters(request):
    # Cinder reads one value per query parameter; a repeated one would
    # reach handlers as a list (pecan passes lists for them).
    names = [name for name, _value in request.GET.items()]
    if len(names) != len(set(names)):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise errors.BadRequest(
            'Invalid input received: query parameter %s given more than '
            'once' % request_text.excerpt(', '.join(repeated)))


class RootController:

    def __init__(self):
        self.v3 = V3Controller()
