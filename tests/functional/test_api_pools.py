"""GET /v3/scheduler-stats/get_pools: the pools a worker reported to
placement, their capacity as placement holds it, Cinder's filters and
errors."""
import uuid

from objects.placement import resource_provider as rp_obj
from tests import fixtures as volapi_fixtures
from tests.functional import api_fixtures
from volapi.volume import pool_stats

ADMIN = api_fixtures.caller('admin', 'admin', '3.59')
PATH = '/v3/scheduler-stats/get_pools'


def _admin(version):
    return api_fixtures.caller('admin', 'admin', version)


class GetPoolsTest(api_fixtures.APITestCase):

    # small: total 10, reserved 1, so 18 GiB to allocate at ratio 2;
    # big: total 100, reserved 10, 180 GiB.
    pool_options = {'file_pools': ['small:10', 'big:100'],
                    'reserved_percentage': 10,
                    'max_over_subscription_ratio': 2.0}

    def get_pools(self, query='', headers=ADMIN, status=200):
        return self.app.get(PATH + query, headers=headers, status=status)

    def names(self, query='', headers=ADMIN):
        return [pool['name'] for pool in self.get_pools(query, headers).json[
            'pools']]

    def test_names_without_detail(self):
        self.assertEqual({'pools': [{'name': 'worker-1@file#big'},
                                    {'name': 'worker-1@file#small'}]},
                         self.get_pools().json)
        self.assertEqual(self.get_pools().json, self.get_pools('?detail=False').json)

    def test_capacity_follows_the_allocations(self):
        volume = self.create_volume(size=5).json['volume']
        # The weigher puts it on the pool with the most room.
        self.assertEqual('worker-1@file#big',
                         self.app.get('/v3/admin/volumes/%s' % volume['id'],
                                      headers=ADMIN).json['volume'][
                             'os-vol-host-attr:host'])
        pools = {pool['name']: pool['capabilities']
                 for pool in self.get_pools('?detail=True').json['pools']}
        common = {'volume_backend_name': 'file',
                  'max_over_subscription_ratio': 2.0,
                  'reserved_percentage': 10,
                  'thin_provisioning_support': True,
                  'thick_provisioning_support': False,
                  'multiattach': True}
        self.assertEqual(dict(common, pool_name='big',
                              total_capacity_gb=100, free_capacity_gb=175,
                              allocated_capacity_gb=5,
                              provisioned_capacity_gb=5),
                         pools['worker-1@file#big'])
        self.assertEqual(dict(common, pool_name='small',
                              total_capacity_gb=10, free_capacity_gb=18,
                              allocated_capacity_gb=0,
                              provisioned_capacity_gb=0),
                         pools['worker-1@file#small'])

    def test_name_filter_from_3_28(self):
        self.assertEqual(['worker-1@file#small'],
                         self.names('?name=worker-1@file%23small',
                                    _admin('3.28')))
        self.assertEqual([], self.names('?name=nowhere', _admin('3.28')))
        # Before 3.28 filters are ignored, as in Cinder.
        self.assertEqual(['worker-1@file#big', 'worker-1@file#small'],
                         self.names('?name=nowhere', _admin('3.27')))

    def test_other_filters_are_refused_from_3_28(self):
        response = self.get_pools('?color=red&detail=True', _admin('3.28'),
                                  status=400)
        self.assertEqual('Invalid filters color are found in query options.',
                         self.fault(response, 400))
        self.assertEqual(2, len(self.get_pools('?color=red', _admin('3.27'))
                                .json['pools']))

    def test_volume_type_filter_from_3_35(self):
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'fast', 'extra_specs': {
                'trait:CUSTOM_FAST': 'required'}}}, headers=ADMIN)
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'on-file', 'extra_specs': {
                'volume_backend_name': 'file'}}}, headers=ADMIN)
        self.assertEqual([], self.names('?volume_type=fast', _admin('3.35')))
        self.assertEqual(['worker-1@file#big', 'worker-1@file#small'],
                         self.names('?volume_type=on-file', _admin('3.35')))
        # Before 3.35 the type is not a filter (and not refused).
        self.assertEqual(['worker-1@file#big', 'worker-1@file#small'],
                         self.names('?volume_type=fast', _admin('3.34')))
        response = self.get_pools('?volume_type=nope', _admin('3.35'),
                                  status=404)
        self.assertEqual('Volume type nope could not be found.',
                         self.fault(response, 404))

    def test_detail_must_be_a_boolean(self):
        response = self.get_pools('?detail=maybe', status=400)
        self.assertEqual("Value 'maybe' for 'detail' is not a boolean.",
                         self.fault(response, 400))

    def test_providers_that_are_not_pools_are_not_listed(self):
        # A provider of someone else's, named like a pool.
        rp_obj.create(self.context, str(uuid.uuid4()), 'compute-1#gpu')
        self.assertEqual(['worker-1@file#big', 'worker-1@file#small'],
                         self.names())

    def test_administrators_only(self):
        response = self.get_pools(headers=self.owner, status=403)
        self.assertIn('scheduler_extension:scheduler_stats:get_pools',
                      self.fault(response, 403))

    def test_three_queries_however_many_pools(self):
        """Providers, their traits, their DISK_GB inventories: the same
        three statements for two pools and for six."""
        def statements():
            return volapi_fixtures.statements_sent(
                lambda: pool_stats.get_pools(
                    self.context, extra_specs={'volume_backend_name': 'file'}))
        two = statements()
        self.config.set('volume', file_pools=['p%d:10' % i for i in range(4)])
        self.pools.reporter.report()
        self.assertEqual(6, len(pool_stats.get_pools(self.context)))
        self.assertEqual(3, len(two))
        self.assertEqual(len(two), len(statements()))
