"""User messages (volapi/api/v3/messages.py), with Cinder's rule names."""
from volapi.policies import base

GET = 'message:get'
GET_ALL = 'message:get_all'
DELETE = 'message:delete'

rules = [
    base.operation(GET, base.RULE_ADMIN_OR_OWNER, 'Show a message.',
                   'GET', '/messages/{message_id}'),
    base.operation(GET_ALL, base.RULE_ADMIN_OR_OWNER,
                   "List a project's messages.", 'GET', '/messages'),
    base.operation(DELETE, base.RULE_ADMIN_OR_OWNER, 'Delete a message.',
                   'DELETE', '/messages/{message_id}'),
]


def list_rules():
    return rules
