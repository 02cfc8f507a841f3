"""Which database errors db.api.retrying runs the transaction again for,
whatever driver raised them (SQLAlchemy wraps the driver's exception as
``orig``; oslo.db may wrap that again as ``inner_exception``)."""
import sqlalchemy as sa
from oslo_db import exception as oslo_db_exc

from db import api as db_api
from tests import base
from volapi import outage


class _Psycopg2Error(Exception):
    pgcode = '40001'


class _PsycopgError(Exception):
    sqlstate = '40001'  # psycopg 3 names the SQLSTATE so


class _MySQLError(Exception):
    pass


def _wrapped(driver_error):
    return sa.exc.OperationalError('UPDATE ...', {}, driver_error)


class SerializationFailureTest(base.TestCase):

    def test_postgresql_40001_from_either_driver(self):
        for error in (_Psycopg2Error(), _PsycopgError()):
            with self.subTest(driver=type(error).__name__):
                self.assertTrue(db_api._is_serialization_failure(
                    _wrapped(error)))
                self.assertTrue(db_api._is_serialization_failure(
                    oslo_db_exc.DBError(_wrapped(error))))

    def test_mariadb_record_has_changed(self):
        self.assertTrue(db_api._is_serialization_failure(
            _wrapped(_MySQLError(1020, 'Record has changed since last '
                                       'read'))))

    def test_other_errors_are_not_retried(self):
        other = _PsycopgError()
        other.sqlstate = '23505'  # unique violation
        for error in (other, _MySQLError(1062, 'Duplicate entry'),
                      ValueError('x')):
            with self.subTest(error=error):
                self.assertFalse(db_api._is_serialization_failure(
                    _wrapped(error)))


class ContentionOutlastingRetriesTest(base.TestCase):
    """What escapes db.api.retrying after every retry lost is a 503 with
    Retry-After from both APIs (volapi.outage), never a 500."""

    def test_deadlocks_and_serialization_failures_are_unavailable(self):
        for error in (oslo_db_exc.DBDeadlock(),
                      _wrapped(_PsycopgError()),
                      oslo_db_exc.DBError(_wrapped(_Psycopg2Error())),
                      _wrapped(_MySQLError(1020, 'Record has changed'))):
            with self.subTest(error=repr(error)):
                self.assertTrue(db_api.is_contention(error))
                self.assertEqual(outage.DATABASE_BUSY,
                                 outage.unavailable(error))

    def test_other_errors_are_not(self):
        error = sa.exc.IntegrityError('INSERT ...', {}, Exception('dup'))
        self.assertFalse(db_api.is_contention(error))
        self.assertIsNone(outage.unavailable(error))
