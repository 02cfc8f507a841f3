"""The resource provider named by a request path's ``{uuid}``, or a 404
with Placement's words for it."""
import webob.exc

from objects.placement import exception
from objects.placement import resource_provider as rp_obj

NOT_FOUND = 'No resource provider with uuid %(uuid)s found: %(error)s'
# Placement's inventory handlers put a space before the colon.
NOT_FOUND_FOR_INVENTORY = \
    'No resource provider with uuid %(uuid)s found : %(error)s'


def provider(req, message=NOT_FOUND):
    uuid = req.path_item('uuid')
    try:
        return rp_obj.get_by_uuid(req.context, uuid)
    except exception.NotFound as exc:
        raise webob.exc.HTTPNotFound(message % {'uuid': uuid, 'error': exc})
