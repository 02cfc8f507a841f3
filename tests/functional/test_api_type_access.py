"""Private volume types and their access lists (Cinder's
os-volume-type-access): who sees a private type, who creates volumes of
it, and the list's administration, its refusals and its races."""
import threading

from tests.functional import api_fixtures

ADMIN = api_fixtures.ADMIN


class TypeAccessTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.type_id = self.app.post_json('/v3/types', {'volume_type': {
            'name': 'gold', 'os-volume-type-access:is_public': False}},
            headers=ADMIN).json['volume_type']['id']
        self.other = api_fixtures.caller('project-b', 'user-b')

    def act(self, action, project, headers=ADMIN, status=202):
        return self.app.post_json(
            '/v3/types/%s/action' % self.type_id,
            {action: {'project': project}}, headers=headers, status=status)

    def access_list(self, type_id=None, status=200):
        return self.app.get('/v3/types/%s/os-volume-type-access'
                            % (type_id or self.type_id), headers=ADMIN,
                            status=status)

    def visible(self, headers):
        return [t['name'] for t in self.app.get(
            '/v3/types', headers=headers).json['volume_types']]

    def test_only_listed_projects_see_and_use_a_private_type(self):
        self.assertNotIn('gold', self.visible(self.owner))
        self.app.get('/v3/types/%s' % self.type_id, headers=self.owner,
                     status=404)
        self.create_volume(volume_type='gold', expect=404)
        self.assertEqual(b'', self.act('addProjectAccess', 'project-a').body)
        self.assertIn('gold', self.visible(self.owner))
        self.assertNotIn('gold', self.visible(self.other))
        self.assertEqual('gold', self.app.get(
            '/v3/types/gold', headers=self.owner).json['volume_type']['name'])
        volume = self.create_volume(volume_type='gold').json['volume']
        self.assertEqual('gold', volume['volume_type'])
        self.assertEqual({'volume_type_access': [
            {'volume_type_id': self.type_id, 'project_id': 'project-a'}]},
            self.access_list().json)
        self.act('removeProjectAccess', 'project-a')
        self.assertNotIn('gold', self.visible(self.owner))
        self.assertEqual({'volume_type_access': []}, self.access_list().json)
        # Administrators see every type.
        self.assertIn('gold', self.visible(ADMIN))

    def test_refusals(self):
        self.act('addProjectAccess', 'project-a')
        response = self.act('addProjectAccess', 'project-a', status=409)
        self.assertEqual('Volume type access for %s / project-a combination '
                         'already exists.' % self.type_id,
                         self.fault(response, 409))
        response = self.act('removeProjectAccess', 'project-b', status=404)
        self.assertEqual('Volume type access not found for %s / project-b '
                         'combination.' % self.type_id,
                         self.fault(response, 404))
        default = self.app.get('/v3/types/default',
                               headers=ADMIN).json['volume_type']['id']
        response = self.access_list(default, status=404)
        self.assertEqual('Access list not available for public volume '
                         'types.', self.fault(response, 404))
        response = self.app.post_json(
            '/v3/types/%s/action' % default,
            {'addProjectAccess': {'project': 'project-a'}}, headers=ADMIN,
            status=400)
        self.assertEqual('Invalid volume type: Type access modification is '
                         'not applicable to public volume type.',
                         self.fault(response, 400))
        for body in ({'addProjectAccess': {}},
                     {'addProjectAccess': {'project': ''}},
                     {'addProjectAccess': {'project': 'p', 'x': 1}},
                     {'grantEverything': {'project': 'p'}}):
            response = self.app.post_json(
                '/v3/types/%s/action' % self.type_id, body, headers=ADMIN,
                status=400)
            self.fault(response, 400)
        response = self.act('addProjectAccess', 'project-b',
                            headers=self.owner, status=403)
        self.assertIn('addProjectAccess', self.fault(response, 403))
        self.assertEqual(['project-a'], [
            row['project_id'] for row in self.access_list().json[
                'volume_type_access']])

    def test_concurrent_adds_of_one_project_add_it_once(self):
        barrier = threading.Barrier(8)
        statuses = []

        def add():
            barrier.wait()
            statuses.append(self.app.post_json(
                '/v3/types/%s/action' % self.type_id,
                {'addProjectAccess': {'project': 'project-a'}},
                headers=ADMIN, expect_errors=True).status_int)

        threads = [threading.Thread(target=add) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual([202] + [409] * 7, sorted(statuses))
        self.assertEqual(1, len(self.access_list().json[
            'volume_type_access']))
