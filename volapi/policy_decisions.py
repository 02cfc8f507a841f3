"""Remembered oslo.policy decisions, for the volume and placement APIs.

A decision depends only on the rules, the action, the target and the
caller's credentials. oslo.policy's enforce() re-reads its file state and
re-parses checks on every call, a few hundred microseconds each time, so
decisions are remembered by all of those until the rules change: the
policy file is looked at (load_rules) at most every RELOAD_INTERVAL
seconds, and new rules forget every decision. At MAX_REMEMBERED the
memory starts afresh.
"""
import threading
import time

from volapi import context as volapi_context

RELOAD_INTERVAL = 1.0
MAX_REMEMBERED = 4096


def _frozen(target):
    """A hashable stand-in for a target dict, or None."""
    try:
        key = tuple(sorted(
            (name, tuple(value) if isinstance(value, (list, set)) else value)
            for name, value in target.items()))
        hash(key)
        return key
    except TypeError:
        return None


class Decisions:
    """The decisions of one oslo.policy Enforcer."""

    def __init__(self, enforcer):
        self.enforcer = enforcer
        self._lock = threading.Lock()
        self._decisions = {}
        self._rules = None
        self._checked_at = None

    def _current_rules(self):
        now = time.monotonic()
        if self._checked_at is not None and \
                now - self._checked_at < RELOAD_INTERVAL:
            return
        self.enforcer.load_rules()
        with self._lock:
            self._checked_at = now
            if self.enforcer.rules is not self._rules:
                self._decisions.clear()
                self._rules = self.enforcer.rules

    def allowed(self, action, target, context, decide):
        """Whether ``context`` may do ``action`` on ``target``: as decided
        before, or as ``decide()`` (which asks oslo.policy) says now. A
        target or credential that cannot be hashed is decided afresh."""
        return self.allowed_each((action,), target, context,
                                 lambda _action: decide())[0]

    def allowed_each(self, actions, target, context, decide):
        """[allowed(action, ...) for each of ``actions``], with the
        credentials and target made hashable once; ``decide(action)``
        asks oslo.policy."""
        self._current_rules()
        credentials = volapi_context.policy_values_key(context)
        frozen_target = _frozen(target)
        remember = credentials is not None and frozen_target is not None
        decisions = self._decisions
        answers = []
        for action in actions:
            key = (action, credentials, context.is_admin, frozen_target)
            allowed = decisions.get(key) if remember else None
            if allowed is None:
                allowed = bool(decide(action))
                if remember:
                    with self._lock:
                        if len(decisions) >= MAX_REMEMBERED:
                            decisions.clear()
                        decisions[key] = allowed
            answers.append(allowed)
        return answers
