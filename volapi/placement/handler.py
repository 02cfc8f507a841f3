"""The placement URL map and the dispatcher that walks it.

``ROUTE_DECLARATIONS`` maps each path (``{name}`` marks a path item, any
characters but ``/``) to ``{HTTP method: 'module.function'}``, the module
being under ``volapi.placement.handlers``. Handlers are imported on first
use, so one module missing (or failing to import) costs only its own
routes, which then answer 404 as unknown resources do. A known path with an
undeclared method answers 405 with ``Allow``.
"""
import importlib
import re

from oslo_log import log as logging
import webob.exc

LOG = logging.getLogger(__name__)

HANDLERS_PACKAGE = 'volapi.placement.handlers'

ROUTE_DECLARATIONS = {
    # '' too: mounted under a prefix, '/placement' and '/placement/' are
    # both the root.
    '': {'GET': 'root.home'},
    '/': {'GET': 'root.home'},
    '/resource_classes': {
        'GET': 'resource_class.list_resource_classes',
        'POST': 'resource_class.create_resource_class',
    },
    '/resource_classes/{name}': {
        'GET': 'resource_class.get_resource_class',
        'PUT': 'resource_class.update_resource_class',
        'DELETE': 'resource_class.delete_resource_class',
    },
    '/resource_providers': {
        'GET': 'resource_provider.list_resource_providers',
        'POST': 'resource_provider.create_resource_provider',
    },
    '/resource_providers/{uuid}': {
        'GET': 'resource_provider.get_resource_provider',
        'DELETE': 'resource_provider.delete_resource_provider',
        'PUT': 'resource_provider.update_resource_provider',
    },
    '/resource_providers/{uuid}/inventories': {
        'GET': 'inventory.get_inventories',
        'POST': 'inventory.create_inventory',
        'PUT': 'inventory.set_inventories',
        'DELETE': 'inventory.delete_inventories',
    },
    '/resource_providers/{uuid}/inventories/{resource_class}': {
        'GET': 'inventory.get_inventory',
        'PUT': 'inventory.update_inventory',
        'DELETE': 'inventory.delete_inventory',
    },
    '/resource_providers/{uuid}/usages': {
        'GET': 'usage.list_usages',
    },
    '/resource_providers/{uuid}/aggregates': {
        'GET': 'aggregate.get_aggregates',
        'PUT': 'aggregate.set_aggregates',
    },
    '/resource_providers/{uuid}/allocations': {
        'GET': 'allocation.list_for_resource_provider',
    },
    '/allocations': {
        'POST': 'allocation.set_allocations',
    },
    '/allocations/{consumer_uuid}': {
        'GET': 'allocation.list_for_consumer',
        'PUT': 'allocation.set_allocations_for_consumer',
        'DELETE': 'allocation.delete_allocations',
    },
    '/traits': {
        'GET': 'trait.list_traits',
    },
    '/traits/{name}': {
        'GET': 'trait.get_trait',
        'PUT': 'trait.put_trait',
        'DELETE': 'trait.delete_trait',
    },
    '/resource_providers/{uuid}/traits': {
        'GET': 'trait.list_traits_for_resource_provider',
        'PUT': 'trait.update_traits_for_resource_provider',
        'DELETE': 'trait.delete_traits_for_resource_provider',
    },
    '/usages': {
        'GET': 'usage.get_total_usages',
    },
    '/reshaper': {
        'POST': 'reshaper.reshape',
    },
    '/allocation_candidates': {
        'GET': 'allocation_candidate.list_allocation_candidates',
    },
}

_ITEM = re.compile(r'\{(\w+)\}')


def _not_found(req):
    raise webob.exc.HTTPNotFound()


class _Route:
    __slots__ = ('targets', 'allow', '_resolved')

    def __init__(self, targets):
        self.targets = targets
        self.allow = ', '.join(targets)
        self._resolved = {}

    def handler(self, method):
        """The function serving ``method``, or None if none is declared."""
        try:
            return self._resolved[method]
        except KeyError:
            pass
        target = self.targets.get(method)
        if target is None:
            return None
        fn = resolve(target)
        self._resolved[method] = fn
        return fn


def resolve(target):
    module_name, _, function_name = target.rpartition('.')
    full_name = '%s.%s' % (HANDLERS_PACKAGE, module_name)
    try:
        return getattr(importlib.import_module(full_name), function_name)
    except ModuleNotFoundError as exc:
        if exc.name != full_name:
            raise  # the module exists but is broken: let that be seen
    except AttributeError:
        pass
    # A part of the API not built (yet): the route does not exist.
    LOG.warning('placement handler %s is not available; its route '
                'answers 404', target)
    return _not_found


class Router:
    """Finds the route of a path: static paths by dictionary lookup, the
    others by one regular expression each."""

    def __init__(self, declarations=None):
        declarations = ROUTE_DECLARATIONS if declarations is None \
            else declarations
        self._static = {}
        self._dynamic = []
        for path, targets in declarations.items():
            route = _Route(dict(targets))
            if _ITEM.search(path):
                pattern = '^%s$' % _ITEM.sub(
                    r'(?P<\1>[^/]+)', re.escape(path).replace(
                        r'\{', '{').replace(r'\}', '}'))
                self._dynamic.append((re.compile(pattern), route))
            else:
                self._static[path] = route

    def match(self, path):
        """(route, path items) for ``path``, or (None, None)."""
        route = self._static.get(path)
        if route is not None:
            return route, {}
        for pattern, route in self._dynamic:
            found = pattern.match(path)
            if found:
                return route, found.groupdict()
        return None, None
