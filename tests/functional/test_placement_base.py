"""The base of the placement API tests: the WSGI application on the
backend under test, driven through WebTest, with helpers that speak
Placement's wire format. (No tests here; other placement test modules
build on it.)"""
import json
import os
import uuid as uuidlib

import fixtures
import sqlalchemy as sa
import webtest

from db import models
from db import session
from tests import base
from volapi.placement import policy
from volapi.placement import wsgi

ALLOCATIONS = models.Allocation.__table__
INVENTORIES = models.Inventory.__table__
PROVIDERS = models.ResourceProvider.__table__


def insert_allocations(conn, rows):
    """Insert allocation rows (resource_provider_id, resource_class_id,
    consumer_id, used) in ``conn``'s transaction as every volapi writer
    leaves them: counted in their inventory's ``allocated``, their
    providers' revisions advanced."""
    conn.execute(ALLOCATIONS.insert().values(created_at=sa.func.now()),
                 rows)
    for row in rows:
        conn.execute(INVENTORIES.update().where(
            INVENTORIES.c.resource_provider_id == row['resource_provider_id'],
            INVENTORIES.c.resource_class_id == row['resource_class_id'])
            .values(allocated=INVENTORIES.c.allocated + row['used']))
        conn.execute(PROVIDERS.update().where(
            PROVIDERS.c.id == row['resource_provider_id'])
            .values(revision=PROVIDERS.c.revision + 1))


ADMIN = 'admin'
JSON = 'application/json'


class PlacementTestCase(base.DatabaseTestCase):
    """Requests default to the newest microversion, as admin."""

    version = 'latest'

    def setUp(self):
        super().setUp()
        self.app = webtest.TestApp(wsgi.setup_app(self.config.conf))
        self.addCleanup(self.assertAllocatedCounted)

    def assertAllocatedCounted(self):
        """After every test: each inventory's ``allocated`` is the sum of
        its allocations."""
        counted = sa.select(
            INVENTORIES.c.resource_provider_id,
            INVENTORIES.c.resource_class_id, INVENTORIES.c.allocated)
        summed = sa.select(
            ALLOCATIONS.c.resource_provider_id,
            ALLOCATIONS.c.resource_class_id,
            sa.func.sum(ALLOCATIONS.c.used)).group_by(
            ALLOCATIONS.c.resource_provider_id,
            ALLOCATIONS.c.resource_class_id)
        with session.reader.connection.using(self.context) as conn:
            counts = {(p, c): n for p, c, n in conn.execute(counted)}
            sums = {(p, c): n for p, c, n in conn.execute(summed)}
        self.assertEqual(
            {k: v for k, v in counts.items() if v or k in sums}, sums)

    def override_policy(self, rules):
        """Policy rules ({name: check string}) from a policy file, as an
        operator overrides them; noauth2 can give no token the service
        role, which some defaults ask for."""
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'policy.yaml')
        with open(path, 'w') as handle:
            json.dump(rules, handle)
        policy.get_enforcer(self.config.conf)  # registers [oslo_policy]
        policy.reset()
        self.addCleanup(policy.reset)
        self.config.set(group='oslo_policy', policy_file=path)

    def request(self, method, path, body=None, status=None, version=None,
                token=ADMIN, headers=None, content_type=JSON):
        all_headers = {'Accept': JSON}
        version = self.version if version is None else version
        if version:
            all_headers['OpenStack-API-Version'] = 'placement %s' % version
        if token is not None:
            all_headers['X-Auth-Token'] = token
        if body is not None and not isinstance(body, (str, bytes)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode('utf-8')
        if body is not None and content_type:
            all_headers['Content-Type'] = content_type
        all_headers.update(headers or {})
        # A header given as None is not sent.
        all_headers = {k: v for k, v in all_headers.items() if v is not None}
        response = self.app.request(
            path, method=method, body=body, headers=all_headers,
            expect_errors=True)
        if status is not None:
            self.assertEqual(status, response.status_int,
                             '%s %s: %s' % (method, path, response.text))
        return response

    def get(self, path, status=200, **kwargs):
        return self.request('GET', path, status=status, **kwargs)

    def post(self, path, body, status=None, **kwargs):
        return self.request('POST', path, body, status=status, **kwargs)

    def put(self, path, body=None, status=None, **kwargs):
        return self.request('PUT', path, body, status=status, **kwargs)

    def delete(self, path, status=204, **kwargs):
        return self.request('DELETE', path, status=status, **kwargs)

    # -- assertions ---------------------------------------------------------------
    def assertError(self, response, status, code=None, detail=None):
        """``response`` is Placement's error body with ``status``, and the
        error code ``code`` and a detail containing ``detail`` if given."""
        self.assertEqual(status, response.status_int, response.text)
        error = response.json['errors'][0]
        self.assertEqual(status, error['status'])
        self.assertTrue(error['request_id'].startswith('req-'))
        if code is not None:
            self.assertEqual(code, error['code'])
        if detail is not None:
            self.assertIn(detail, error['detail'])
        return error

    # -- fixtures --------------------------------------------------------------------
    def create_provider(self, name=None, uuid=None, parent=None):
        body = {'name': name or 'rp-%s' % uuidlib.uuid4().hex[:8]}
        body['uuid'] = uuid or str(uuidlib.uuid4())
        if parent is not None:
            body['parent_provider_uuid'] = parent
        return self.post('/resource_providers', body, status=200,
                         version='1.37').json

    def set_inventory(self, rp_uuid, inventories, generation=None):
        if generation is None:
            generation = self.get('/resource_providers/%s' % rp_uuid,
                                  version='1.14').json['generation']
        return self.put('/resource_providers/%s/inventories' % rp_uuid,
                        {'resource_provider_generation': generation,
                         'inventories': inventories}, status=200).json
