"""The private parts of oslo.versionedobjects volapi uses, in one place;
tests/unit/test_objects_library_compat.py fails when one changes.

- ``oslo_versionedobjects.base._get_attrname(name)``: the instance
  attribute an object keeps field ``name``'s value in. A list of volumes
  sets it directly (objects.volume_list), without running each value
  through its field's coercion: the row's values already have the fields'
  types, and coercion is most of the CPU a list costs. It is a prefix and
  the name: objects.base's ``obj_attr_is_set`` joins them itself.
"""
from oslo_versionedobjects import base as ovo_base

FIELD_ATTRIBUTE_PREFIX = ovo_base._get_attrname('')


def field_attribute(name):
    """The attribute holding the value of field ``name``."""
    return FIELD_ATTRIBUTE_PREFIX + name
