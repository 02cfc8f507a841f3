"""Projects' default volume types over the API (3.62, Cinder's
/default-types): set, show, list, unset, admin only; a volume created
without a type gets its project's default before the configured one; a
type that is some project's default cannot be deleted."""
import sqlalchemy as sa

from db import models
from db import session
from tests.functional import api_fixtures

V362 = 'volume 3.62'


def admin(version='3.62'):
    return dict(api_fixtures.ADMIN, **{'OpenStack-API-Version':
                                       'volume %s' % version})


class DefaultTypesTest(api_fixtures.APITestCase):

    def make_type(self, name, **fields):
        body = {'volume_type': dict({'name': name}, **fields)}
        return self.app.post_json('/v3/types', body, headers=admin(),
                                  ).json['volume_type']['id']

    def put(self, project, volume_type, status=200, headers=None):
        return self.app.put_json(
            '/v3/default-types/%s' % project,
            {'default_type': {'volume_type': volume_type}},
            headers=headers or admin(), status=status)

    def rows(self):
        table = models.DefaultVolumeType.__table__
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(sa.select(
                table.c.project_id, table.c.volume_type_id).order_by(
                table.c.project_id)).all()

    def test_set_show_list_unset(self):
        gold = self.make_type('gold')
        silver = self.make_type('silver')
        self.assertEqual(
            {'default_type': {'project_id': 'project-a',
                              'volume_type_id': gold}},
            self.put('project-a', 'gold').json)
        # By id too, and a second set changes the type.
        self.put('project-b', gold)
        self.put('project-b', 'silver')
        self.assertEqual([('project-a', gold), ('project-b', silver)],
                         self.rows())
        self.assertEqual(
            {'default_type': {'project_id': 'project-b',
                              'volume_type_id': silver}},
            self.app.get('/v3/default-types/project-b',
                         headers=admin()).json)
        self.assertEqual(
            {'default_types': [
                {'project_id': 'project-a', 'volume_type_id': gold},
                {'project_id': 'project-b', 'volume_type_id': silver}]},
            self.app.get('/v3/default-types', headers=admin()).json)
        # The project id may come first in the URL, as everywhere.
        self.assertEqual(2, len(self.app.get(
            '/v3/admin/default-types', headers=admin()).json[
                'default_types']))
        response = self.app.delete('/v3/default-types/project-a',
                                   headers=admin(), status=204)
        self.assertEqual(b'', response.body)
        self.assertEqual([('project-b', silver)], self.rows())
        # Unsetting what is not set is no error (Cinder's).
        self.app.delete('/v3/default-types/project-a', headers=admin(),
                        status=204)
        response = self.app.get('/v3/default-types/project-a',
                                headers=admin(), status=404)
        self.assertEqual('Default type for project project-a not found.',
                         self.fault(response, 404))

    def test_projects_differing_in_case_or_trailing_spaces_are_apart(self):
        # On MariaDB 'ABC' and 'abc ' were 'abc': each set and unset
        # changed the others' default.
        gold = self.make_type('gold')
        silver = self.make_type('silver')
        self.put('abc', 'gold')
        self.put('ABC', 'silver')
        self.put('abc%20', 'silver')
        self.assertEqual([('ABC', silver), ('abc', gold), ('abc ', silver)],
                         sorted(self.rows()))
        self.assertEqual({'project_id': 'abc', 'volume_type_id': gold},
                         self.app.get('/v3/default-types/abc',
                                      headers=admin()).json['default_type'])
        self.app.delete('/v3/default-types/ABC', headers=admin(),
                        status=204)
        self.assertEqual([('abc', gold), ('abc ', silver)],
                         sorted(self.rows()))

    def test_before_362_not_found(self):
        self.make_type('gold')
        for method, path in (('get', '/v3/default-types'),
                             ('get', '/v3/default-types/project-a'),
                             ('delete', '/v3/default-types/project-a')):
            response = getattr(self.app, method)(
                path, headers=admin('3.61'), status=404)
            self.assertEqual('API version 3.61 is not supported on this '
                             'method.', self.fault(response, 404))
        response = self.put('project-a', 'gold', status=404,
                            headers=admin('3.61'))
        self.assertEqual('API version 3.61 is not supported on this '
                         'method.', self.fault(response, 404))
        self.assertEqual([], self.rows())

    def test_bad_input_writes_nothing(self):
        self.make_type('gold')
        gone = self.make_type('gone')
        self.app.delete('/v3/types/%s' % gone, headers=admin(), status=202)
        cases = [
            ({}, "'default_type' is a required property"),
            ({'default_type': {}}, "'volume_type' is a required property"),
            ({'default_type': {'volume_type': ''}}, 'volume_type'),
            ({'default_type': {'volume_type': 'x' * 256}}, 'volume_type'),
            ({'default_type': {'volume_type': 'gold', 'x': 1}},
             'Additional properties'),
            ({'default_type': {'volume_type': 'nope'}},
             'Volume type with name nope could not be found.'),
            ({'default_type': {'volume_type': gone}},
             'Volume type %s could not be found.' % gone),
        ]
        for body, expected in cases:
            with self.subTest(body=body):
                response = self.app.put_json(
                    '/v3/default-types/project-a', body, headers=admin(),
                    status=400)
                self.assertIn(expected, self.fault(response, 400))
        # A project id longer than its column.
        self.assertIn('project_id has more than 255 characters', self.fault(
            self.put('p' * 256, 'gold', status=400), 400))
        self.assertEqual([], self.rows())

    def test_admin_only(self):
        self.make_type('gold')
        self.put('project-a', 'gold')
        owner = api_fixtures.caller(version='3.62')
        for method, path in (('get', '/v3/default-types'),
                             ('get', '/v3/default-types/project-a'),
                             ('delete', '/v3/default-types/project-a')):
            response = getattr(self.app, method)(path, headers=owner,
                                                 status=403)
            self.assertEqual('You are not authorized to perform this '
                             'operation.', self.fault(response, 403))
        self.put('project-a', 'gold', headers=owner, status=403)
        self.assertEqual(1, len(self.rows()))

    def test_create_without_type_uses_the_projects_default(self):
        self.make_type('gold')
        self.put('project-a', 'gold')
        other = api_fixtures.caller('project-b')
        # At any microversion, as Cinder: the default is the project's.
        for version in (None, '3.0', '3.67'):
            volume = self.create_volume(headers=api_fixtures.caller(
                version=version)).json['volume']
            self.assertEqual('gold', volume['volume_type'])
        self.assertEqual('__DEFAULT__', self.create_volume(
            headers=other).json['volume']['volume_type'])
        self.assertEqual('gold', self.app.get(
            '/v3/types/default', headers=self.owner).json['volume_type'][
                'name'])
        self.assertEqual('__DEFAULT__', self.app.get(
            '/v3/types/default', headers=other).json['volume_type']['name'])
        # A named type wins over the project's default.
        self.assertEqual('__DEFAULT__', self.create_volume(
            volume_type='__DEFAULT__').json['volume']['volume_type'])
        self.app.delete('/v3/default-types/project-a', headers=admin(),
                        status=204)
        self.assertEqual('__DEFAULT__', self.create_volume(
        ).json['volume']['volume_type'])

    def test_projects_default_before_the_configured_one(self):
        self.make_type('gold')
        self.make_type('silver')
        # A configured type that does not exist: __DEFAULT__.
        self.config.conf.set_override('default_volume_type', 'nope',
                                      group='api')
        self.assertEqual('__DEFAULT__', self.create_volume(
        ).json['volume']['volume_type'])
        self.config.conf.set_override('default_volume_type', 'silver',
                                      group='api')
        self.assertEqual('silver', self.create_volume(
        ).json['volume']['volume_type'])
        self.put('project-a', 'gold')
        self.assertEqual('gold', self.create_volume(
        ).json['volume']['volume_type'])

    def test_a_projects_default_type_cannot_be_deleted(self):
        gold = self.make_type('gold')
        self.put('project-b', 'gold')
        response = self.app.delete('/v3/types/%s' % gold, headers=admin(),
                                   status=400)
        self.assertEqual('The volume type %s is a default volume type and '
                         'cannot be deleted.' % gold,
                         self.fault(response, 400))
        self.app.get('/v3/types/%s' % gold, headers=admin())
        self.app.delete('/v3/default-types/project-b', headers=admin(),
                        status=204)
        self.app.delete('/v3/types/%s' % gold, headers=admin(), status=202)
