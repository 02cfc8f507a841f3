"""PlacementDirect: the placement API in process, with no server and no
socket, as a CLI tool (nova-manage style) or a test would use it."""
import socket
import uuid as uuidlib

from unittest import mock

from tests import base
from volapi.placement import direct


class TestPlacementDirect(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.conf = self.config.conf
        self.config.set(group='database', connection=self.database.url)

    def test_a_reshape_flow_without_a_server(self):
        node, consumer = str(uuidlib.uuid4()), str(uuidlib.uuid4())
        # Nothing may open a socket: everything is in process.
        with mock.patch.object(socket, 'socket',
                               side_effect=AssertionError('socket opened')):
            with direct.PlacementDirect(self.conf,
                                        latest_microversion=True) as client:
                response = client.post('/resource_providers', json={
                    'uuid': node, 'name': 'node'})
                self.assertEqual(200, response.status_code, response.text)
                self.assertTrue(response.ok)
                response = client.put(
                    '/resource_providers/%s/inventories' % node,
                    json={'resource_provider_generation': 0,
                          'inventories': {'DISK_GB': {'total': 10}}})
                self.assertEqual(200, response.status_code, response.text)
                response = client.put('/allocations/%s' % consumer, json={
                    'allocations': {node: {'resources': {'DISK_GB': 4}}},
                    'project_id': 'p', 'user_id': 'u',
                    'consumer_generation': None,
                    'consumer_type': 'INSTANCE'})
                self.assertEqual(204, response.status_code, response.text)
                self.assertEqual(b'', response.content)
                shown = client.get('/allocations/%s' % consumer).json()
                self.assertEqual(1, shown['consumer_generation'])
                self.assertEqual('placement 1.39', client.get(
                    '/').headers['OpenStack-API-Version'])

    def test_microversion_per_request_and_default(self):
        consumer = str(uuidlib.uuid4())
        with direct.PlacementDirect(self.conf) as client:
            # No version asked: 1.0, as Placement's PlacementDirect.
            self.assertEqual('placement 1.0', client.get(
                '/allocations/%s' % consumer).headers[
                    'OpenStack-API-Version'])
            response = client.get('/allocations/%s' % consumer,
                                  microversion='1.28')
            self.assertEqual('placement 1.28',
                             response.headers['OpenStack-API-Version'])
            self.assertEqual({'allocations': {}}, response.json())

    def test_errors_come_back_as_responses(self):
        with direct.PlacementDirect(self.conf,
                                    latest_microversion=True) as client:
            response = client.put('/allocations/not-a-uuid', json={})
            self.assertEqual(400, response.status_code)
            self.assertFalse(response.ok)
            self.assertIn('Malformed consumer_uuid',
                          response.json()['errors'][0]['detail'])
            response = client.get('http://placement.example/nothing/here')
            self.assertEqual(404, response.status_code)

    def test_noauth_admin_only_inside_the_block(self):
        self.config.set(group='placement', auth_strategy='keystone')
        with direct.PlacementDirect(self.conf) as client:
            self.assertEqual('noauth2', self.conf.placement.auth_strategy)
            self.assertEqual(200, client.get('/resource_providers')
                             .status_code)
        self.assertEqual('keystone', self.conf.placement.auth_strategy)
