"""Placement's policy rules (oslo.policy) and their enforcement.

Every rule defaults to "admin or service", as Placement's do; an operator
may override any of them in the ``[oslo_policy] policy_file``. Rule names
are Placement's.
"""
import threading
import time

from oslo_policy import policy

from volapi import context as volapi_context

ADMIN_OR_SERVICE = 'admin_or_service'

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
    rules = [policy.RuleDefault(ADMIN_OR_SERVICE,
                                'role:admin or role:service',
                                description='Admins and services.')]
    rules += [policy.RuleDefault(name, 'rule:%s' % ADMIN_OR_SERVICE,
                                 description=description)
              for name, description in _RULES.items()]
    return rules


class PolicyNotAuthorized(Exception):
    def __init__(self, action):
        self.action = action
        super().__init__(
            'Policy does not allow %s to be performed.' % action)

    def format_message(self):
        return self.args[0]


_lock = threading.Lock()
_enforcers = {}


def get_enforcer(conf):
    """One Enforcer per configuration object, made on first use."""
    enforcer = _enforcers.get(id(conf))
    if enforcer is None:
        with _lock:
            enforcer = _enforcers.get(id(conf))
            if enforcer is None:
                enforcer = policy.Enforcer(conf)
                enforcer.register_defaults(list_rules())
                _enforcers[id(conf)] = enforcer
    return enforcer


def reset():
    global _decisions
    with _lock:
        for enforcer in _enforcers.values():
            enforcer.clear()
        _enforcers.clear()
        _decisions = _Decisions()


class _Decisions:
    """Recent decisions, keyed by everything a rule can look at (action,
    target, credentials). oslo.policy spends hundreds of microseconds on
    one check, a claim should not; forgetting all of them every
    ``TTL`` seconds lets a changed policy file take effect within that."""

    TTL = 1.0

    def __init__(self):
        self._decisions = {}
        self._since = time.monotonic()

    def get(self, key):
        if time.monotonic() - self._since > self.TTL:
            self._decisions = {}
            self._since = time.monotonic()
        return self._decisions.get(key)

    def put(self, key, allowed):
        self._decisions[key] = allowed


_decisions = _Decisions()


def _frozen(values):
    # In the dict's order: the same producer gives the same order, and a
    # different order only costs a decision more.
    try:
        key = tuple((k, tuple(v) if isinstance(v, list) else v)
                    for k, v in values.items())
        hash(key)
        return key
    except TypeError:
        return None  # something unhashable: decide afresh


def authorize(conf, context, action, target=None):
    """Raise PolicyNotAuthorized unless ``context`` may do ``action``."""
    if target is None:
        target = {'project_id': context.project_id,
                  'user_id': context.user_id}
    frozen_target = _frozen(target)
    credentials = volapi_context.policy_values_key(context)
    key = None
    if frozen_target is not None and credentials is not None:
        key = (id(conf), action, frozen_target, credentials)
        allowed = _decisions.get(key)
        if allowed is not None:
            if not allowed:
                raise PolicyNotAuthorized(action)
            return
    allowed = get_enforcer(conf).authorize(
        action, target, context.to_policy_values(), do_raise=False)
    if key is not None:
        _decisions.put(key, bool(allowed))
    if not allowed:
        raise PolicyNotAuthorized(action)
