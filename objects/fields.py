"""Field types, re-exported so objects import one module."""
from oslo_versionedobjects.fields import *  # noqa: F401,F403
