"""The request context of a placement request.

It is a ``volapi.context.RequestContext`` (so it carries enginefacade
transactions to ``db``) that also knows the configuration and can check
policy: ``context.can(policies.RESOURCE_PROVIDERS_LIST)`` (the names in
volapi.policies.placement).
"""
from volapi import context as volapi_context
from volapi.placement import policy


class RequestContext(volapi_context.RequestContext):

    def __init__(self, *args, config=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = config

    def can(self, action, target=None):
        """Raise errors.PolicyNotAuthorized (403) unless allowed."""
        policy.authorize(self.config, self, action, target)


def from_environ(environ, config, request_id=None):
    """A context from the identity headers auth left in ``environ``
    (X_USER_ID, X_PROJECT_ID, X_ROLES ...)."""
    ctx = RequestContext.from_environ(environ, request_id=request_id)
    ctx.config = config
    ctx.is_admin = policy.is_admin(config, ctx)
    return ctx
