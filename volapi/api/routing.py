"""Object dispatch over volapi's controllers, without pecan's per-hop costs.

pecan's ``lookup_controller`` walks the same objects, but at every hop it
lists the controller's attributes (``dir()``) to look for custom routes and
reaches each ``_lookup`` by raising and catching an exception: about a
tenth of the CPU an ``os-reserve`` costs. volapi's controllers use three
things only, and :func:`walk` follows exactly those, in pecan's order:

- an attribute named by the segment: an exposed method serves the rest of
  the path, a child controller is walked into;
- ``index`` (often generic, per HTTP method) at the end of the path;
- ``_lookup(segment, *rest)`` when no attribute matches, returning the
  next controller and the segments left.

Names starting with ``_`` are never routed. Anything else is a 404.
"""
import functools

from pecan import util as pecan_util

from volapi.api import errors


@functools.lru_cache(maxsize=None)
def _is_controller_class(cls):
    """A class with an exposed method: something to walk into."""
    return any(pecan_util.iscontroller(getattr(cls, name, None))
               for name in dir(cls))


def walk(node, segments):
    """The exposed method serving ``segments`` below controller ``node``,
    and the segments it takes as arguments."""
    segments = list(segments)
    while True:
        if not segments or segments == ['']:
            index = getattr(node, 'index', None)
            if pecan_util.iscontroller(index):
                return index, []
            raise errors.NotFound()
        head = segments[0]
        child = None if head.startswith('_') else getattr(node, head, None)
        if pecan_util.iscontroller(child):
            return child, segments[1:]
        if child is not None and _is_controller_class(type(child)):
            node, segments = child, segments[1:]
            continue
        lookup = getattr(node, '_lookup', None)
        if not pecan_util.iscontroller(lookup) or not head:
            raise errors.NotFound()
        node, segments = lookup(*segments)
