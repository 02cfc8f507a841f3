"""Services rows and heartbeats on the backend under test."""
import time

import fixtures
from oslo_db import exception as db_exc
import sqlalchemy as sa

from db import models
from db import session
import objects
from tests import base
from tests.functional import worker_fixtures as wf
from tests.functional.test_claim_races import concurrently
from volapi import service as volapi_service


class ServiceTest(base.DatabaseTestCase):

    def heartbeat(self, host='h1@file', interval=60):
        beat = volapi_service.ServiceHeartbeat(
            self.context, host, 'volapi-volume', 'volapi-volume', interval)
        self.addCleanup(beat.stop)
        return beat.start()

    def test_register_reuses_the_live_row(self):
        def register(host):
            return objects.Service.register(self.context, host,
                                            'volapi-volume')

        first, again, other = (register(h)
                               for h in ('h1@file', 'h1@file', 'h2@file'))
        self.assertEqual(first.id, again.id)
        self.assertNotEqual(first.id, other.id)
        self.assertEqual((0, None), (first.report_count, first.heartbeat_at))

    def test_heartbeat_is_a_compare_and_swap(self):
        service = objects.Service.register(self.context, 'h1@file',
                                           'volapi-volume')
        stale = objects.Service.get_by_id(self.context, service.id)
        self.assertTrue(service.heartbeat())
        self.assertTrue(service.heartbeat())
        self.assertEqual(2, service.report_count)
        self.assertIsNotNone(service.heartbeat_at)
        self.assertFalse(stale.heartbeat())  # it saw report_count 0
        service.refresh()
        self.assertEqual(2, service.report_count)

    def test_is_up(self):
        service = wf.make_service(self.context, 'h1@file', age=59)
        self.assertTrue(service.is_up(60))
        self.assertFalse(service.is_up(30))
        never = objects.Service.register(self.context, 'h2@file', 'x')
        self.assertTrue(never.is_up(60))  # judged by its creation

    def test_heartbeat_thread_reports_in(self):
        beat = self.heartbeat(interval=0.2)
        deadline = time.time() + 10
        service = objects.Service.get_by_id(self.context, beat.service_id)
        while service.report_count < 3 and time.time() < deadline:
            time.sleep(0.1)
            service.refresh()
        self.assertGreaterEqual(service.report_count, 3)

    def test_two_processes_under_one_name_are_noticed(self):
        logger = self.useFixture(fixtures.FakeLogger())
        first, second = self.heartbeat(), self.heartbeat()
        self.assertEqual(first.service_id, second.service_id)
        first.beat()
        second.beat()  # its report_count is stale: warns, then reports
        self.assertIn('another process reports under the same host',
                      logger.output)
        service = objects.Service.get_by_id(self.context, first.service_id)
        self.assertEqual(4, service.report_count)

    def test_deleted_row_is_taken_back(self):
        beat = self.heartbeat()
        old_id = beat.service_id
        with session.writer.connection.using(self.context) as conn:
            table = models.Service.__table__
            conn.execute(sa.update(table).where(table.c.id == old_id)
                         .values(deleted=True,
                                 deleted_at=wf.timeutils.utcnow()))
        beat.beat()
        service = objects.Service.get_by_id(self.context, beat.service_id)
        self.assertEqual((old_id, False, None, 2),
                         (service.id, service.deleted, service.deleted_at,
                          service.report_count))

    def test_one_row_per_host_and_binary(self):
        first = objects.Service.register(self.context, 'h1@file',
                                         'volapi-volume', cluster_name='a')
        # The database refuses a second row, however it is written.
        with session.writer.connection.using(self.context) as conn:
            with self.assertRaises(db_exc.DBDuplicateEntry):
                conn.execute(sa.insert(models.Service.__table__).values(
                    host='h1@file', binary='volapi-volume', report_count=0,
                    disabled=False, deleted=False,
                    created_at=wf.timeutils.utcnow()))
        # Registering again takes the row, in the cluster now configured.
        again = objects.Service.register(self.context, 'h1@file',
                                         'volapi-volume', cluster_name='b')
        self.assertEqual((first.id, 'b'), (again.id, again.cluster_name))

    def test_processes_starting_at_once_share_one_row(self):
        ids = concurrently(lambda i: objects.Service.register(
            self.context, 'h1@file', 'volapi-volume').id, count=8)
        self.assertEqual(1, len(set(ids)))
        self.assertEqual(ids[:1], [s.id for s in objects.Service.get_all(
            self.context, host='h1@file')])


class PeriodicTest(base.TestCase):

    def test_runs_until_stopped_and_survives_errors(self):
        calls = []

        def work():
            calls.append(time.time())
            if len(calls) == 1:
                raise RuntimeError('first run fails')

        self.useFixture(fixtures.FakeLogger())
        periodic = volapi_service.Periodic('test', 0.05, work,
                                           run_now=True).start()
        deadline = time.time() + 10
        while len(calls) < 3 and time.time() < deadline:
            time.sleep(0.01)
        periodic.stop()
        count = len(calls)
        self.assertGreaterEqual(count, 3)
        time.sleep(0.2)
        self.assertEqual(count, len(calls))
