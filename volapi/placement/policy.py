"""Placement's policy rules (oslo.policy) and their enforcement.

Every rule defaults to what Placement 16.0.0's does: "admin or service",
but for ``GET /usages`` (also a reader of the project) and ``POST
/reshaper`` (services only); an operator may override any of them in the
``[oslo_policy] policy_file``. Rule names are Placement's.
"""
import threading

from oslo_policy import policy

from volapi import policy_decisions

ADMIN_OR_SERVICE = 'admin_or_service'
SERVICE = 'service_api'
PROJECT_READER = 'project_reader_api'
ADMIN_OR_PROJECT_READER_OR_SERVICE = 'admin_or_project_reader_or_service_api'
CONTEXT_IS_ADMIN = 'context_is_admin'  # the volume API's rule of that name
# The rules whose default is not "admin or service".
_DEFAULTS = {
    'placement:usages': ADMIN_OR_PROJECT_READER_OR_SERVICE,
    'placement:reshaper:reshape': SERVICE,
}

_RULES = {
    # name: description
    'placement:resource_providers:list': 'List resource providers.',
    'placement:resource_providers:create': 'Create resource provider.',
    'placement:resource_providers:show': 'Show resource provider.',
    'placement:resource_providers:update': 'Update resource provider.',
    'placement:resource_providers:delete': 'Delete resource provider.',
    'placement:resource_providers:inventories:list':
        'List resource provider inventories.',
    'placement:resource_providers:inventories:create':
        'Create one resource provider inventory.',
    'placement:resource_providers:inventories:show':
        'Show resource provider inventory.',
    'placement:resource_providers:inventories:update':
        'Update resource provider inventory.',
    'placement:resource_providers:inventories:delete':
        'Delete resource provider inventory.',
    'placement:resource_providers:aggregates:list':
        'List resource provider aggregates.',
    'placement:resource_providers:aggregates:update':
        'Update resource provider aggregates.',
    'placement:resource_providers:usages':
        'List resource provider usages.',
    'placement:resource_providers:allocations:list':
        'List resource provider allocations.',
    'placement:resource_providers:traits:list':
        'List resource provider traits.',
    'placement:resource_providers:traits:update':
        'Update resource provider traits.',
    'placement:resource_providers:traits:delete':
        'Delete resource provider traits.',
    'placement:resource_classes:list': 'List resource classes.',
    'placement:resource_classes:create': 'Create resource class.',
    'placement:resource_classes:show': 'Show resource class.',
    'placement:resource_classes:update': 'Update resource class.',
    'placement:resource_classes:delete': 'Delete resource class.',
    'placement:traits:list': 'List traits.',
    'placement:traits:show': 'Show trait.',
    'placement:traits:update': 'Update trait.',
    'placement:traits:delete': 'Delete trait.',
    'placement:usages': 'List total resource usages for a project.',
    'placement:allocations:list': 'List allocations.',
    'placement:allocations:manage': 'Manage allocations.',
    'placement:allocations:update': 'Update allocations.',
    'placement:allocations:delete': 'Delete allocations.',
    'placement:reshaper:reshape': 'Reshape inventory and allocations.',
    'placement:allocation_candidates:list': 'List allocation candidates.',
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


class PolicyNotAuthorized(Exception):
    def __init__(self, action):
        self.action = action
        super().__init__(
            'Policy does not allow %s to be performed.' % action)

    def format_message(self):
        return self.args[0]


_lock = threading.Lock()
# id(conf) -> the Decisions of its Enforcer.
_decisions = {}


def _decisions_for(conf):
    """One Enforcer per configuration object, made on first use."""
    decisions = _decisions.get(id(conf))
    if decisions is None:
        with _lock:
            decisions = _decisions.get(id(conf))
            if decisions is None:
                enforcer = policy.Enforcer(conf)
                enforcer.register_defaults(list_rules())
                decisions = _decisions[id(conf)] = \
                    policy_decisions.Decisions(enforcer)
    return decisions


def get_enforcer(conf):
    return _decisions_for(conf).enforcer


def get_configured_enforcer():
    """The enforcer of volapi's CONF (oslopolicy-policy-generator)."""
    from volapi import conf as volapi_conf
    return get_enforcer(volapi_conf.CONF)


def reset():
    with _lock:
        for decisions in _decisions.values():
            decisions.enforcer.clear()
        _decisions.clear()


def is_admin(conf, context):
    """What the ``context_is_admin`` rule says of ``context``."""
    decisions = _decisions_for(conf)
    return decisions.allowed(
        CONTEXT_IS_ADMIN, {}, context,
        lambda: decisions.enforcer.authorize(
            CONTEXT_IS_ADMIN, {}, context.to_policy_values(),
            do_raise=False))


def authorize(conf, context, action, target=None):
    """Raise PolicyNotAuthorized unless ``context`` may do ``action``."""
    if target is None:
        target = {'project_id': context.project_id,
                  'user_id': context.user_id}
    decisions = _decisions_for(conf)
    if not decisions.allowed(
            action, target, context,
            lambda: decisions.enforcer.authorize(
                action, target, context.to_policy_values(),
                do_raise=False)):
        raise PolicyNotAuthorized(action)
