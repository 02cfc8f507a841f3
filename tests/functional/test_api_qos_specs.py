"""QoS specs over the API (Cinder's /qos-specs, administrators): create,
show, list, set and unset keys, delete (forced while associated), the
associations with volume types, and Cinder's answers to bad input, which
were read from Cinder 29.0.0 itself."""
import json
import uuid

from tests.functional import api_fixtures

ADMIN = api_fixtures.ADMIN
ROOT = '/v3/admin/qos-specs'
INVALID_CONSUMER = (
    "Invalid qos specs: Valid consumer of QoS specs are: "
    "QoSConsumerValues(default=<class "
    "'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,"
    "valid_values=('back-end', 'front-end', 'both'))")


class QosSpecsAPITest(api_fixtures.APITestCase):

    def create(self, name='gold', status=200, **keys):
        return self.app.post_json(ROOT, {'qos_specs': dict(name=name, **keys)},
                                  headers=ADMIN, status=status)

    def spec(self, name='gold', **keys):
        return self.create(name, **keys).json['qos_specs']['id']

    def show(self, spec_id):
        return self.app.get('%s/%s' % (ROOT, spec_id),
                            headers=ADMIN).json['qos_specs']

    def make_type(self, name='t1'):
        return self.app.post_json(
            '/v3/admin/types', {'volume_type': {'name': name}},
            headers=ADMIN).json['volume_type']['id']

    def get(self, spec_id, route, status=202, **query):
        return self.app.get('%s/%s/%s' % (ROOT, spec_id, route),
                            params=query, headers=ADMIN, status=status)

    def put(self, spec_id, body, route='', status=200):
        return self.app.put_json('%s/%s%s' % (ROOT, spec_id, route), body,
                                 headers=ADMIN, status=status)

    def associated(self, spec_id):
        return [(a['id'], a['name'], a['association_type']) for a in self.get(
            spec_id, 'associations', 200).json['qos_associations']]

    def qos_of(self, type_id):
        return self.app.get('/v3/admin/types/%s' % type_id,
                            headers=ADMIN).json['volume_type']['qos_specs_id']

    def test_create_show_list(self):
        created = self.create('gold', consumer='front-end',
                              total_iops_sec='1000').json
        spec_id = created['qos_specs']['id']
        self.assertEqual({'id': spec_id, 'name': 'gold',
                          'consumer': 'front-end',
                          'specs': {'total_iops_sec': '1000'}},
                         created['qos_specs'])
        self.assertEqual(
            ['self', 'bookmark'], [link['rel'] for link in created['links']])
        self.assertTrue(created['links'][0]['href'].endswith(
            '/v3/admin/qos-specs/%s' % spec_id))
        self.assertEqual(created['qos_specs'], self.show(spec_id))
        # Cinder: no consumer, or a null one, is back-end; a null value
        # is no key; the name loses its spaces; a top-level "type" object
        # is allowed.
        other = self.app.post_json(ROOT, {
            'qos_specs': {'name': ' silver ', 'consumer': None, 'k': None},
            'type': {}}, headers=ADMIN).json['qos_specs']
        self.assertEqual(('silver', 'back-end', {}),
                         (other['name'], other['consumer'], other['specs']))
        listed = self.app.get(ROOT, headers=ADMIN).json
        self.assertEqual(['silver', 'gold'],
                         [s['name'] for s in listed['qos_specs']])
        self.assertNotIn('qos_specs_links', listed)

    def test_create_refusals_in_cinders_words(self):
        self.spec('gold')
        self.assertEqual('QoS Specs gold already exists.', self.fault(
            self.create('gold', status=409), 409))
        for keys, message in (
                ({'k': 1}, 'Invalid input received: Value for key "k" is '
                           'not a string or unicode'),
                ({'k': {'a': 'b'}}, 'Invalid input received: Value for '
                                    'key "k" is not a string or unicode'),
                ({'k': 'v' * 256}, 'Invalid input received: Value for key '
                                   '"k" has 256 characters, more than 255.'),
                ({'': 'v'}, 'Invalid input received: Key "" has 0 '
                            'characters, less than 1.'),
                ({'x' * 256: 'v'}, 'Invalid input received: Key "%s" has '
                                   '256 characters, more than 255.'
                                   % ('x' * 256)),
                ({'consumer': 'bad'}, INVALID_CONSUMER),
                ({'consumer': ''}, INVALID_CONSUMER)):
            self.assertEqual(message, self.fault(
                self.create('other', status=400, **keys), 400), keys)
        for name, message in (
                ('', "The 'name' can not be None."),
                ('  ', "The 'name' can not be empty."),
                ('n' * 256, "The 'name' can not be greater than 255 "
                            "characters.")):
            self.assertEqual(
                "An invalid 'name' value was provided. " + message,
                self.fault(self.create(name, status=400), 400))
        self.assertEqual(
            "Invalid input for field/attribute qos_specs. Value: {}. 'name' "
            "is a required property", self.fault(self.app.post_json(
                ROOT, {'qos_specs': {}}, headers=ADMIN, status=400), 400))
        self.assertIn("('other' was unexpected)", self.fault(
            self.app.post_json(ROOT, {'qos_specs': {'name': 'x'},
                                      'other': {}},
                               headers=ADMIN, status=400), 400))
        self.assertEqual(['gold'], [s['name'] for s in self.app.get(
            ROOT, headers=ADMIN).json['qos_specs']])

    def test_set_and_unset_keys(self):
        spec_id = self.spec('gold', read_iops_sec='100')
        body = {'qos_specs': {'a': 'b', 'n': None, 'consumer': 'both'}}
        self.assertEqual(body, self.put(spec_id, body).json)
        # A null value adds no key (Cinder's) but clears one there.
        self.assertEqual(('both', {'read_iops_sec': '100', 'a': 'b'}),
                         (self.show(spec_id)['consumer'],
                          self.show(spec_id)['specs']))
        self.put(spec_id, {'qos_specs': {'a': None, 'consumer': None}})
        self.assertEqual(('back-end', {'read_iops_sec': '100', 'a': None}),
                         (self.show(spec_id)['consumer'],
                          self.show(spec_id)['specs']))
        self.assertEqual(INVALID_CONSUMER, self.fault(self.put(
            spec_id, {'qos_specs': {'consumer': 'x'}}, status=400), 400))
        self.assertIn("'bad key!' does not match any of the regexes",
                      self.fault(self.put(spec_id, {'qos_specs': {
                          'bad key!': 'x'}}, status=400), 400))
        self.assertEqual(
            "Invalid input for field/attribute k. Value: 5. 5 is not of "
            "type 'string', 'null'", self.fault(self.put(
                spec_id, {'qos_specs': {'k': 5}}, status=400), 400))
        # All or nothing (Cinder deletes the keys before the first
        # missing one): the first missing key is named.
        self.assertEqual(
            'QoS spec %s has no spec with key zz.' % spec_id,
            self.fault(self.put(spec_id, {'keys': ['a', 'zz', 'yy']},
                                '/delete_keys', 404), 404))
        self.assertIn('a', self.show(spec_id)['specs'])
        self.assertEqual(
            'QoS spec %s has no spec with key consumer.' % spec_id,
            self.fault(self.put(spec_id, {'keys': ['consumer']},
                                '/delete_keys', 404), 404))
        self.put(spec_id, {'keys': []}, '/delete_keys', 202)
        self.put(spec_id, {'keys': ['a', 'read_iops_sec']}, '/delete_keys',
                 202)
        self.assertEqual({}, self.show(spec_id)['specs'])
        self.assertIn('has non-unique elements', self.fault(self.put(
            spec_id, {'keys': ['a', 'a']}, '/delete_keys', 400), 400))
        self.assertIn("'' should be non-empty", self.fault(self.put(
            spec_id, {'keys': ['']}, '/delete_keys', 400), 400))
        missing = str(uuid.uuid4())
        for route, body in (('', {'qos_specs': {'a': 'b'}}),
                            ('/delete_keys', {'keys': ['a']})):
            self.assertEqual('No such QoS spec %s.' % missing, self.fault(
                self.put(missing, body, route, 404), 404))

    def test_associate_and_disassociate(self):
        gold, silver = self.spec('gold'), self.spec('silver')
        t1, t2 = self.make_type('t1'), self.make_type('t2')
        self.get(gold, 'associate', vol_type_id=t1)
        self.get(gold, 'associate', vol_type_id=t1)  # already: nothing
        self.get(gold, 'associate', vol_type_id=t2)
        self.assertEqual('Invalid volume type: Type %s is already associated '
                         'with another qos specs: %s' % (t1, gold),
                         self.fault(self.get(silver, 'associate', 400,
                                             vol_type_id=t1), 400))
        self.assertEqual([(t1, 't1', 'volume_type'),
                          (t2, 't2', 'volume_type')], self.associated(gold))
        self.assertEqual(gold, self.qos_of(t1))
        # Only administrators see a type's qos_specs_id (Cinder's policy).
        seen = self.app.get('/v3/types/%s' % t1,
                            headers=self.owner).json['volume_type']
        self.assertNotIn('qos_specs_id', seen)
        # Another spec's disassociation leaves the type as it is.
        self.get(silver, 'disassociate', vol_type_id=t1)
        self.assertEqual(gold, self.qos_of(t1))
        self.get(gold, 'disassociate', vol_type_id=t1)
        self.assertIsNone(self.qos_of(t1))
        self.get(gold, 'disassociate_all')
        self.assertEqual([], self.associated(gold))
        self.assertIsNone(self.qos_of(t2))
        for route in ('associate', 'disassociate'):
            for query in ({}, {'vol_type_id': ''}):
                self.assertEqual('Volume Type id must not be None.',
                                 self.fault(self.get(gold, route, 400,
                                                     **query), 400))
            for unknown in ('nonexist', str(uuid.uuid4()), 'x' * 300):
                self.assertEqual(
                    'Volume type %s could not be found.' % (
                        unknown if len(unknown) < 40 else
                        unknown[:40] + '...(300 characters)'),
                    self.fault(self.get(gold, route, 404,
                                        vol_type_id=unknown), 404))
            self.assertEqual('No such QoS spec nonexist.', self.fault(
                self.get('nonexist', route, 404, vol_type_id=t1), 404))
        for route in ('associations', 'disassociate_all'):
            self.assertEqual('No such QoS spec nonexist.', self.fault(
                self.get('nonexist', route, 404), 404))

    def test_delete(self):
        gold = self.spec('gold')
        t1, t2 = self.make_type('t1'), self.make_type('t2')
        self.get(gold, 'associate', vol_type_id=t1)
        self.assertEqual("Value 'maybe' for 'force' is not a boolean.",
                         self.fault(self.app.delete(
                             '%s/%s?force=maybe' % (ROOT, gold),
                             headers=ADMIN, status=400), 400))
        for force in ('', '?force=False'):
            self.assertEqual('Qos specs still in use.', self.fault(
                self.app.delete('%s/%s%s' % (ROOT, gold, force),
                                headers=ADMIN, status=400), 400))
        self.app.delete('%s/%s?force=True' % (ROOT, gold), headers=ADMIN,
                        status=202)
        self.assertIsNone(self.qos_of(t1))
        self.assertEqual('No such QoS spec %s.' % gold, self.fault(
            self.app.get('%s/%s' % (ROOT, gold), headers=ADMIN,
                         status=404), 404))
        # Its name is free again; a deleted type does not hold a spec.
        silver = self.spec('gold')
        self.get(silver, 'associate', vol_type_id=t2)
        self.app.delete('/v3/admin/types/%s' % t2, headers=ADMIN,
                        status=202)
        self.assertEqual([], self.associated(silver))
        self.app.delete('%s/%s' % (ROOT, silver), headers=ADMIN, status=202)
        self.assertEqual({'qos_specs': []},
                         self.app.get(ROOT, headers=ADMIN).json)
        self.assertEqual('Volume type %s could not be found.' % t2,
                         self.fault(self.get(self.spec('bronze'), 'associate',
                                             404, vol_type_id=t2), 404))

    def test_list_pages_sorts_and_filters(self):
        ids = [self.spec('q%d' % i, consumer=consumer) for i, consumer in
               enumerate(('back-end', 'front-end', 'both'))]

        def names(query, status=200):
            return [s['name'] for s in self.app.get(
                ROOT + query, headers=ADMIN).json['qos_specs']]
        self.assertEqual(['q2', 'q1', 'q0'], names(''))
        self.assertEqual(['q0', 'q1', 'q2'], names('?sort=name:asc'))
        self.assertEqual(['q1', 'q0'], names('?offset=1&limit=2'))
        page = self.app.get(ROOT + '?limit=1&marker=%s' % ids[2],
                            headers=ADMIN).json
        self.assertEqual(['q1'], [s['name'] for s in page['qos_specs']])
        self.assertIn('marker=%s' % ids[1],
                      page['qos_specs_links'][0]['href'])
        self.assertEqual(['q1'], names('?consumer=front-end'))
        self.assertEqual(['q0'], names('?name=q0'))
        self.assertEqual(['q2'], names('?id=%s' % ids[2]))
        # Cinder lists nothing for a filter it has no column for.
        self.assertEqual([], names('?project_id=admin'))
        for query, status in (('?marker=nonexist', 404),
                              ('?marker=%s' % uuid.uuid4(), 404),
                              ('?limit=-1', 400), ('?sort=specs', 400)):
            self.app.get(ROOT + query, headers=ADMIN, status=status)

    def test_unknown_and_hostile_ids_are_404s(self):
        for ident in ('nonexist', 'x' * 300, str(uuid.uuid4()),
                      str(uuid.uuid4()).upper()):
            for method, route, body in (
                    ('GET', '', None), ('DELETE', '', None),
                    ('PUT', '', {'qos_specs': {}}),
                    ('PUT', '/delete_keys', {'keys': ['a']}),
                    ('GET', '/associations', None),
                    ('GET', '/disassociate_all', None)):
                response = self.app.request(
                    '%s/%s%s' % (ROOT, ident, route), method=method,
                    headers=dict(ADMIN, **{'Content-Type':
                                           'application/json'}),
                    body=b'' if body is None else
                    json.dumps(body).encode(),
                    expect_errors=True)
                self.assertEqual(404, response.status_int,
                                 (method, route, ident, response.text))

    def test_listed_among_the_extensions(self):
        self.assertEqual(
            {'extension': {'name': 'Qos_specs_manage', 'alias': 'qos-specs',
                           'description': 'QoS specs support.',
                           'updated': '2013-08-02T00:00:00+00:00',
                           'links': []}},
            self.app.get('/v3/extensions/qos-specs', headers=ADMIN).json)

    def test_administrators_only(self):
        spec_id = self.spec('gold')
        for method, path in (('GET', ROOT), ('GET', ROOT + '/' + spec_id),
                             ('DELETE', ROOT + '/' + spec_id),
                             ('GET', ROOT + '/%s/associations' % spec_id)):
            self.assertEqual(
                403, self.app.request(path.replace('admin', 'project-a'),
                                      method=method, headers=self.owner,
                                      expect_errors=True).status_int)
        self.assertEqual(spec_id, self.show(spec_id)['id'])
