"""/v3/[{project_id}/]workers/cleanup (3.24, admin): repair the operations
in flight of dead volume services (volapi.volume.cleanup)."""
import pecan
from oslo_utils import strutils

from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.api import validation
from volapi.api.schemas import workers as schemas
from volapi.api.views import workers as views
from volapi.policies import workers as policies
from volapi.volume import cleanup as volume_cleanup
from volapi.volume.transitions import table

# Cinder's: what a cleanup may be narrowed to.
RESOURCE_TYPES = (table.WORKER_TYPES['snapshot'],
                  table.WORKER_TYPES['volume'])


def _filters(body):
    filters = {k: v for k, v in body.items() if v is not None}
    for name in ('is_up', 'disabled'):
        if name in filters:
            filters[name] = strutils.bool_from_string(filters[name],
                                                      strict=True)
    if 'resource_type' in filters:
        resource_type = filters['resource_type'].title()
        if resource_type not in RESOURCE_TYPES:
            raise errors.BadRequest(
                'Invalid input received: Resource type %s not valid, must '
                'be %s' % (filters['resource_type'],
                           ' or '.join(RESOURCE_TYPES)))
        filters['resource_type'] = resource_type
    return filters


class WorkersController:

    cleanup = rest.by_method()

    @cleanup.when(method='POST')
    @rest.json(202)
    def post_cleanup(self, **params):
        request = pecan.request
        common.require_version(request, mv.WORKERS_CLEANUP)
        context = request.ctx
        policy.authorize(context, policies.CLEANUP)
        body = validation.parse_body(request) if request.body else {}
        validation.validate(schemas.cleanup, body)
        cleaning, unavailable = volume_cleanup.cleanup(context,
                                                       _filters(body))
        return views.cleanup(cleaning, unavailable)
