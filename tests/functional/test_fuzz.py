"""The fuzzer: malformed requests to every route of both APIs, in process,
on the backend under test (tests.functional.fuzz_requests draws them).

The property: no answer is a 5xx or carries a traceback; every error is in
the API's own format (Cinder's fault, Placement's errors list); and
afterwards the database invariants hold:

- every ``workers`` row (an operation in flight) belongs to a live volume
  or snapshot in the status the row records;
- every placement inventory's ``allocated`` is the sum of its allocations,
  within its capacity;
- every consumer has allocations, and every allocation a consumer record.

Budget: ``VOLAPI_FUZZ_EXAMPLES`` requests in all (default 3,000, half per
API); ``VOLAPI_FUZZ_SEED`` replays a run (each run's seed is in its
failure message and its details).
"""
import collections
import json
import os
import random
import time
import uuid

from oslo_utils import timeutils
import sqlalchemy as sa
import webob

from db import models
from db import session
from tests import base
from tests import volume_rows as rows
from tests.functional import api_routes
from tests.functional import fuzz_requests as fuzz
from tests.functional import volume_worker_fixture
from tests.functional import worker_fixtures
from volapi.api import app as volume_app
from volapi.api import errors as volume_errors
from volapi.placement import wsgi as placement_wsgi
from objects import group_type as group_type_obj
from objects import quota
from volapi.volume import backups as backup_api
from volapi.volume import groups as group_api
from volapi.volume import transfers as transfer_api
from volapi.volume.transitions import table as transitions

EXAMPLES = int(os.environ.get('VOLAPI_FUZZ_EXAMPLES') or 3000)
SEED = int(os.environ.get('VOLAPI_FUZZ_SEED') or
           random.SystemRandom().randrange(2 ** 32))
# New resources every so many requests: the fuzzer deletes some.
REFILL_EVERY = 250
CHECK_EVERY = 1000

# Callers, as (weight, headers): mostly ones the API lets in, so that
# requests get past authentication.
VOLUME_CALLERS = [
    (7, {'X-Auth-Token': 'user-a:project-a'}),
    (3, {'X-Auth-Token': 'user-b:project-b'}),
    (6, {'X-Auth-Token': 'admin'}),
    (1, {'X-Auth-Token': 'user-r:project-a', 'X-Roles': 'reader'}),
    (1, {}),
    (1, {'X-Auth-Token': ':'}),
    (1, {'X-Auth-Token': 'a:b:c'}),
    (1, {'X-Auth-Token': '\xff\xfe:\x00'}),
    (1, {'X-Auth-Token': 'x' * 5000}),
]
PLACEMENT_CALLERS = [
    (14, {'X-Auth-Token': 'admin'}),
    (2, {'X-Auth-Token': 'user-a:project-a'}),
    (1, {}),
    (1, {'X-Auth-Token': 'a:b:c'}),
    (1, {'X-Auth-Token': '\xe9:\x7f'}),
]
ANY_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS']


class Resources:
    """Ids of what exists, by kind, newest last; the fuzzer mostly picks
    recent ones (those it has not deleted yet)."""

    def __init__(self, rng):
        self.rng = rng
        self.ids = collections.defaultdict(list)

    def add(self, kind, value):
        self.ids[kind].append(value)

    def pick(self, kind):
        if kind == 'uuid' or kind == 'consumer':
            return str(uuid.uuid4()) if self.rng.random() < 0.5 else \
                self._recent('consumer', str(uuid.uuid4()))
        if kind == 'generation':
            return self.rng.choice([0, 1, 2, 5, -1])
        return self._recent(kind, str(uuid.uuid4()))

    def _recent(self, kind, default):
        known = self.ids.get(kind)
        if not known:
            return default
        return known[-1 - min(int(self.rng.expovariate(0.5)),
                              len(known) - 1)]


class FuzzTestCase(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(worker_fixtures.PrivateFakeTransport(self))
        self.failures = []
        self.statuses = collections.Counter()

    def run_fuzz(self, name, count, one_request):
        rng = random.Random('%d-%s' % (SEED, name))
        self.resources = Resources(rng)
        generator = fuzz.Generator(rng, self.resources)
        started = time.monotonic()
        for index in range(count):
            if index % REFILL_EVERY == 0:
                self.refill()
            if index and index % CHECK_EVERY == 0:
                self.check_invariants()
            one_request(generator)
        self.check_invariants()
        elapsed = time.monotonic() - started
        summary = ('%s: %d requests in %.1f s, seed %d, statuses %s'
                   % (name, count, elapsed, SEED,
                      dict(sorted(self.statuses.items()))))
        self.addDetail('fuzz', _text(summary))
        self.assertEqual(
            [], self.failures[:20],
            '%d of %d requests failed; replay with VOLAPI_FUZZ_SEED=%d '
            'VOLAPI_FUZZ_EXAMPLES=%d' % (len(self.failures), count, SEED,
                                         EXAMPLES))

    def send(self, app, method, path, headers, body, content_type,
             content_length=None):
        request = webob.Request.blank(path)
        request.method = method
        for header, value in headers.items():
            request.headers[header] = value
        if body is not None:
            request.body = body
        if content_type is not None:
            request.content_type = content_type
        elif 'Content-Type' in request.headers:
            del request.headers['Content-Type']
        if content_length is not None:
            # 'short': the body ends before its length; 'long': the
            # length ends before the body.
            size = len(body or b'')
            request.environ['CONTENT_LENGTH'] = {
                'short': str(size + 10), 'long': str(max(size - 1, 0))
            }.get(content_length, content_length)
        return request.get_response(app)

    @staticmethod
    def odd_headers(generator, headers, service, versions):
        """Add a microversion (mostly a valid one of ``service``; else
        malformed, out of range, another API's or garbage)."""
        if generator.chance(0.05):
            headers['OpenStack-API-Version'] = _latin1(
                generator.choice(fuzz.VERSION_HEADERS))
        elif generator.chance(0.9):
            headers['OpenStack-API-Version'] = service + ' ' + _latin1(
                generator.version(versions))

    @staticmethod
    def content_length(generator):
        """None (the body's own length), mostly; else one that is no
        length or not the body's."""
        if generator.chance(0.03):
            return _latin1(generator.choice(fuzz.CONTENT_LENGTHS))
        return None

    def record(self, method, path, response, problem):
        self.failures.append('%s %s -> %s: %s' % (
            method, path[:200], response.status,
            problem if len(problem) < 300 else problem[:300] + '...'))

    def check_common(self, method, path, response):
        self.statuses[response.status_int] += 1
        if response.status_int >= 500:
            self.record(method, path, response, response.text)
            return False
        if b'Traceback' in response.body:
            self.record(method, path, response, 'traceback in the body')
            return False
        return response.status_int >= 400 and method != 'HEAD'

    # -- invariants -------------------------------------------------------------
    def check_invariants(self):
        problems = []
        with session.reader.connection.using(self.context) as conn:
            problems += _workers_rows_agree(conn)
            problems += _allocated_is_counted(conn)
            problems += _consumers_and_allocations(conn)
        self.assertEqual([], problems,
                         'database invariants broken; replay with '
                         'VOLAPI_FUZZ_SEED=%d' % SEED)


def _text(text):
    from testtools import content
    return content.text_content(text)


# A workers row whose status is not its resource's (a managed snapshot's
# 'managing' while it is 'creating'): the statuses its resource may have.
_RESOURCE_STATUSES = collections.defaultdict(set)
for _t in transitions.TABLE:
    if _t.workers_status and 'status' in _t.values:
        _RESOURCE_STATUSES[transitions.WORKER_TYPES[_t.resource],
                           _t.workers_status].add(_t.values['status'])


def _workers_rows_agree(conn):
    workers = models.Worker.__table__
    problems = []
    for model, kind in ((models.Volume, 'Volume'),
                        (models.Snapshot, 'Snapshot')):
        table = model.__table__
        query = sa.select(workers.c.resource_id, workers.c.status,
                          table.c.status, table.c.deleted).select_from(
            workers.outerjoin(table, table.c.id == workers.c.resource_id)
        ).where(workers.c.resource_type == kind)
        for resource_id, in_flight, status, deleted in conn.execute(query):
            if deleted or status != in_flight and status not in \
                    _RESOURCE_STATUSES[kind, in_flight]:
                problems.append('workers row of %s %s says %r, the row '
                                'says %r (deleted: %s)' % (
                                    kind, resource_id, in_flight, status,
                                    deleted))
    return problems


def _allocated_is_counted(conn):
    inventories = models.Inventory.__table__
    allocations = models.Allocation.__table__
    used = sa.select(
        allocations.c.resource_provider_id, allocations.c.resource_class_id,
        sa.func.sum(allocations.c.used).label('used')).group_by(
        allocations.c.resource_provider_id,
        allocations.c.resource_class_id).subquery()
    query = sa.select(
        inventories.c.resource_provider_id, inventories.c.resource_class_id,
        inventories.c.allocated, used.c.used, inventories.c.total,
        inventories.c.reserved, inventories.c.allocation_ratio
    ).select_from(inventories.outerjoin(used, sa.and_(
        used.c.resource_provider_id == inventories.c.resource_provider_id,
        used.c.resource_class_id == inventories.c.resource_class_id)))
    problems = []
    for rp, rc, allocated, summed, total, reserved, ratio in \
            conn.execute(query):
        summed = summed or 0
        if allocated != summed:
            problems.append('inventory (%s, %s): allocated %s, allocations '
                            'sum to %s' % (rp, rc, allocated, summed))
        # MySQL's FLOAT is single precision: a little room.
        if summed > (total - reserved) * ratio * (1 + 1e-6):
            problems.append('inventory (%s, %s): %s used over a capacity '
                            'of (%s - %s) * %s' % (rp, rc, summed, total,
                                                   reserved, ratio))
    orphans = conn.execute(sa.select(sa.func.count()).select_from(
        allocations).where(~sa.exists().where(
            inventories.c.resource_provider_id ==
            allocations.c.resource_provider_id,
            inventories.c.resource_class_id ==
            allocations.c.resource_class_id))).scalar()
    if orphans:
        problems.append('%d allocations without an inventory' % orphans)
    return problems


def _consumers_and_allocations(conn):
    consumers = models.Consumer.__table__
    allocations = models.Allocation.__table__
    problems = []
    empty = conn.execute(sa.select(consumers.c.uuid).where(~sa.exists().where(
        allocations.c.consumer_id == consumers.c.uuid))).scalars().all()
    if empty:
        problems.append('consumers without allocations: %s' % empty[:5])
    unrecorded = conn.execute(sa.select(allocations.c.consumer_id).where(
        ~sa.exists().where(consumers.c.uuid == allocations.c.consumer_id))
    ).scalars().all()
    if unrecorded:
        problems.append('allocations of consumers without a record: %s'
                        % sorted(set(unrecorded))[:5])
    return problems


class VolumeAPIFuzzTest(FuzzTestCase):
    """With a volume worker serving the casts and calls, so that what the
    API accepts is carried out, as in a deployment."""

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(
            volume_worker_fixture.RunningWorker(self)).worker
        self.app = volume_app.setup_app(self.config.conf)
        self.routes = api_routes.volume_routes()
        self.actions = api_routes.volume_actions_by_path()

    def refill(self):
        resources, context = self.resources, self.context
        type_id = rows.volume_type(context, multiattach=True)
        resources.add('type_id', type_id)
        resources.add('type_name', 'type-%s' % type_id[:8])
        resources.add('type_id', '__DEFAULT__')
        qos_id = str(uuid.uuid4())
        rows.insert(context, models.QosSpecs, id=qos_id,
                    name='qos-' + qos_id, live_name='qos-' + qos_id,
                    consumer='back-end', deleted=False,
                    created_at=timeutils.utcnow())
        rows.insert(context, models.QosSpecsItem, qos_specs_id=qos_id,
                    key='k', value='v')
        resources.add('qos_id', qos_id)
        driver = self.worker.driver
        for project in ('project-b', 'project-a'):
            # Rows as the API and a worker would have left them, with
            # their files: a failing driver is not what is tested here.
            volume = rows.volume(context, project_id=project)
            driver.create_volume(volume)
            resources.add('volume_id', volume.id)
            snapshot = rows.snapshot(context, volume)
            driver.create_snapshot(snapshot, volume)
            resources.add('snapshot_id', snapshot.id)
            attached = rows.volume(context, project_id=project,
                                   status='in-use', attach_status='attached')
            driver.create_volume(attached)
            resources.add('volume_id', attached.id)
            resources.add('attachment_id',
                          rows.attachment(context, attached).id)
        for project in ('project-a', 'project-b'):
            # A volume offered: its transfer's key opens it.
            offered = rows.volume(context, project_id=project)
            driver.create_volume(offered)
            transfer, key = transfer_api.create(
                self.make_context(project_id=project), offered.id)
            resources.add('transfer_id', transfer.id)
            resources.add('auth_key', key)
        self.refill_groups_and_backups(type_id)
        for key in ('k', 'multiattach', 'a'):
            resources.add('key', key)
        for project in ('project-a', 'project-b', 'admin'):
            resources.add('project_id', project)
        resources.add('class_name', 'default')

    def refill_groups_and_backups(self, type_id):
        """A group type and a group of each project (through their use
        cases, which keep the groups quota), a backup of each project's
        volume, and a file of the worker's pool nobody manages."""
        resources, context = self.resources, self.context
        driver = self.worker.driver
        kind = group_type_obj.GroupType(
            context, name='fuzz-%s' % uuid.uuid4(), is_public=True,
            group_specs={'k': 'v'})
        kind.create()
        resources.add('group_type_id', kind.id)
        for project in ('project-b', 'project-a'):
            owner = self.make_context(project_id=project)
            volume = rows.volume(context, project_id=project)
            driver.create_volume(volume)
            try:
                # The fuzzer may have set the project's quotas to nothing.
                group = group_api.create(owner, 'g', None, kind.id,
                                         [type_id])
                resources.add('group_id', group.id)
                resources.add('backup_id',
                              backup_api.create(owner, volume.id).id)
            except quota.OverQuota:
                pass
        pool = driver.pool_names()[0]
        name = 'fuzz-%s' % uuid.uuid4()
        with open(os.path.join(driver.pool_dir(pool), name), 'wb') as f:
            f.truncate(1024 ** 2)
        resources.add('file', name)
        for host in ('worker-1@file', 'worker-1', 'worker-1@file#' + pool):
            resources.add('host', host)

    def test_malformed_requests(self):
        self.run_fuzz('volume', EXAMPLES // 2, self.one_request)

    def one_request(self, generator):
        method, template = generator.choice(self.routes)
        if method == '*':
            method = 'POST' if template.endswith(('action', 'cleanup',
                                                  'accept', 'restore')) \
                else 'GET'
        if generator.chance(0.08):
            method = generator.choice(ANY_METHODS)
        path = generator.fill_path(template, {
            '{volume_id}': 'volume_id', '{snapshot_id}': 'snapshot_id',
            '{attachment_id}': 'attachment_id', '{type_id}': 'type_id',
            '{key}': 'key', '{message_id}': 'message_id',
            '{project_id}': 'project_id', '{class_name}': 'class_name',
            '{transfer_id}': 'transfer_id', '{qos_id}': 'qos_id',
            '{backup_id}': 'backup_id', '{group_id}': 'group_id',
            '{group_type_id}': 'group_type_id'})
        if generator.chance(0.3):
            project = generator.choice(['project-a', 'project-b', 'admin',
                                        'os-services', '%00', 'x' * 300])
            path = path.replace('/v3/', '/v3/%s/' % project, 1)
        path += generator.query()
        headers = dict(generator.weighted(VOLUME_CALLERS))
        self.odd_headers(generator, headers, 'volume', fuzz.VOLUME_VERSIONS)
        if generator.chance(0.05):
            headers['Accept'] = _latin1(generator.choice(
                [a for a in fuzz.ACCEPTS if a]))
        examples = fuzz.VOLUME_EXAMPLES.get(
            ('*' if template in self.actions or
             template.endswith(('cleanup', 'accept', 'restore'))
             else method,
             template), [])
        body, content_type = (None, None)
        if method in ('POST', 'PUT', 'PATCH') or generator.chance(0.05):
            body, content_type = generator.body(examples,
                                                fuzz.VOLUME_SCHEMAS)
            if template in self.actions and generator.chance(0.1):
                body = json.dumps({generator.choice(
                    self.actions[template]): generator.hostile_value()}
                ).encode()
        response = self.send(self.app, method, path, headers, body,
                             content_type, self.content_length(generator))
        if self.check_common(method, path, response):
            self.check_fault(method, path, response)

    def check_fault(self, method, path, response):
        try:
            (name, detail), = response.json.items()
            expected = volume_errors.FAULT_NAMES.get(
                response.status_int, volume_errors.DEFAULT_FAULT_NAME)
            ok = (name == expected and
                  detail['code'] == response.status_int and
                  isinstance(detail['message'], str) and
                  len(detail['message']) <= 1100)
        except Exception:  # any shape but Cinder's is the failure
            ok = False
        if not ok:
            self.record(method, path, response,
                        'not a Cinder fault: %s' % response.text[:300])


class PlacementFuzzTest(FuzzTestCase):

    def setUp(self):
        super().setUp()
        self.app = placement_wsgi.setup_app(self.config.conf)
        self.routes = api_routes.placement_routes()

    def admin(self, method, path, body=None, version='1.39'):
        request = webob.Request.blank(path)
        request.method = method
        request.headers['X-Auth-Token'] = 'admin'
        request.headers['OpenStack-API-Version'] = 'placement ' + version
        request.headers['Accept'] = 'application/json'
        if body is not None:
            request.json_body = body
            request.content_type = 'application/json'
        response = request.get_response(self.app)
        self.assertLess(response.status_int, 300, response.text)
        return response

    def refill(self):
        resources = self.resources
        rp = str(uuid.uuid4())
        self.admin('POST', '/resource_providers',
                   {'name': 'fuzz-%s' % rp, 'uuid': rp})
        resources.add('rp_uuid', rp)
        resources.add('uuid', rp)
        self.admin('PUT', '/resource_providers/%s/inventories' % rp,
                   {'resource_provider_generation': 0,
                    'inventories': {'DISK_GB': {'total': 100},
                                    'VCPU': {'total': 8}}})
        consumer = str(uuid.uuid4())
        self.admin('PUT', '/allocations/%s' % consumer,
                   {'allocations': {rp: {'resources': {'DISK_GB': 10}}},
                    'project_id': 'project-a', 'user_id': 'user-a',
                    'consumer_generation': None}, version='1.28')
        resources.add('consumer', consumer)
        self.admin('PUT', '/traits/CUSTOM_FUZZ')
        for name in ('DISK_GB', 'VCPU', 'CUSTOM_FUZZ', 'MEMORY_MB'):
            resources.add('resource_class', name)
            resources.add('name', name)

    def test_malformed_requests(self):
        self.run_fuzz('placement', EXAMPLES - EXAMPLES // 2,
                      self.one_request)

    def one_request(self, generator):
        method, template = generator.choice(self.routes)
        if generator.chance(0.08):
            method = generator.choice(ANY_METHODS)
        path = generator.fill_path(template, {
            '{uuid}': 'rp_uuid', '{consumer_uuid}': 'consumer',
            '{resource_class}': 'resource_class', '{name}': 'name'})
        path += generator.query()
        headers = dict(generator.weighted(PLACEMENT_CALLERS))
        self.odd_headers(generator, headers, 'placement',
                         fuzz.PLACEMENT_VERSIONS)
        accept = generator.choice(fuzz.ACCEPTS)
        if accept is not None:
            headers['Accept'] = _latin1(accept)
        body, content_type = (None, None)
        if method in ('POST', 'PUT', 'PATCH') or generator.chance(0.05):
            body, content_type = generator.body(
                fuzz.PLACEMENT_EXAMPLES.get((method, template), []),
                fuzz.PLACEMENT_SCHEMAS)
        response = self.send(self.app, method, path, headers, body,
                             content_type and _latin1(content_type),
                             self.content_length(generator))
        if self.check_common(method, path, response) and \
                accept == 'application/json':
            self.check_errors(method, path, response)

    def check_errors(self, method, path, response):
        if response.status_int == 401 and \
                response.json.get('code') == '401 Unauthorized':
            # No token: webob's own body, as Placement's noauth2 answers.
            return
        try:
            error, = response.json['errors']
            ok = (error['status'] == response.status_int and
                  isinstance(error['detail'], str) and
                  len(error['detail']) <= 1100)
        except Exception:  # any shape but Placement's is the failure
            ok = False
        if not ok:
            self.record(method, path, response,
                        'not a Placement error: %s' % response.text[:300])


def _latin1(text):
    # What an HTTP header can carry: WSGI gives headers as latin-1.
    return text.encode('latin-1', 'replace').decode('latin-1')
