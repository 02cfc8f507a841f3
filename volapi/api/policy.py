"""oslo.policy enforcement for the volume API.

A decision depends only on the rule, the caller's credentials and the
target, so decisions are remembered (bounded) until the rules change; the
policy file is looked at (load_rules) at most once a second. oslo.policy's
own enforce() re-reads its file state and re-parses checks on every call,
which costs a few hundred microseconds each time.
"""
import threading
import time

from oslo_policy import policy as oslo_policy

from volapi.api import errors
from volapi import context as volapi_context
from volapi import policies

RELOAD_INTERVAL = 1.0
MAX_REMEMBERED = 4096

_enforcer = None
_lock = threading.Lock()
_decisions = {}
_state = {'rules': None, 'checked_at': 0.0}


def init(conf):
    """Make the process's enforcer with the in-code defaults registered."""
    global _enforcer
    enforcer = oslo_policy.Enforcer(conf)
    enforcer.register_defaults(policies.list_rules())
    with _lock:
        _enforcer = enforcer
        _decisions.clear()
        _state.update(rules=None, checked_at=0.0)
    return enforcer


def get_enforcer():
    if _enforcer is None:
        from volapi import conf
        return init(conf.CONF)
    return _enforcer


def _credentials(context):
    creds = context.to_policy_values()
    creds['is_admin'] = context.is_admin
    return creds


def _frozen(values):
    """A hashable copy of a dict of credentials or target attributes."""
    return tuple(sorted(
        (key, tuple(value) if isinstance(value, (list, set)) else value)
        for key, value in values.items()
        if not isinstance(value, dict)))


def _current_rules(enforcer):
    now = time.monotonic()
    if now - _state['checked_at'] >= RELOAD_INTERVAL:
        enforcer.load_rules()
        with _lock:
            _state['checked_at'] = now
            if enforcer.rules is not _state['rules']:
                _decisions.clear()
                _state['rules'] = enforcer.rules


def authorize(context, action, target=None, do_raise=True):
    """Check ``action`` for ``context`` on ``target`` (default: the
    caller's own project). Raises errors.Forbidden, or returns False when
    ``do_raise`` is False."""
    if target is None:
        target = {'project_id': context.project_id,
                  'user_id': context.user_id}
    enforcer = get_enforcer()
    _current_rules(enforcer)
    credentials = volapi_context.policy_values_key(context)
    key = None if credentials is None else (
        action, credentials, context.is_admin, _frozen(target))
    allowed = _decisions.get(key)
    if allowed is None:
        allowed = bool(enforcer.enforce(action, target,
                                        _credentials(context)))
        if key is not None:
            with _lock:
                if len(_decisions) >= MAX_REMEMBERED:
                    _decisions.clear()
                _decisions[key] = allowed
    if not allowed and do_raise:
        raise errors.Forbidden(
            "Policy doesn't allow %s to be performed." % action)
    return allowed
