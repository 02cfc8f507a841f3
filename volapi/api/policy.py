"""oslo.policy enforcement for the volume API, with its decisions
remembered until the rules change (volapi.policy_decisions)."""
from oslo_policy import policy as oslo_policy

from volapi.api import errors
from volapi import policies
from volapi import policy_decisions

_decisions = None


def init(conf):
    """Make the process's enforcer with the in-code defaults registered."""
    global _decisions
    enforcer = oslo_policy.Enforcer(conf)
    enforcer.register_defaults(policies.list_rules())
    _decisions = policy_decisions.Decisions(enforcer)
    return enforcer


def get_enforcer():
    if _decisions is None:
        from volapi import conf
        return init(conf.CONF)
    return _decisions.enforcer


def check_is_admin(context):
    """What the ``context_is_admin`` rule says of ``context``."""
    enforcer = get_enforcer()
    return _decisions.allowed(
        policies.base.CONTEXT_IS_ADMIN, {}, context,
        lambda: enforcer.authorize(policies.base.CONTEXT_IS_ADMIN, {},
                                   context, do_raise=False))


def authorize(context, action, target=None, do_raise=True):
    """Check ``action`` for ``context`` on ``target`` (default: the
    caller's own project). Raises errors.Forbidden, or returns False when
    ``do_raise`` is False; a rule never registered raises oslo.policy's
    PolicyNotRegistered (a misspelt name is a bug, not a refusal)."""
    if target is None:
        target = {'project_id': context.project_id,
                  'user_id': context.user_id}
    enforcer = get_enforcer()
    allowed = _decisions.allowed(
        action, target, context,
        lambda: enforcer.authorize(action, target, context))
    if not allowed and do_raise:
        raise errors.Forbidden(
            "Policy doesn't allow %s to be performed." % action)
    return allowed


def authorizer(context, *rules):
    """The ``authorize`` a use case calls with what it loaded: each of
    ``rules`` on that resource's project (a volume, snapshot, backup or
    group)."""
    def check(resource):
        for rule in rules:
            authorize(context, rule, {'project_id': resource.project_id})
    return check


def allowed_each(context, actions, target):
    """[whether ``context`` may do each of ``actions`` on ``target``],
    never raising Forbidden (one look-up of the caller's credentials)."""
    enforcer = get_enforcer()
    return _decisions.allowed_each(
        actions, target, context,
        lambda action: enforcer.authorize(action, target, context))
