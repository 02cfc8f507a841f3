"""Default policies of the placement API, in code (oslo.policy), with
Placement's rule names.

Every rule defaults to what Placement 16.0.0's does: "admin or service",
but for ``GET /usages`` (also a reader of the project) and ``POST
/reshaper`` (services only); an operator may override any of them in the
``[oslo_policy] policy_file``. Placement has its own enforcer
(volapi.placement.policy), so these are not in volapi.policies.list_rules.
"""
from oslo_policy import policy

ADMIN_OR_SERVICE = 'admin_or_service'
SERVICE = 'service_api'
PROJECT_READER = 'project_reader_api'
ADMIN_OR_PROJECT_READER_OR_SERVICE = 'admin_or_project_reader_or_service_api'
CONTEXT_IS_ADMIN = 'context_is_admin'  # the volume API's rule of that name

RESOURCE_PROVIDERS_LIST = 'placement:resource_providers:list'
RESOURCE_PROVIDERS_CREATE = 'placement:resource_providers:create'
RESOURCE_PROVIDERS_SHOW = 'placement:resource_providers:show'
RESOURCE_PROVIDERS_UPDATE = 'placement:resource_providers:update'
RESOURCE_PROVIDERS_DELETE = 'placement:resource_providers:delete'
INVENTORIES_LIST = 'placement:resource_providers:inventories:list'
INVENTORIES_CREATE = 'placement:resource_providers:inventories:create'
INVENTORIES_SHOW = 'placement:resource_providers:inventories:show'
INVENTORIES_UPDATE = 'placement:resource_providers:inventories:update'
INVENTORIES_DELETE = 'placement:resource_providers:inventories:delete'
AGGREGATES_LIST = 'placement:resource_providers:aggregates:list'
AGGREGATES_UPDATE = 'placement:resource_providers:aggregates:update'
PROVIDER_USAGES = 'placement:resource_providers:usages'
PROVIDER_ALLOCATIONS_LIST = 'placement:resource_providers:allocations:list'
PROVIDER_TRAITS_LIST = 'placement:resource_providers:traits:list'
PROVIDER_TRAITS_UPDATE = 'placement:resource_providers:traits:update'
PROVIDER_TRAITS_DELETE = 'placement:resource_providers:traits:delete'
RESOURCE_CLASSES_LIST = 'placement:resource_classes:list'
RESOURCE_CLASSES_CREATE = 'placement:resource_classes:create'
RESOURCE_CLASSES_SHOW = 'placement:resource_classes:show'
RESOURCE_CLASSES_UPDATE = 'placement:resource_classes:update'
RESOURCE_CLASSES_DELETE = 'placement:resource_classes:delete'
TRAITS_LIST = 'placement:traits:list'
TRAITS_SHOW = 'placement:traits:show'
TRAITS_UPDATE = 'placement:traits:update'
TRAITS_DELETE = 'placement:traits:delete'
TOTAL_USAGES = 'placement:usages'
ALLOCATIONS_LIST = 'placement:allocations:list'
ALLOCATIONS_MANAGE = 'placement:allocations:manage'
ALLOCATIONS_UPDATE = 'placement:allocations:update'
ALLOCATIONS_DELETE = 'placement:allocations:delete'
RESHAPE = 'placement:reshaper:reshape'
ALLOCATION_CANDIDATES_LIST = 'placement:allocation_candidates:list'

# The rules whose default is not "admin or service".
_DEFAULTS = {
    TOTAL_USAGES: ADMIN_OR_PROJECT_READER_OR_SERVICE,
    RESHAPE: SERVICE,
}

_RULES = {
    # name: description
    RESOURCE_PROVIDERS_LIST: 'List resource providers.',
    RESOURCE_PROVIDERS_CREATE: 'Create resource provider.',
    RESOURCE_PROVIDERS_SHOW: 'Show resource provider.',
    RESOURCE_PROVIDERS_UPDATE: 'Update resource provider.',
    RESOURCE_PROVIDERS_DELETE: 'Delete resource provider.',
    INVENTORIES_LIST: 'List resource provider inventories.',
    INVENTORIES_CREATE: 'Create one resource provider inventory.',
    INVENTORIES_SHOW: 'Show resource provider inventory.',
    INVENTORIES_UPDATE: 'Update resource provider inventory.',
    INVENTORIES_DELETE: 'Delete resource provider inventory.',
    AGGREGATES_LIST: 'List resource provider aggregates.',
    AGGREGATES_UPDATE: 'Update resource provider aggregates.',
    PROVIDER_USAGES: 'List resource provider usages.',
    PROVIDER_ALLOCATIONS_LIST: 'List resource provider allocations.',
    PROVIDER_TRAITS_LIST: 'List resource provider traits.',
    PROVIDER_TRAITS_UPDATE: 'Update resource provider traits.',
    PROVIDER_TRAITS_DELETE: 'Delete resource provider traits.',
    RESOURCE_CLASSES_LIST: 'List resource classes.',
    RESOURCE_CLASSES_CREATE: 'Create resource class.',
    RESOURCE_CLASSES_SHOW: 'Show resource class.',
    RESOURCE_CLASSES_UPDATE: 'Update resource class.',
    RESOURCE_CLASSES_DELETE: 'Delete resource class.',
    TRAITS_LIST: 'List traits.',
    TRAITS_SHOW: 'Show trait.',
    TRAITS_UPDATE: 'Update trait.',
    TRAITS_DELETE: 'Delete trait.',
    TOTAL_USAGES: 'List total resource usages for a project.',
    ALLOCATIONS_LIST: 'List allocations.',
    ALLOCATIONS_MANAGE: 'Manage allocations.',
    ALLOCATIONS_UPDATE: 'Update allocations.',
    ALLOCATIONS_DELETE: 'Delete allocations.',
    RESHAPE: 'Reshape inventory and allocations.',
    ALLOCATION_CANDIDATES_LIST: 'List allocation candidates.',
}


def list_rules():
    rules = [
        policy.RuleDefault(CONTEXT_IS_ADMIN, 'role:admin',
                           description='Decides who is an administrator.'),
        policy.RuleDefault(ADMIN_OR_SERVICE, 'role:admin or role:service',
                           description='Admins and services.'),
        policy.RuleDefault(SERVICE, 'role:service',
                           description='Services.'),
        policy.RuleDefault(PROJECT_READER,
                           'role:reader and project_id:%(project_id)s',
                           description='Readers of the project.'),
        policy.RuleDefault(ADMIN_OR_PROJECT_READER_OR_SERVICE,
                           'role:admin or rule:%s or role:service'
                           % PROJECT_READER,
                           description='Admins, readers of the project and '
                                       'services.'),
    ]
    rules += [policy.RuleDefault(
        name, 'rule:%s' % _DEFAULTS.get(name, ADMIN_OR_SERVICE),
        description=description) for name, description in _RULES.items()]
    return rules
