"""/resource_providers/{uuid}/usages and /usages (1.9; by consumer type
from 1.38). Allocations are laid down as rows, the way the allocation
writer leaves them."""
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import models
from db import session
from tests.functional import test_placement_base as base

VCPU, MEMORY_MB, DISK_GB = 0, 1, 2


class UsageTestCase(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider()
        self.set_inventory(self.rp['uuid'], {'VCPU': {'total': 64},
                                             'DISK_GB': {'total': 1000},
                                             'MEMORY_MB': {'total': 8192}})
        self._ids = {}

    def _row_id(self, conn, model, column, value):
        key = (model, value)
        if key not in self._ids:
            table = model.__table__
            found = conn.execute(sa.select(table.c.id).where(
                table.c[column] == value)).scalar()
            if found is None:
                found = conn.execute(table.insert().values(
                    {column: value, 'created_at': timeutils.utcnow()})
                ).inserted_primary_key[0]
            self._ids[key] = found
        return self._ids[key]

    def consume(self, project, user, amounts, consumer_type=None):
        """A consumer of ``project``/``user`` holding ``amounts``
        ({class id: used}) on the provider."""
        consumer = str(uuid.uuid4())
        now = timeutils.utcnow()
        with session.writer.connection.using(self.context) as conn:
            type_id = consumer_type and self._row_id(
                conn, models.ConsumerType, 'name', consumer_type)
            conn.execute(models.Consumer.__table__.insert().values(
                uuid=consumer, generation=1, created_at=now,
                project_id=self._row_id(conn, models.Project, 'external_id',
                                        project),
                user_id=self._row_id(conn, models.User, 'external_id', user),
                consumer_type_id=type_id))
            rp_id = conn.execute(sa.select(models.ResourceProvider.id).where(
                models.ResourceProvider.uuid == self.rp['uuid'])).scalar()
            base.insert_allocations(conn, [
                {'resource_provider_id': rp_id, 'consumer_id': consumer,
                 'resource_class_id': class_id, 'used': used}
                for class_id, used in amounts.items()])
        return consumer


class TestProviderUsages(UsageTestCase):

    def test_usages_per_inventory_class(self):
        path = '/resource_providers/%s/usages' % self.rp['uuid']
        self.assertEqual({'resource_provider_generation': 1, 'usages': {
            'VCPU': 0, 'DISK_GB': 0, 'MEMORY_MB': 0}},
            self.get(path, version='1.0').json)
        self.consume('p1', 'u1', {VCPU: 2, DISK_GB: 10})
        self.consume('p2', 'u2', {VCPU: 1})
        self.assertEqual({'VCPU': 3, 'DISK_GB': 10, 'MEMORY_MB': 0},
                         self.get(path).json['usages'])

    def test_missing_provider_is_404(self):
        self.assertError(self.get('/resource_providers/%s/usages'
                                  % uuid.uuid4(), status=None), 404)


class TestTotalUsages(UsageTestCase):

    def setUp(self):
        super().setUp()
        self.consume('p1', 'u1', {VCPU: 2, DISK_GB: 10}, 'INSTANCE')
        self.consume('p1', 'u1', {VCPU: 4}, 'INSTANCE')
        self.consume('p1', 'u2', {MEMORY_MB: 512}, 'MIGRATION')
        self.consume('p1', 'u2', {VCPU: 1})
        self.consume('p2', 'u1', {VCPU: 8})

    def test_before_1_9_is_404(self):
        self.assertError(self.get('/usages?project_id=p1', status=None,
                                  version='1.8'), 404)

    def test_project_and_user(self):
        self.assertEqual({'usages': {'VCPU': 7, 'DISK_GB': 10,
                                     'MEMORY_MB': 512}},
                         self.get('/usages?project_id=p1', version='1.9').json)
        self.assertEqual({'usages': {'VCPU': 6, 'DISK_GB': 10}},
                         self.get('/usages?project_id=p1&user_id=u1',
                                  version='1.37').json)
        self.assertEqual({'usages': {}}, self.get(
            '/usages?project_id=nobody', version='1.9').json)

    def test_by_consumer_type_from_1_38(self):
        self.assertEqual({'usages': {
            'INSTANCE': {'consumer_count': 2, 'VCPU': 6, 'DISK_GB': 10},
            'MIGRATION': {'consumer_count': 1, 'MEMORY_MB': 512},
            'unknown': {'consumer_count': 1, 'VCPU': 1},
        }}, self.get('/usages?project_id=p1').json)
        self.assertEqual({'usages': {
            'INSTANCE': {'consumer_count': 2, 'VCPU': 6, 'DISK_GB': 10}}},
            self.get('/usages?project_id=p1&consumer_type=INSTANCE').json)
        self.assertEqual({'usages': {
            'all': {'consumer_count': 4, 'VCPU': 7, 'DISK_GB': 10,
                    'MEMORY_MB': 512}}},
            self.get('/usages?project_id=p1&consumer_type=all').json)
        self.assertEqual({'usages': {'unknown': {'consumer_count': 1,
                                                 'VCPU': 1}}},
                         self.get('/usages?project_id=p1&consumer_type='
                                  'unknown').json)
        self.assertEqual({'usages': {}}, self.get(
            '/usages?project_id=p1&consumer_type=NONE_SUCH').json)
        self.assertEqual({'usages': {}}, self.get(
            '/usages?project_id=nobody&consumer_type=all').json)

    def test_bad_queries_are_400(self):
        for query, version in (('', '1.9'), ('?user_id=u1', '1.9'),
                               ('?project_id=', '1.9'),
                               ('?project_id=p1&x=1', '1.9'),
                               ('?project_id=p1&consumer_type=INSTANCE',
                                '1.37'),
                               ('?project_id=p1&consumer_type=lower', '1.38'),
                               ('?project_id=%s' % ('p' * 256), '1.9'),
                               ('?project_id=p%001', '1.9')):
            self.assertError(self.get('/usages' + query, status=None,
                                      version=version), 400)
