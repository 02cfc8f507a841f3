"""What volapi/api/pecan_compat.py relies on in pecan is still there: a
pecan release that changes it fails here, not in production."""
import importlib.metadata
import inspect

import pecan
import pecan.core
import pecan.routing

from tests import base
from volapi.api import pecan_compat


class PecanInternalsTest(base.TestCase):

    def test_version_is_below_the_pin(self):
        major = int(importlib.metadata.version('pecan').split('.')[0])
        self.assertEqual(1, major)

    def test_signatures_are_read_through_module_level_getargspec(self):
        for module in pecan_compat.SIGNATURE_READERS:
            self.assertTrue(callable(module.getargspec), module)
            # ... called by name inside the module, so replacing it counts.
            self.assertIn('getargspec(', inspect.getsource(module))

    def test_remembered_signatures_are_pecans(self):
        pecan_compat.remember_signatures()

        class Controller:
            def handler(self, a, b=1, *args, **kwargs):
                pass

        spec = pecan.core.getargspec(Controller().handler)
        self.assertEqual(['self', 'a', 'b'], spec.args)
        self.assertIs(spec, pecan.core.getargspec(Controller().handler))

    def test_overridden_methods_exist(self):
        for name in ('find_controller', '_handle_empty_response_body'):
            self.assertTrue(callable(getattr(pecan.core.Pecan, name)), name)
        # ... and pecan's request handling still calls the private one.
        self.assertIn('self._handle_empty_response_body(',
                      inspect.getsource(pecan.core))
        # The negotiation Pecan.find_controller skips reads this key.
        self.assertIn("pecan_state['content_type']",
                      inspect.getsource(pecan.core.PecanBase.find_controller))

    def test_request_wraps_attribute_access(self):
        # The wrapper FastRequest removes; if pecan drops it, so can we.
        self.assertIn('__getattribute__', vars(pecan.Request))
        self.assertIs(object.__getattribute__,
                      pecan_compat.FastRequest.__getattribute__)
