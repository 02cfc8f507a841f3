"""The pools and what volumes hold, as an operator sees them with
osc-placement: ``openstack resource provider list`` shows the pools and
``openstack resource usage show`` agrees with the project's quota usage."""
import webtest

from tests.functional import api_fixtures
from tests.functional import test_placement_osc
from tests.functional import worker_fixtures
from volapi.api import app


class PoolsThroughOSCTest(test_placement_osc.TestOpenStackClient):
    """The same server and CLI as test_placement_osc, other tests."""

    def setUp(self):
        super().setUp()
        self.useFixture(worker_fixtures.PrivateFakeTransport(self))
        self.useFixture(worker_fixtures.Pools(self, file_pools=['fast:50']))
        self.volume_api = webtest.TestApp(app.setup_app(self.config.conf))

    def test_pools_and_usage(self):
        names = {p['name'] for p in self.osc(
            'resource', 'provider', 'list', '-f', 'json')}
        self.assertEqual({'worker-1@file', 'worker-1@file#fast'}, names)
        owner = api_fixtures.caller('project-a')
        for size in (2, 3):
            self.volume_api.post_json('/v3/volumes', {'volume': {
                'size': size}}, headers=owner, status=202)
        usage = {u['resource_class']: u['usage'] for u in self.osc(
            'resource', 'usage', 'show', 'project-a', '-f', 'json',
            version='1.9')}
        quota = self.volume_api.get(
            '/v3/os-quota-sets/project-a?usage=True',
            headers=owner).json['quota_set']
        self.assertEqual(5, usage['DISK_GB'])
        self.assertEqual(usage['DISK_GB'], quota['gigabytes']['in_use'])


# Only the tests above: those of the base class run in their own module.
for _name in [n for n in vars(test_placement_osc.TestOpenStackClient)
              if n.startswith('test_')]:
    setattr(PoolsThroughOSCTest, _name, None)
