"""What objects/library_compat.py reads inside oslo.versionedobjects is
still where a field keeps its value."""
from oslo_versionedobjects import base as ovo_base

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

    def test_whether_a_field_is_set_is_asked_as_oslo_asks(self):
        # objects.base's obj_attr_is_set, beside oslo's own.
        volume = volume_obj.Volume(None, size=5)
        for name in ('size', 'host', 'metadata', 'volume_type'):
            self.assertEqual(
                ovo_base.VersionedObject.obj_attr_is_set(volume, name),
                volume.obj_attr_is_set(name), name)
        self.assertTrue(volume.obj_attr_is_set('size'))
        self.assertFalse(volume.obj_attr_is_set('host'))
        error = self.assertRaises(AttributeError, volume.obj_attr_is_set,
                                  'sizes')
        self.assertEqual("Volume object has no attribute 'sizes'",
                         str(error))
