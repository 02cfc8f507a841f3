"""db.connectivity tells a lost database from a wrong statement, with the
drivers' own exception classes."""
import psycopg
import pymysql
import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc

from db import connectivity
from tests import base


def _wrapped(driver_error):
    """The error as it leaves SQLAlchemy and oslo.db's filters."""
    statement_error = sa.exc.OperationalError('SELECT 1', {}, driver_error)
    return oslo_db_exc.DBError(statement_error)


class IsConnectionErrorTest(base.TestCase):

    def test_postgresql_restart_and_refusal(self):
        for error in (psycopg.errors.AdminShutdown('terminating connection'),
                      psycopg.errors.CannotConnectNow('starting up'),
                      psycopg.OperationalError('connection refused')):
            self.assertTrue(connectivity.is_connection_error(
                _wrapped(error)), error)

    def test_mysql_gone_away(self):
        for errno in (2003, 2006, 2013):
            self.assertTrue(connectivity.is_connection_error(
                _wrapped(pymysql.err.OperationalError(errno, 'gone'))))

    def test_oslo_db_connection_error(self):
        self.assertTrue(connectivity.is_connection_error(
            oslo_db_exc.DBConnectionError(None)))

    def test_statement_errors_are_not(self):
        for error in (psycopg.errors.UniqueViolation('duplicate key'),
                      psycopg.errors.SerializationFailure('serialize'),
                      pymysql.err.OperationalError(1213, 'deadlock'),
                      pymysql.err.IntegrityError(1062, 'duplicate')):
            self.assertFalse(connectivity.is_connection_error(
                _wrapped(error)), error)
        self.assertFalse(connectivity.is_connection_error(ValueError('x')))

    def test_lost_commit_is_not_retried(self):
        lost = connectivity.OutcomeUnknown(oslo_db_exc.DBConnectionError())
        self.assertTrue(connectivity.is_connection_error(lost))
        self.assertFalse(connectivity.retry_is_safe(lost))
        self.assertTrue(connectivity.retry_is_safe(
            oslo_db_exc.DBConnectionError()))
