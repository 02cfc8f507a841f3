"""Field types, re-exported so objects import one module."""
from oslo_versionedobjects.fields import *  # noqa: F401,F403

from oslo_versionedobjects import fields as _ovo_fields  # noqa: E402


class DateTime(_ovo_fields.DateTime):
    """oslo's DateTime drops the microseconds on the wire (RPC). Objects
    compare the timestamps they loaded in a compare-and-swap, so an object
    that crossed RPC must keep them."""

    def to_primitive(self, obj, attr, value):
        return value.isoformat()


class DateTimeField(_ovo_fields.DateTimeField):  # noqa: F811
    def __init__(self, tzinfo_aware=True, **kwargs):
        # As oslo's __init__, with our DateTime as the type.
        self.AUTO_TYPE = DateTime(tzinfo_aware=tzinfo_aware)
        _ovo_fields.AutoTypedField.__init__(self, **kwargs)
