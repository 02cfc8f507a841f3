"""The database goes away under both APIs: a TCP proxy between volapi and
the server under test is cut and restored (tests/functional/tcp_proxy.py).

While it is down every request answers 503 with ``Retry-After`` in the
API's own error format and writes nothing; a blip before COMMIT is retried
and the request succeeds; a COMMIT whose answer was lost is not run again;
once the database is back the next request succeeds.
"""
import functools
import json

import sqlalchemy as sa

from db import session
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import tcp_proxy
from tests.functional import test_placement_base

_DEFAULT_PORTS = {'postgresql': 5432, 'mysql': 3306}


class ThroughProxy:
    """Points db.session at the database under test through a TcpProxy."""

    def use_proxy(self):
        if self.backend == 'sqlite':
            self.skipTest('SQLite is a file in this process: no server or '
                          'connection to lose')
        url = sa.engine.make_url(self.database.url)
        self.proxy = self.useFixture(tcp_proxy.TcpProxy(
            url.host or '127.0.0.1', url.port or _DEFAULT_PORTS[self.backend]))
        session.configure(self.proxy.url_for(self.database.url))
        self.addCleanup(session.configure, self.database.url)


class VolumeAPIDatabaseOutageTest(ThroughProxy, api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.use_proxy()

    def volume_ids(self):
        body = self.app.get('/v3/volumes', headers=self.owner).json
        return sorted(v['id'] for v in body['volumes'])

    def assertUnavailable(self, response):
        self.assertEqual(503, response.status_int, response.text)
        self.assertEqual('2', response.headers['Retry-After'])
        fault = response.json['serviceUnavailable']
        self.assertEqual(503, fault['code'])
        self.assertIn('database is unavailable', fault['message'])

    def test_down_is_503_then_recovers(self):
        volume_id = self.create_volume().json['volume']['id']
        self.proxy.cut()
        self.assertUnavailable(self.app.get(
            '/v3/volumes/%s' % volume_id, headers=self.owner, status=503))
        self.assertUnavailable(self.app.get(
            '/v3/volumes/detail', headers=self.owner, status=503))
        self.assertUnavailable(self.create_volume(expect=503))
        self.assertUnavailable(self.app.post_json(
            '/v3/volumes/%s/action' % volume_id, {'os-extend': {'new_size': 2}},
            headers=self.owner, status=503))
        self.proxy.restore()
        self.assertEqual([volume_id], self.volume_ids())
        self.app.get('/v3/volumes/%s' % volume_id, headers=self.owner,
                     status=200)

    def test_blip_before_commit_is_retried(self):
        self.create_volume()
        # The pooled connections die and the next two connects are refused.
        self.proxy.cut(heal_after=2)
        volume_id = self.create_volume().json['volume']['id']
        self.assertEqual(2, self.proxy.refused)
        self.assertIn(volume_id, self.volume_ids())
        self.assertEqual(2, len(self.volume_ids()))

    def test_lost_commit_answer_is_not_run_again(self):
        self.proxy.cut_after_commit(after=b'INSERT INTO volumes')
        self.assertUnavailable(self.create_volume(expect=503))
        # The COMMIT reached the server: the volume exists, once.
        self.assertEqual(1, len(self.volume_ids()))


class PlacementDatabaseOutageTest(ThroughProxy,
                                  test_placement_base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.use_proxy()

    def assertUnavailable(self, response):
        self.assertEqual(503, response.status_int, response.text)
        self.assertEqual('2', response.headers['Retry-After'])
        [error] = response.json['errors']
        self.assertEqual(503, error['status'])
        self.assertIn('database is unavailable', error['detail'])
        self.assertTrue(error['request_id'].startswith('req-'))

    def test_down_is_503_then_recovers(self):
        kept = self.create_provider(name='kept')['uuid']
        self.proxy.cut()
        self.assertUnavailable(self.request('GET', '/resource_providers'))
        self.assertUnavailable(self.request(
            'POST', '/resource_providers', {'name': 'lost'}))
        self.assertUnavailable(self.request(
            'PUT', '/resource_providers/%s/inventories' % kept,
            {'resource_provider_generation': 0,
             'inventories': {'DISK_GB': {'total': 10}}}))
        self.assertUnavailable(self.request(
            'GET', '/allocation_candidates?resources=DISK_GB:1'))
        self.proxy.restore()
        providers = self.get('/resource_providers').json['resource_providers']
        self.assertEqual(['kept'], [p['name'] for p in providers])
        self.assertEqual([], self.get(
            '/allocation_candidates?resources=DISK_GB:1').json[
                'allocation_requests'])
        self.assertEqual({}, self.get(
            '/resource_providers/%s/inventories' % kept).json['inventories'])

    def test_blip_before_commit_is_retried(self):
        self.create_provider(name='before')
        self.proxy.cut(heal_after=2)
        self.post('/resource_providers', {'name': 'during'}, status=200)
        self.assertEqual(2, self.proxy.refused)
        providers = self.get('/resource_providers').json['resource_providers']
        self.assertEqual(['before', 'during'],
                         sorted(p['name'] for p in providers))


class NewRoutesDatabaseOutageTest(ThroughProxy, api_fixtures.APITestCase):
    """A request of each of the later controllers (groups, group types and
    specs, QoS specs, backups, manage and unmanage, the connection
    actions, services), valid and sent by an administrator while the
    database is cut: each is a 503 in Cinder's fault format. (Every route
    of the API was swept once the same way; a request or two of each
    controller keeps the cost of each 503's connection attempts down.)"""

    def setUp(self):
        super().setUp()
        self.use_proxy()

    def test_each_is_503(self):
        admin = api_fixtures.caller('admin', 'admin', '3.60')
        post = functools.partial(self.app.post_json, headers=admin)
        volume = rows.volume(self.context, project_id='admin')
        attachment = rows.attachment(self.context, volume)
        backup = rows.backup(self.context, volume)
        post('/v3/types', {'volume_type': {'name': 't'}})
        kind = post('/v3/group_types', {'group_type': {
            'name': 'gt', 'group_specs': {'k': 'v'}}}).json['group_type']
        group = post('/v3/groups', {'group': {
            'group_type': 'gt', 'volume_types': ['t']}}).json['group']
        qos = post('/v3/qos-specs', {'qos_specs': {
            'name': 'q', 'k': 'v'}}).json['qos_specs']
        action = '/v3/volumes/%s/action' % volume.id
        requests = [
            ('PUT', '/v3/groups/%s' % group['id'],
             {'group': {'add_volumes': volume.id}}),
            ('PUT', '/v3/group_types/%s' % kind['id'],
             {'group_type': {'name': 'gt2'}}),
            ('POST', '/v3/group_types/%s/group_specs' % kind['id'],
             {'group_specs': {'a': 'b'}}),
            ('PUT', '/v3/qos-specs/%s' % qos['id'], {'qos_specs': {'a': 'b'}}),
            ('GET', '/v3/qos-specs/%s/associate?vol_type_id=t' % qos['id'],
             None),
            ('POST', '/v3/backups', {'backup': {'volume_id': volume.id}}),
            ('POST', '/v3/backups/%s/restore' % backup.id,
             {'restore': {'volume_id': volume.id}}),
            ('GET', '/v3/manageable_volumes?host=worker-1@file', None),
            ('POST', '/v3/manageable_volumes', {'volume': {
                'host': 'worker-1@file', 'ref': {'source-name': 'disk'}}}),
            ('POST', action, {'os-unmanage': None}),
            ('POST', action, {'os-force_detach': {
                'attachment_id': attachment.id}}),
            ('POST', action, {'os-initialize_connection': {
                'connector': {'host': 'h'}}}),
            ('PUT', '/v3/os-services/disable', {
                'host': 'worker-1', 'binary': 'cinder-volume'}),
        ]
        self.proxy.cut()
        for method, path, body in requests:
            response = self.app.request(
                path, method=method, headers=admin, expect_errors=True,
                body=b'' if body is None else json.dumps(body).encode(),
                content_type='application/json')
            self.assertEqual(503, response.status_int,
                             '%s %s: %s' % (method, path, response.text))
            self.assertUnavailable(response)
        self.proxy.restore()
        self.assertEqual('available', self.app.get(
            '/v3/groups/%s' % group['id'], headers=admin).json['group'][
                'status'])

    assertUnavailable = VolumeAPIDatabaseOutageTest.assertUnavailable
