"""``volapi-manage db online_data_migrations``: consumer records for
allocations written before consumers existed, in batches, idempotent."""
import json
import os
import subprocess
import sys
import tempfile
import uuid as uuidlib

import sqlalchemy as sa

from db import models
from db import session
from objects.placement import resource_provider as rp_obj
from tests import base
from volapi.placement import context as placement_context
from volapi.placement import online_migrations

INCOMPLETE = '00000000-0000-0000-0000-000000000000'
CONSUMERS = models.Consumer.__table__
ALLOCATIONS = models.Allocation.__table__


class TestIncompleteConsumers(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.context = placement_context.RequestContext(
            is_admin=True, config=self.config.conf)
        self.providers = [
            rp_obj.create(self.context, str(uuidlib.uuid4()), name).id
            for name in ('one', 'two')]
        self.output = []

    def legacy_consumers(self, count, providers=1):
        """``count`` consumers with allocations (on ``providers``
        providers each) and no record."""
        consumers = sorted(str(uuidlib.uuid4()) for _ in range(count))
        with session.get_engine().begin() as conn:
            for consumer in consumers:
                for provider_id in self.providers[:providers]:
                    conn.execute(ALLOCATIONS.insert().values(
                        resource_provider_id=provider_id,
                        consumer_id=consumer, resource_class_id=2, used=1,
                        created_at=sa.func.now()))
        return consumers

    def records(self):
        query = (sa.select(CONSUMERS.c.uuid, CONSUMERS.c.generation,
                           models.Project.__table__.c.external_id,
                           models.User.__table__.c.external_id)
                 .select_from(CONSUMERS.join(models.Project.__table__)
                              .join(models.User.__table__)))
        with session.get_engine().connect() as conn:
            return {row[0]: tuple(row[1:]) for row in conn.execute(query)}

    def run_migrations(self, max_count=None):
        return online_migrations.run(self.context, max_count,
                                     out=self.output.append)

    def test_creates_the_missing_records_once(self):
        consumers = self.legacy_consumers(3, providers=2)
        self.assertEqual(0, self.run_migrations())
        self.assertEqual({c: (1, INCOMPLETE, INCOMPLETE) for c in consumers},
                         self.records())
        self.assertEqual('Running batches of 50 until complete',
                         self.output[0])
        self.assertIn('3 rows matched query create_incomplete_consumers, '
                      '3 migrated', self.output)
        table = self.output[-1].splitlines()
        self.assertEqual(['Migration', 'Total Found', 'Completed'],
                         [cell.strip() for cell in table[1].split('|')[1:-1]])
        self.assertEqual(['create_incomplete_consumers', '3', '3'],
                         [cell.strip() for cell in table[3].split('|')[1:-1]])
        # Idempotent: nothing left to do, nothing changes.
        self.output.clear()
        self.assertEqual(0, self.run_migrations())
        self.assertEqual(['create_incomplete_consumers', '0', '0'],
                         [cell.strip() for cell in
                          self.output[-1].splitlines()[3].split('|')[1:-1]])
        self.assertEqual(3, len(self.records()))

    def test_batches_run_until_complete(self):
        self.legacy_consumers(120)
        self.assertEqual(0, self.run_migrations())
        self.assertEqual(120, len(self.records()))
        self.assertEqual(
            ['50 rows matched query create_incomplete_consumers, 50 '
             'migrated'] * 2 +
            ['20 rows matched query create_incomplete_consumers, 20 '
             'migrated'], self.output[1:4])

    def test_max_count_runs_one_batch(self):
        self.legacy_consumers(3)
        self.assertEqual(1, self.run_migrations(max_count=2))
        self.assertEqual(2, len(self.records()))
        self.assertEqual(1, self.run_migrations(max_count=2))
        self.assertEqual(0, self.run_migrations(max_count=2))
        self.assertEqual(3, len(self.records()))

    def test_max_count_must_be_positive(self):
        self.assertEqual(127, self.run_migrations(max_count=0))
        self.assertEqual(['Must supply a positive value for max_count'],
                         self.output)

    def test_configured_owner(self):
        self.config.set(group='placement',
                        incomplete_consumer_project_id='legacy-project',
                        incomplete_consumer_user_id='legacy-user')
        consumer, = self.legacy_consumers(1)
        self.run_migrations()
        self.assertEqual({consumer: (1, 'legacy-project', 'legacy-user')},
                         self.records())

    def test_existing_records_are_left_alone(self):
        legacy, = self.legacy_consumers(1)
        with session.get_engine().begin() as conn:
            project = conn.execute(models.Project.__table__.insert().values(
                external_id='p', created_at=sa.func.now())
            ).inserted_primary_key[0]
            user = conn.execute(models.User.__table__.insert().values(
                external_id='u', created_at=sa.func.now())
            ).inserted_primary_key[0]
            owned = str(uuidlib.uuid4())
            conn.execute(CONSUMERS.insert().values(
                uuid=owned, project_id=project, user_id=user, generation=4,
                created_at=sa.func.now()))
            conn.execute(ALLOCATIONS.insert().values(
                resource_provider_id=self.providers[0], consumer_id=owned,
                resource_class_id=2, used=1, created_at=sa.func.now()))
        self.run_migrations()
        self.assertEqual({legacy: (1, INCOMPLETE, INCOMPLETE),
                          owned: (4, 'p', 'u')}, self.records())


class TestCommand(base.DatabaseTestCase):
    """The command as an operator runs it."""

    def test_volapi_manage(self):
        provider = rp_obj.create(self.context, str(uuidlib.uuid4()), 'rp')
        consumer = str(uuidlib.uuid4())
        with session.get_engine().begin() as conn:
            conn.execute(ALLOCATIONS.insert().values(
                resource_provider_id=provider.id, consumer_id=consumer,
                resource_class_id=2, used=1, created_at=sa.func.now()))
        with tempfile.NamedTemporaryFile('w', suffix='.conf',
                                         delete=False) as conf:
            conf.write('[DEFAULT]\nstate_path = %s\n[database]\n'
                       'connection = %s\n' % (
                           tempfile.gettempdir(),
                           self.database.url.replace('%', '%%')))
        self.addCleanup(os.unlink, conf.name)
        status = [sys.executable, '-m', 'volapi.cmd.status',
                  '--config-file', conf.name, 'upgrade', 'check']
        warned = subprocess.run(status, capture_output=True, text=True)
        self.assertEqual(1, warned.returncode, warned.stdout + warned.stderr)
        self.assertIn('1 consumers have allocations but no consumer record',
                      warned.stdout)
        command = [sys.executable, '-m', 'volapi.cmd.manage', '--debug',
                   '--config-file', conf.name, 'db', 'online_data_migrations']
        done = subprocess.run(command, capture_output=True, text=True)
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertIn('1 rows matched query create_incomplete_consumers, '
                      '1 migrated', done.stdout)
        self.assertIn('| create_incomplete_consumers |      1      |',
                      done.stdout)
        with session.get_engine().connect() as conn:
            self.assertEqual(1, conn.execute(
                sa.select(CONSUMERS.c.generation).where(
                    CONSUMERS.c.uuid == consumer)).scalar())
        limited = subprocess.run(command + ['--max-count', '5'],
                                 capture_output=True, text=True)
        self.assertEqual(0, limited.returncode, limited.stderr)
        checked = subprocess.run(status + ['--json'], capture_output=True,
                                 text=True)
        self.assertEqual(0, checked.returncode, checked.stdout)
        self.assertEqual({'Database schema': 0, 'Consumer records': 0,
                          'Policy file JSON to YAML migration': 0},
                         {check['check']: check['result'] for check in
                          json.loads(checked.stdout)['checks']})
