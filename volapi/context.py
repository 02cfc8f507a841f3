"""The request context: who is asking, and the database transaction they hold."""
from oslo_context import context as oslo_context
from oslo_db.sqlalchemy import enginefacade


@enginefacade.transaction_context_provider
class RequestContext(oslo_context.RequestContext):
    """oslo.context's RequestContext, able to carry an enginefacade transaction."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault('is_admin', False)
        super().__init__(*args, **kwargs)

    def elevated(self):
        ctx = self.__class__.from_dict(self.to_dict())
        ctx.is_admin = True
        if 'admin' not in ctx.roles:
            ctx.roles = list(ctx.roles) + ['admin']
        return ctx

    @classmethod
    def from_dict(cls, values, **kwargs):
        ctx = super().from_dict(values, **kwargs)
        ctx.is_admin = values.get('is_admin', False)
        return ctx

    def to_dict(self):
        values = super().to_dict()
        values['is_admin'] = self.is_admin
        return values


def get_admin_context():
    return RequestContext(is_admin=True, roles=['admin'], overwrite=False)


# Each key of to_policy_values() is the context attribute of the same name.
# Reading the attributes costs a tenth of building the credentials, which
# only a policy decision not yet remembered needs.
POLICY_VALUE_NAMES = tuple(RequestContext().to_policy_values())


def policy_values_key(context):
    """A hashable stand-in for ``context.to_policy_values()``, to remember
    policy decisions by; None if a value cannot be hashed."""
    try:
        key = tuple(tuple(value) if isinstance(value, (list, set)) else value
                    for value in map(context.__getattribute__,
                                     POLICY_VALUE_NAMES))
        hash(key)
        return key
    except TypeError:
        return None
