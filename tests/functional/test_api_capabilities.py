"""GET /v3/capabilities/{host}: a volume backend's capabilities, answered
by its worker; a backend nobody serves now is a 503 at once."""
import time

from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf

ADMIN = api_fixtures.ADMIN
HOST = 'worker-1@file'


class CapabilitiesTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(vwf.RunningWorker(self))

    def show(self, name=HOST, headers=ADMIN, status=200):
        return self.app.get('/v3/capabilities/%s' % name, headers=headers,
                            status=status)

    def test_the_workers_driver_answers(self):
        self.assertEqual({
            'namespace': 'OS::Storage::Capabilities::' + HOST,
            'vendor_name': 'volapi', 'volume_backend_name': 'file',
            'pool_name': None, 'driver_version': '1.0.0',
            'storage_protocol': 'local', 'display_name': None,
            'description': None, 'visibility': None,
            'replication_targets': [],
            'properties': {'thin_provisioning': {
                'title': 'Thin Provisioning',
                'description': 'Sets thin provisioning: volumes are sparse '
                               'files, taking room as data is written.',
                'type': 'boolean'}}}, self.show().json)

    def test_administrators_only(self):
        self.fault(self.show(headers=self.owner, status=403), 403)

    def test_unknown_backend(self):
        self.assertEqual("Can't find service: nope@file", self.fault(
            self.show('nope@file', status=404), 404))

    def test_a_backend_whose_worker_is_down_is_503_at_once(self):
        self.worker.mark_down()
        started = time.monotonic()
        response = self.show(status=503)
        self.assertLess(time.monotonic() - started, 10)
        self.assertIn('no volume worker serving it is up',
                      self.fault(response, 503))
        self.assertTrue(response.headers['Retry-After'].isdigit())
