"""What objects/library_compat.py reads inside oslo.versionedobjects is
still where a field keeps its value."""
from objects import library_compat
from objects import volume as volume_obj
from tests import base


class VersionedObjectsCompatTest(base.TestCase):

    def test_a_field_keeps_its_value_in_the_attribute(self):
        volume = volume_obj.Volume(None, size=5)
        self.assertEqual(
            5, getattr(volume, library_compat.field_attribute('size')))

    def test_a_value_set_on_the_attribute_is_the_fields(self):
        volume = volume_obj.Volume(None)
        self.assertFalse(volume.obj_attr_is_set('size'))
        object.__setattr__(volume, library_compat.field_attribute('size'), 3)
        self.assertTrue(volume.obj_attr_is_set('size'))
        self.assertEqual(3, volume.size)
