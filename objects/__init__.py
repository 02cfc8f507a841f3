"""volapi's versioned objects. ``register_all()`` imports every module so
that ``objects.Volume`` etc. exist."""


def register_all():
    # Importing a module registers its objects (VolapiObjectRegistry).
    __import__('objects.volume')
    __import__('objects.volume_type')
    __import__('objects.snapshot')
    __import__('objects.attachment')
    __import__('objects.service')
    __import__('objects.worker')
    __import__('objects.transfer')
    __import__('objects.qos_specs')
    __import__('objects.backup')
    __import__('objects.group_type')
    __import__('objects.group')
    __import__('objects.group_snapshot')
