"""Volume drivers: the storage work of a volume worker (see doc/drivers.md).

``load(conf)`` builds the driver named by ``[volume] volume_driver``.
"""
from oslo_utils import importutils


def load(conf):
    return importutils.import_object(conf.volume.volume_driver, conf)
