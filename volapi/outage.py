"""A dependency that is down: which errors mean it, and what both APIs say.

The database unreachable (db.connectivity), a deadlock or serialization
failure that outlasted every retry, or the message broker refusing a
message is a 503 with ``Retry-After``, in each API's own error format; the
request did not take effect (a transaction that failed before its COMMIT
was rolled back). A cast is not one of these: a workers row records
each, and its failure is left to the reconciliation (rpc.volume). A call
(initialize_connection, get_capabilities) is: the request waits for its
answer.
"""
from oslo_log import log as logging

from db import api as db_api
from db import connectivity
from rpc import transport as rpc_transport

LOG = logging.getLogger(__name__)

RETRY_AFTER = '2'  # seconds: a database restart or failover takes about that
DATABASE_UNAVAILABLE = ('The database is unavailable; the request was not '
                        'carried out. Try again later.')
DATABASE_BUSY = ('The database could not carry out the request for '
                 'contention; nothing was changed. Try again later.')
BROKER_UNAVAILABLE = ('The message broker is unavailable; the request was '
                      'not carried out. Try again later.')


def unavailable(exc):
    """The 503 message for ``exc`` if it says a dependency is down, else
    None. Logged without a traceback: the outage is not a bug here."""
    if connectivity.is_connection_error(exc):
        LOG.warning('Database unreachable: %s', exc)
        return DATABASE_UNAVAILABLE
    if db_api.is_contention(exc):
        # Every retry lost: transient (a restart, a hot row), not a bug.
        LOG.warning('Database contention outlasted the retries: %s', exc)
        return DATABASE_BUSY
    if isinstance(exc, rpc_transport.SEND_FAILURES):
        LOG.warning('Message broker unreachable: %s', exc)
        return BROKER_UNAVAILABLE
    return None
