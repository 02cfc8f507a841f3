"""/resource_providers/{uuid}/aggregates: a plain list up to 1.18, with
the provider generation from 1.19."""
import uuid

from tests.functional import test_placement_base as base

AGG1 = '11111111-1111-1111-1111-111111111111'
AGG2 = '22222222-2222-2222-2222-222222222222'


class TestAggregates(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider()
        self.path = '/resource_providers/%s/aggregates' % self.rp['uuid']

    def generation(self):
        return self.get('/resource_providers/%s'
                        % self.rp['uuid']).json['generation']

    def test_before_1_19_plain_list_no_generation(self):
        self.assertEqual({'aggregates': []},
                         self.get(self.path, version='1.1').json)
        result = self.put(self.path, [AGG1, AGG2], status=200,
                          version='1.1').json
        self.assertEqual({'aggregates': [AGG1, AGG2]}, result)
        self.assertEqual(sorted([AGG1, AGG2]), sorted(
            self.get(self.path, version='1.18').json['aggregates']))
        # Placement does not bump the generation before 1.19.
        self.assertEqual(0, self.generation())

    def test_from_1_19_with_generation(self):
        self.assertEqual({'aggregates': [], 'resource_provider_generation': 0},
                         self.get(self.path, version='1.19').json)
        result = self.put(self.path, {
            'aggregates': [AGG1], 'resource_provider_generation': 0},
            status=200).json
        self.assertEqual({'aggregates': [AGG1],
                          'resource_provider_generation': 1}, result)
        result = self.put(self.path, {
            'aggregates': [AGG2], 'resource_provider_generation': 1},
            status=200).json
        self.assertEqual([AGG2], self.get(self.path).json['aggregates'])
        self.assertEqual(2, self.generation())

    def test_stale_generation_is_409(self):
        self.put(self.path, {'aggregates': [AGG1],
                             'resource_provider_generation': 0}, status=200)
        self.assertError(self.put(self.path, {
            'aggregates': [], 'resource_provider_generation': 0}), 409,
            'placement.concurrent_update')
        self.assertEqual([AGG1], self.get(self.path).json['aggregates'])

    def test_shared_aggregate(self):
        other = self.create_provider()
        for rp in (self.rp, other):
            self.put('/resource_providers/%s/aggregates' % rp['uuid'],
                     [AGG1], status=200, version='1.1')
        self.put(self.path, [], status=200, version='1.1')
        self.assertEqual([AGG1], self.get(
            '/resource_providers/%s/aggregates' % other['uuid']).json[
                'aggregates'])

    def test_bad_bodies_are_400(self):
        for body, version in (([AGG1], '1.19'),
                              ({'aggregates': [AGG1]}, '1.19'),
                              ({'aggregates': [AGG1],
                                'resource_provider_generation': 0}, '1.18'),
                              (['not-a-uuid'], '1.1'),
                              ([AGG1, AGG1], '1.1'),
                              (['{%s}' % AGG1], '1.1'),
                              ([1], '1.1'), ('x', '1.1')):
            self.assertError(self.put(self.path, body, version=version), 400)
        self.assertEqual([], self.get(self.path).json['aggregates'])

    def test_before_1_1_is_404(self):
        self.assertError(self.get(self.path, status=None, version='1.0'),
                         404)

    def test_missing_provider_is_404(self):
        path = '/resource_providers/%s/aggregates' % uuid.uuid4()
        self.assertError(self.get(path, status=None), 404)
        self.assertError(self.put(path, [AGG1], version='1.1'), 404)
