"""POST /workers/cleanup (3.24, admin) through the real python-cinderclient
(``workers.clean``) over HTTP: the operations of a dead worker are
repaired, a live worker's are left alone, filters narrow it, tenants are
refused."""
import threading

from cinderclient import client as cinder_client
from cinderclient.contrib import noauth
from cinderclient import exceptions as cinder_exceptions
from keystoneauth1 import session as ks_session

from tests import base
from tests.functional import worker_fixtures as wf
from volapi.api import app as volume_app
from volapi.volume.transitions import engine
from volapi.wsgi import server as http_server

DEAD = 1000  # seconds since the last heartbeat of a dead worker


class WorkersCleanupAPITest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(wf.PrivateFakeTransport(self))
        server = http_server.make_server(
            volume_app.setup_app(self.config.conf), ('127.0.0.1', 0))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.endpoint = 'http://127.0.0.1:%d/v3' % server.server_port

    def client(self, user='admin', project='admin'):
        auth = noauth.CinderNoAuthPlugin(user, project,
                                         endpoint=self.endpoint)
        return cinder_client.Client('3.24',
                                    session=ks_session.Session(auth=auth))

    def extending_volume(self, holder):
        volume = wf.make_volume(self.context, status='available')
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.assertTrue(wf.objects.Worker.take(
            self.context, 'Volume', volume.id, 'extending', holder.id))
        return volume

    def status(self, volume):
        volume.refresh()
        return volume.status

    def test_dead_workers_operations_are_repaired(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        alive = wf.make_service(self.context, 'alive@file')
        of_dead = self.extending_volume(dead)
        of_alive = self.extending_volume(alive)
        cleaning, unavailable = self.client().workers.clean()
        self.assertEqual([(dead.id, 'dead@file', 'volapi-volume')],
                         [(s.id, s.host, s.binary) for s in cleaning])
        self.assertEqual([alive.id], [s.id for s in unavailable])
        self.assertEqual('error_extending', self.status(of_dead))
        self.assertEqual('extending', self.status(of_alive))

    def test_filters(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        first, second = (self.extending_volume(dead) for _ in range(2))
        cleaning, _ = self.client().workers.clean(
            host='dead@file', resource_id=second.id, resource_type='volume')
        self.assertEqual([dead.id], [s.id for s in cleaning])
        self.assertEqual(['extending', 'error_extending'],
                         [self.status(v) for v in (first, second)])
        cleaning, unavailable = self.client().workers.clean(host='nobody')
        self.assertEqual(([], []), (cleaning, unavailable))
        self.assertEqual('extending', self.status(first))

    def test_bad_resource_type_is_a_400(self):
        e = self.assertRaises(cinder_exceptions.BadRequest,
                              self.client().workers.clean,
                              resource_type='backup')
        self.assertIn('Resource type backup not valid', str(e))

    def test_tenants_may_not(self):
        dead = wf.make_service(self.context, 'dead@file', age=DEAD)
        volume = self.extending_volume(dead)
        self.assertRaises(cinder_exceptions.Forbidden,
                          self.client('user-a', 'project-a').workers.clean)
        self.assertEqual('extending', self.status(volume))
