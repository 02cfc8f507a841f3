"""POST /workers/cleanup (volapi/api/v3/workers.py)."""
from volapi.policies import base

CLEANUP = 'workers:cleanup'

rules = [
    base.operation(CLEANUP, base.RULE_ADMIN_API,
                   'Clean up the operations of dead volume services.',
                   'POST', '/workers/cleanup'),
]


def list_rules():
    return rules
