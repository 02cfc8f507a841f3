"""What crosses the wire: request contexts as dicts, versioned objects as
their primitives (``objects.base.VolapiObjectSerializer``)."""
import oslo_messaging
from oslo_context import context as oslo_context

from objects import base as objects_base


class RequestContextSerializer(oslo_messaging.Serializer):
    """Serializes entities with a versioned-object serializer and contexts
    with ``to_dict()``; rebuilds contexts as ``context_class``.

    The server passes volapi's RequestContext (it carries the enginefacade
    transaction the worker's database work needs); a client only sends, so
    the default class does not matter to it.
    """

    def __init__(self, base=None, context_class=oslo_context.RequestContext):
        self._base = base or objects_base.VolapiObjectSerializer()
        self._context_class = context_class

    def serialize_entity(self, context, entity):
        return self._base.serialize_entity(context, entity)

    def deserialize_entity(self, context, entity):
        return self._base.deserialize_entity(context, entity)

    def serialize_context(self, context):
        return context.to_dict()

    def deserialize_context(self, context):
        return self._context_class.from_dict(context)
