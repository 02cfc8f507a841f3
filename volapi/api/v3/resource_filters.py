"""GET /resource_filters (3.33): the filters a non-admin may use on each
list, as ``cinder list-filters`` shows them. Cinder reads them from its
resource_filters.json; volapi's are the ones its list controllers serve,
read from them, so the answer cannot drift from what they accept."""
import pecan

from volapi.api import common
from volapi.api import microversion as mv
from volapi.api import rest
from volapi.api.v3 import attachments
from volapi.api.v3 import backups
from volapi.api.v3 import filters
from volapi.api.v3 import groups
from volapi.api.v3 import scheduler_stats
from volapi.api.v3 import snapshots
from volapi.api.v3 import types

RESOURCE_FILTERS = {
    'volume': tuple(filters.USER_FILTERS),
    'backup': tuple(backups.FILTERS),
    'snapshot': tuple(snapshots.FILTERS),
    'group': tuple(groups.FILTERS),
    'attachment': tuple(attachments.FILTERS),
    'message': (),
    'pool': tuple(scheduler_stats.FILTERS),
    'volume_type': tuple(types.FILTERS),
}


class ResourceFiltersController:

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        common.require_version(pecan.request, mv.RESOURCE_FILTER_CONFIG)
        wanted = params.get('resource')
        return {'resource_filters': [
            {'resource': resource, 'filters': list(names)}
            for resource, names in RESOURCE_FILTERS.items()
            if not wanted or resource == wanted]}
