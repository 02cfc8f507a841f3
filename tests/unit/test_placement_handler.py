"""The placement router: static and templated paths, methods, and routes
whose handler module does not exist."""
import webob.exc

from tests import base
from volapi.placement import handler


class TestRouter(base.TestCase):

    def setUp(self):
        super().setUp()
        self.router = handler.Router()

    def test_static_and_templated(self):
        route, items = self.router.match('/resource_providers')
        self.assertEqual({}, items)
        self.assertEqual('GET, POST', route.allow)
        route, items = self.router.match(
            '/resource_providers/abc/inventories/DISK_GB')
        self.assertEqual({'uuid': 'abc', 'resource_class': 'DISK_GB'}, items)
        self.assertEqual('GET, PUT, DELETE', route.allow)

    def test_root_with_and_without_slash(self):
        for path in ('', '/'):
            route, _ = self.router.match(path)
            self.assertIsNotNone(route.handler('GET'))

    def test_no_match(self):
        for path in ('/nope', '/resource_providers/a/b', '/traits/',
                     '/resource_providers//inventories'):
            self.assertEqual((None, None), self.router.match(path))

    def test_undeclared_method(self):
        route, _ = self.router.match('/traits')
        self.assertIsNone(route.handler('POST'))

    def test_missing_handler_module_is_404(self):
        router = handler.Router({'/x': {'GET': 'no_such_module.fn'},
                                 '/y': {'GET': 'root.no_such_function'}})
        for path in ('/x', '/y'):
            route, _ = router.match(path)
            self.assertRaises(webob.exc.HTTPNotFound,
                              route.handler('GET'), None)

    def test_every_declared_handler_of_ours_resolves(self):
        ours = ('root', 'resource_class', 'resource_provider', 'inventory',
                'trait', 'aggregate', 'usage')
        for targets in handler.ROUTE_DECLARATIONS.values():
            for target in targets.values():
                if target.split('.')[0] in ours:
                    self.assertIsNot(handler._not_found,
                                     handler.resolve(target), target)
