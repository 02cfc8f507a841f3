"""volapi.collector.paused holds the garbage collector off and puts it
back as it was."""
import gc

from tests import base
from volapi import collector


class PausedTest(base.TestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(gc.enable if gc.isenabled() else gc.disable)

    def test_off_inside_on_after(self):
        gc.enable()
        with collector.paused():
            self.assertFalse(gc.isenabled())
        self.assertTrue(gc.isenabled())

    def test_on_again_after_an_error(self):
        gc.enable()
        with self.assertRaises(ValueError):
            with collector.paused():
                raise ValueError()
        self.assertTrue(gc.isenabled())

    def test_left_off_if_it_was_off(self):
        gc.disable()
        with collector.paused():
            self.assertFalse(gc.isenabled())
        self.assertFalse(gc.isenabled())

    def test_no_collection_inside(self):
        gc.enable()
        collections = []

        def count(phase, info):
            if phase == 'start':
                collections.append(info['generation'])
        gc.callbacks.append(count)
        self.addCleanup(gc.callbacks.remove, count)
        with collector.paused():
            garbage = [[i] for i in range(50000)]
            del garbage
        self.assertEqual([], collections)
