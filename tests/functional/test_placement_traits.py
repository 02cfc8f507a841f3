"""/traits and /resource_providers/{uuid}/traits (1.6)."""
import uuid

import os_traits

from tests.functional import test_placement_base as base


class TestTraits(base.PlacementTestCase):

    def test_standard_traits_are_listed(self):
        traits = self.get('/traits').json['traits']
        self.assertEqual(sorted(os_traits.get_traits()), traits)

    def test_put_get_delete_custom(self):
        response = self.put('/traits/CUSTOM_FAST', status=201)
        self.assertTrue(response.headers['Location'].endswith(
            '/traits/CUSTOM_FAST'))
        self.assertIn('last-modified', response.headers)
        self.put('/traits/CUSTOM_FAST', status=204)
        self.get('/traits/CUSTOM_FAST', status=204)
        self.delete('/traits/CUSTOM_FAST')
        self.assertError(self.get('/traits/CUSTOM_FAST', status=None), 404,
                         detail='No such trait(s): CUSTOM_FAST.')
        self.assertError(self.delete('/traits/CUSTOM_FAST', status=None),
                         404)

    def test_invalid_custom_names_are_400(self):
        for name in ('FAST', 'CUSTOM_lower', 'CUSTOM_', 'CUSTOM_' + 'X' * 249,
                     'HW_CPU_X86_AVX'):
            self.assertError(self.put('/traits/' + name), 400,
                             detail='The trait is invalid.')

    def test_standard_trait_cannot_be_deleted(self):
        self.assertError(self.delete('/traits/HW_CPU_X86_AVX', status=None),
                         400, detail='Cannot delete standard trait '
                                     'HW_CPU_X86_AVX.')

    def test_trait_in_use_cannot_be_deleted(self):
        self.put('/traits/CUSTOM_A', status=201)
        rp = self.create_provider()
        self.put('/resource_providers/%s/traits' % rp['uuid'], {
            'traits': ['CUSTOM_A'], 'resource_provider_generation': 0},
            status=200)
        self.assertError(self.delete('/traits/CUSTOM_A', status=None), 409,
                         detail='The trait CUSTOM_A is in use by a resource '
                                'provider.')

    def test_list_filters(self):
        for name in ('CUSTOM_A1', 'CUSTOM_A2', 'CUSTOM_B'):
            self.put('/traits/' + name, status=201)
        rp = self.create_provider()
        self.put('/resource_providers/%s/traits' % rp['uuid'], {
            'traits': ['CUSTOM_A1', 'HW_CPU_X86_AVX'],
            'resource_provider_generation': 0}, status=200)

        def names(query):
            return self.get('/traits' + query).json['traits']

        self.assertEqual(['CUSTOM_A1', 'CUSTOM_A2'],
                         names('?name=startswith:CUSTOM_A'))
        self.assertEqual(['CUSTOM_A2', 'CUSTOM_B'],
                         names('?name=in:CUSTOM_B,CUSTOM_A2,CUSTOM_NONE'))
        self.assertEqual(['CUSTOM_A1', 'HW_CPU_X86_AVX'],
                         names('?associated=true'))
        self.assertEqual(['CUSTOM_A2', 'CUSTOM_B'],
                         names('?name=startswith:CUSTOM_&associated=False'))
        # A prefix is literal: LIKE wildcards match nothing special.
        self.assertEqual([], names('?name=startswith:CUSTOM%'))
        self.assertEqual([], names('?name=startswith:CUSTOM_A_'))
        self.assertError(self.get('/traits?name=CUSTOM_A', status=None), 400,
                         detail='Badly formatted name parameter')
        self.assertError(self.get('/traits?associated=maybe', status=None),
                         400, detail='only accepts "true" or "false"')
        self.assertError(self.get('/traits?other=1', status=None), 400)


class TestProviderTraits(base.PlacementTestCase):

    def setUp(self):
        super().setUp()
        self.rp = self.create_provider()
        self.path = '/resource_providers/%s/traits' % self.rp['uuid']
        self.put('/traits/CUSTOM_A', status=201)

    def test_set_list_replace_delete(self):
        self.assertEqual({'traits': [], 'resource_provider_generation': 0},
                         self.get(self.path).json)
        result = self.put(self.path, {
            'traits': ['CUSTOM_A', 'HW_CPU_X86_AVX'],
            'resource_provider_generation': 0}, status=200).json
        self.assertEqual({'traits': ['CUSTOM_A', 'HW_CPU_X86_AVX'],
                          'resource_provider_generation': 1}, result)
        self.assertEqual(result, self.get(self.path).json)
        result = self.put(self.path, {
            'traits': ['HW_CPU_X86_SSE'],
            'resource_provider_generation': 1}, status=200).json
        self.assertEqual(['HW_CPU_X86_SSE'], result['traits'])
        self.assertEqual(2, result['resource_provider_generation'])
        self.delete(self.path)
        self.assertEqual({'traits': [], 'resource_provider_generation': 3},
                         self.get(self.path).json)

    def test_unchanged_set_keeps_the_generation(self):
        self.put(self.path, {'traits': ['CUSTOM_A'],
                             'resource_provider_generation': 0}, status=200)
        result = self.put(self.path, {'traits': ['CUSTOM_A'],
                                      'resource_provider_generation': 1},
                          status=200).json
        self.assertEqual(1, result['resource_provider_generation'])

    def test_stale_generation_is_409(self):
        self.put(self.path, {'traits': ['CUSTOM_A'],
                             'resource_provider_generation': 0}, status=200)
        self.assertError(self.put(self.path, {
            'traits': [], 'resource_provider_generation': 0}), 409,
            'placement.concurrent_update',
            "Resource provider's generation already changed.")
        self.assertEqual(['CUSTOM_A'], self.get(self.path).json['traits'])

    def test_unknown_trait_is_400(self):
        self.assertError(self.put(self.path, {
            'traits': ['CUSTOM_A', 'CUSTOM_NOPE'],
            'resource_provider_generation': 0}), 400,
            detail='No such trait CUSTOM_NOPE')
        self.assertEqual([], self.get(self.path).json['traits'])

    def test_bad_bodies_are_400(self):
        for body in ({'traits': ['CUSTOM_A']},
                     {'resource_provider_generation': 0},
                     {'traits': 'CUSTOM_A', 'resource_provider_generation': 0},
                     {'traits': [''], 'resource_provider_generation': 0},
                     {'traits': [1], 'resource_provider_generation': 0},
                     {'traits': [], 'resource_provider_generation': 'x'},
                     {'traits': [], 'resource_provider_generation': 0,
                      'x': 1}):
            self.assertError(self.put(self.path, body), 400)

    def test_before_1_6_is_404(self):
        self.assertError(self.get(self.path, status=None, version='1.5'),
                         404)

    def test_missing_provider_is_404(self):
        path = '/resource_providers/%s/traits' % uuid.uuid4()
        self.assertError(self.get(path, status=None), 404)
        self.assertError(self.put(path, {
            'traits': [], 'resource_provider_generation': 0}), 404)
        self.assertError(self.delete(path, status=None), 404)
