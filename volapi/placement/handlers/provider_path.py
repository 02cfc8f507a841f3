"""The resource provider named by a request path's ``{uuid}``, or a 404
with Placement's words for it; a 409 when a write names a generation the
provider is past."""
import webob.exc

from objects.placement import exception
from objects.placement import resource_provider as rp_obj
from volapi.placement import errors

NOT_FOUND = 'No resource provider with uuid %(uuid)s found: %(error)s'
# Placement's inventory handlers put a space before the colon.
NOT_FOUND_FOR_INVENTORY = \
    'No resource provider with uuid %(uuid)s found : %(error)s'
GENERATION_CHANGED = ("Resource provider's generation already changed. "
                      "Please update the generation and try again.")


def provider(req, message=NOT_FOUND):
    uuid = req.path_item('uuid')
    try:
        return rp_obj.get_by_uuid(req.context, uuid)
    except exception.NotFound as exc:
        raise webob.exc.HTTPNotFound(message % {'uuid': uuid, 'error': exc})


def check_generation(provider, generation, message=GENERATION_CHANGED):
    """409 ``placement.concurrent_update`` unless ``provider`` is at
    ``generation``."""
    if provider.generation != generation:
        raise webob.exc.HTTPConflict(message,
                                     comment=errors.CONCURRENT_UPDATE)
