"""volapi's versioned objects. ``register_all()`` imports every module so
that ``objects.Volume`` etc. exist."""


def register_all():
    # Importing a module registers its objects (VolapiObjectRegistry).
    __import__('objects.volume')
