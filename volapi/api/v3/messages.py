"""/v3/[{project_id}/]messages (3.3+): Cinder's user messages, e.g. why a
volume went to 'error' without a worker ever seeing it (no pool had room).
"""
import pecan

from objects import message
from volapi.api import common
from volapi.api import errors
from volapi.api import microversion as mv
from volapi.api import policy
from volapi.api import rest
from volapi.policies import messages as policies


def _not_found(message_id):
    return errors.NotFound('Message %s could not be found.' % message_id)


def _view(request, row):
    url = '%s/v3/%s/messages/%s' % (request.host_url, row['project_id'],
                                    row['id'])
    return {'id': row['id'], 'resource_type': row['resource_type'],
            'resource_uuid': row['resource_uuid'],
            'request_id': row['request_id'],
            'event_id': row['event_id'],
            'message_level': row['message_level'],
            'user_message': message.user_message(row['action_id'],
                                                 row['detail_id']),
            'created_at': row['created_at'].isoformat(),
            'guaranteed_until': row['expires_at'].isoformat()
            if row['expires_at'] else None,
            'links': [{'href': url, 'rel': 'self'}]}


def _scope(context):
    """The project whose messages the caller sees; None (all) for an
    admin."""
    return None if context.is_admin else context.project_id


class MessageController:

    def __init__(self, message_id):
        self.message_id = message_id

    index = rest.by_method()

    def _authorized(self, rule):
        """(request, the message row) once ``rule`` allows the caller."""
        request = pecan.request
        common.require_version(request, mv.MESSAGES)
        context = request.ctx
        row = message.get(context, self.message_id, _scope(context))
        if row is None:
            raise _not_found(self.message_id)
        policy.authorize(context, rule, {'project_id': row['project_id']})
        return request, row

    @index.when(method='GET')
    @rest.json(200)
    def show(self):
        request, row = self._authorized(policies.GET)
        return {'message': _view(request, row)}

    @index.when(method='DELETE')
    @rest.json(204)
    def delete(self):
        request, _row = self._authorized(policies.DELETE)
        if not message.delete(request.ctx, self.message_id,
                              _scope(request.ctx)):
            raise _not_found(self.message_id)  # deleted meanwhile


class MessagesController(rest.Collection):

    index = rest.by_method()

    @index.when(method='GET')
    @rest.json(200)
    def get_all(self, **params):
        request = pecan.request
        common.require_version(request, mv.MESSAGES)
        context = request.ctx
        policy.authorize(context, policies.GET_ALL,
                         {'project_id': context.project_id})
        rows = message.get_all(context, _scope(context))
        return {'messages': [_view(request, row) for row in rows]}

    def member(self, message_id):
        return MessageController(message_id)
