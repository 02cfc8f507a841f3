"""The file driver, slowed down for the fault suite: each storage
operation takes ``VOLAPI_FAULT_DRIVER_DELAY`` seconds (default 1), half
before and half after the work, so that a worker killed at a random moment
is often inside one, with the work not done yet or done but not recorded."""
import os
import time

from volapi.volume.drivers import file


def _pause():
    time.sleep(float(os.environ.get('VOLAPI_FAULT_DRIVER_DELAY', '1')) / 2)


def _slowed(name):
    def method(self, *args, **kwargs):
        _pause()
        result = getattr(file.FileDriver, name)(self, *args, **kwargs)
        _pause()
        return result
    method.__name__ = name
    return method


class SlowFileDriver(file.FileDriver):
    """FileDriver whose operations that change storage take a while."""


for _name in ('create_volume', 'delete_volume', 'extend_volume',
              'create_snapshot', 'delete_snapshot'):
    setattr(SlowFileDriver, _name, _slowed(_name))
