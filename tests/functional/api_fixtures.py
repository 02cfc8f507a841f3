"""What the volume API tests share: the WSGI app under WebTest on the
backend under test, callers (noauth headers) and helpers that drive the
API the way a client does."""
import threading
from wsgiref import simple_server

import webtest

from tests import base
from tests.functional import worker_fixtures
from volapi.api import app

ADMIN = {'X-Auth-Token': 'admin:admin'}


def caller(project='project-a', user='user-a', version=None, roles=None):
    headers = {'X-Auth-Token': '%s:%s' % (user, project)}
    if version:
        headers['OpenStack-API-Version'] = 'volume %s' % version
    if roles:
        headers['X-Roles'] = roles
    return headers


class _QuietHandler(simple_server.WSGIRequestHandler):

    def log_message(self, *args):
        pass


class APITestCase(base.DatabaseTestCase):
    """WebTest against ``setup_app()``; casts go to a private in-memory
    transport nobody serves, so created volumes stay 'creating' unless a
    test moves them on through the API."""

    project = 'project-a'
    # [volume] options of the pools volumes are created in (file_pools ...).
    pool_options = {}

    def setUp(self):
        super().setUp()
        self.useFixture(worker_fixtures.PrivateFakeTransport(self))
        # Volume creates go to this worker's pool.
        self.pools = self.useFixture(worker_fixtures.Pools(
            self, **self.pool_options))
        self.app = webtest.TestApp(app.setup_app(self.config.conf))
        self.owner = caller(self.project)

    def serve(self):
        """Serve the app over HTTP on 127.0.0.1 until the test ends, for
        the real clients; its /v3 endpoint."""
        server = simple_server.make_server(
            '127.0.0.1', 0, self.app.app, handler_class=_QuietHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        return 'http://127.0.0.1:%d/v3' % server.server_port

    def create_volume(self, headers=None, expect=202, **fields):
        body = {'volume': dict({'size': 1}, **fields)}
        return self.app.post_json('/v3/volumes', body,
                                  headers=headers or self.owner,
                                  status=expect)

    def make_available(self, volume_id):
        """What a worker would do, through the admin API."""
        self.app.post_json(
            '/v3/admin/volumes/%s/action' % volume_id,
            {'os-reset_status': {'status': 'available'}},
            headers=ADMIN, status=202)

    def fault(self, response, status):
        """The Cinder fault in ``response``: its message."""
        names = {400: 'badRequest', 403: 'forbidden', 404: 'itemNotFound',
                 405: 'badMethod', 409: 'conflictingRequest',
                 413: 'overLimit', 415: 'badMediaType',
                 503: 'serviceUnavailable'}
        name = names.get(status, 'computeFault')
        self.assertEqual(status, response.status_int)
        self.assertEqual([name], list(response.json))
        self.assertEqual(status, response.json[name]['code'])
        return response.json[name]['message']
