"""Error codes of placement error bodies (``errors[].code``, from 1.23).

A handler attaches one to the webob exception it raises with ``comment=``:
``raise webob.exc.HTTPConflict(msg, comment=errors.CONCURRENT_UPDATE)``;
the application moves it into the body (and out of the human text). These
strings are API: they are Placement's and never change.
"""

DEFAULT = 'placement.undefined_code'
INVENTORY_INUSE = 'placement.inventory.inuse'
CONCURRENT_UPDATE = 'placement.concurrent_update'
DUPLICATE_NAME = 'placement.duplicate_name'
PROVIDER_IN_USE = 'placement.resource_provider.inuse'
PROVIDER_CANNOT_DELETE_PARENT = (
    'placement.resource_provider.cannot_delete_parent')
RESOURCE_PROVIDER_NOT_FOUND = 'placement.resource_provider.not_found'
ILLEGAL_DUPLICATE_QUERYPARAM = 'placement.query.duplicate_key'
QUERYPARAM_BAD_VALUE = 'placement.query.bad_value'
QUERYPARAM_MISSING_VALUE = 'placement.query.missing_value'
ALLOCATION_NOT_FOUND = 'placement.allocation.not_found'
