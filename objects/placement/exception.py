"""What the placement objects raise. The API layer turns each into the
status and error code Placement uses; the messages are Placement's too,
because clients (nova's report client among them) match some of them."""


class PlacementError(Exception):
    msg_fmt = 'An unknown exception occurred.'

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        super().__init__(message or self.msg_fmt % kwargs)

    def format_message(self):
        return self.args[0]


class NotFound(PlacementError):
    msg_fmt = 'Resource could not be found.'


class ConcurrentUpdateDetected(PlacementError):
    msg_fmt = ('Another thread concurrently updated the data. '
               'Please retry your update')


class ResourceProviderConcurrentUpdateDetected(ConcurrentUpdateDetected):
    msg_fmt = ('Another thread concurrently updated the resource provider '
               'data. Please retry your update')


class ObjectActionError(PlacementError):
    msg_fmt = 'Object action %(action)s failed because: %(reason)s'


class ResourceProviderNotFound(NotFound):
    msg_fmt = 'No resource provider with uuid %(uuid)s found'


class ResourceProviderExists(PlacementError):
    """A provider with this name or uuid already exists; ``columns`` says
    which, as oslo.db's DBDuplicateEntry does."""

    def __init__(self, columns):
        self.columns = columns
        super().__init__('Resource provider exists: %s' % ', '.join(columns))


class ResourceProviderInUse(PlacementError):
    msg_fmt = 'Resource provider has allocations.'


class CannotDeleteParentResourceProvider(PlacementError):
    msg_fmt = ('Cannot delete resource provider that is a parent of '
               'another. Delete child providers first.')


class InvalidInventoryCapacity(PlacementError):
    msg_fmt = ("Invalid inventory for '%(resource_class)s' on "
               "resource provider '%(resource_provider)s'. "
               "The reserved value is greater than or equal to total.")


class InvalidInventoryCapacityReservedCanBeTotal(InvalidInventoryCapacity):
    msg_fmt = ("Invalid inventory for '%(resource_class)s' on "
               "resource provider '%(resource_provider)s'. "
               "The reserved value is greater than total.")


class InvalidInventoryUnits(PlacementError):
    msg_fmt = ("Invalid inventory for '%(resource_class)s' on "
               "resource provider '%(resource_provider)s'. %(reason)s")


class InventoryInUse(PlacementError):
    # nova's report client matches this message; it must not change.
    msg_fmt = ("Inventory for '%(resource_classes)s' on "
               "resource provider '%(resource_provider)s' in use.")


class InventoryExists(PlacementError):
    msg_fmt = ("Inventory for '%(resource_class)s' on resource provider "
               "'%(resource_provider)s' already exists.")


class InventoryWithResourceClassNotFound(NotFound):
    msg_fmt = 'No inventory of class %(resource_class)s found.'


class InventoryNotFoundForDelete(NotFound):
    msg_fmt = 'No inventory of class %(resource_class)s found for delete'


class ResourceClassNotFound(NotFound):
    msg_fmt = 'No such resource class %(resource_class)s.'


class ResourceClassExists(PlacementError):
    msg_fmt = 'Resource class %(resource_class)s already exists.'


class ResourceClassCannotDeleteStandard(PlacementError):
    msg_fmt = 'Cannot delete standard resource class %(resource_class)s.'


class ResourceClassCannotUpdateStandard(PlacementError):
    msg_fmt = 'Cannot update standard resource class %(resource_class)s.'


class ResourceClassInUse(PlacementError):
    msg_fmt = ('Cannot delete resource class %(resource_class)s. '
               'Class is in use in inventory.')


class TraitNotFound(NotFound):
    msg_fmt = 'No such trait(s): %(names)s.'


class TraitExists(PlacementError):
    msg_fmt = 'The Trait %(name)s already exists'


class TraitCannotDeleteStandard(PlacementError):
    msg_fmt = 'Cannot delete standard trait %(name)s.'


class TraitInUse(PlacementError):
    msg_fmt = 'The trait %(name)s is in use by a resource provider.'
