"""Enforcement of placement's policy rules (volapi.policies.placement
names them and their defaults): one oslo.policy Enforcer per
configuration, its decisions remembered (volapi.policy_decisions).
"""
import threading

from oslo_policy import policy

from volapi.placement import errors
from volapi.policies import placement as rules
from volapi import policy_decisions

# The oslo.policy.policies entry point of placement's rules.
list_rules = rules.list_rules


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
        rules.CONTEXT_IS_ADMIN, {}, context,
        lambda: decisions.enforcer.authorize(
            rules.CONTEXT_IS_ADMIN, {}, context.to_policy_values(),
            do_raise=False))


def authorize(conf, context, action, target=None):
    """Raise errors.PolicyNotAuthorized unless ``context`` may do
    ``action``."""
    if target is None:
        target = {'project_id': context.project_id,
                  'user_id': context.user_id}
    decisions = _decisions_for(conf)
    if not decisions.allowed(
            action, target, context,
            lambda: decisions.enforcer.authorize(
                action, target, context.to_policy_values(),
                do_raise=False)):
        raise errors.PolicyNotAuthorized(action)
