"""Input a hostile client sends, each case found once answering a 500 or
saying too much: numbers int() refuses, lone surrogates, huge values
echoed back (issue 14). Each answer is a 4xx in the API's own format."""
import json
import uuid

from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import test_placement_base

SURROGATE = '\ud800'
# Strings str.isdigit() accepts that int() refuses or cannot convert.
NOT_INTEGERS = ['\u00b2', '5' * 5000, '1_0', ' 1', '\u0661']


def raw_json(value):
    """JSON text of ``value``, lone surrogates included (as \\u escapes)."""
    return json.dumps(value).encode('ascii')


class VolumeAPIHostileInputTest(api_fixtures.APITestCase):

    def post_raw(self, path, value, headers=None):
        return self.app.post(path, raw_json(value),
                             headers=dict(headers or self.owner, **{
                                 'Content-Type': 'application/json'}),
                             expect_errors=True)

    def put_raw(self, path, value, headers=None):
        return self.app.put(path, raw_json(value),
                            headers=dict(headers or self.owner, **{
                                'Content-Type': 'application/json'}),
                            expect_errors=True)

    def test_sizes_int_refuses(self):
        volume_id = self.create_volume().json['volume']['id']
        self.make_available(volume_id)
        for size in NOT_INTEGERS:
            self.fault(self.post_raw('/v3/volumes',
                                     {'volume': {'size': size}}), 400)
            self.fault(self.post_raw(
                '/v3/volumes/%s/action' % volume_id,
                {'os-extend': {'new_size': size}}), 400)
            self.fault(self.post_raw(
                '/v3/workers/cleanup', {'service_id': size},
                headers=api_fixtures.caller('admin', 'admin', '3.24')), 400)
        self.fault(self.post_raw(
            '/v3/workers/cleanup', {'service_id': int('9' * 4000)},
            headers=api_fixtures.caller('admin', 'admin', '3.24')), 400)

    def test_lone_surrogates(self):
        volume_id = self.create_volume().json['volume']['id']
        self.make_available(volume_id)
        admin = api_fixtures.ADMIN
        cases = [
            ('POST', '/v3/volumes', {'volume': {'size': 1,
                                                'name': SURROGATE}}, None),
            ('POST', '/v3/volumes', {'volume': {
                'size': 1, 'metadata': {'k': SURROGATE}}}, None),
            ('POST', '/v3/volumes', {'volume': {
                'size': 1, 'metadata': {SURROGATE: 'v'}}}, None),
            ('PUT', '/v3/volumes/%s' % volume_id,
             {'volume': {'description': 'a' + SURROGATE}}, None),
            ('POST', '/v3/volumes/%s/action' % volume_id,
             {'os-retype': {'new_type': SURROGATE}}, None),
            ('POST', '/v3/snapshots', {'snapshot': {
                'volume_id': volume_id, 'name': SURROGATE}}, None),
            ('POST', '/v3/types', {'volume_type': {'name': SURROGATE}},
             admin),
            ('POST', '/v3/attachments', {'attachment': {
                'volume_uuid': volume_id,
                'instance_uuid': '7c2d1f5c-8f6a-4c39-8c39-1f5e1c0a3b11',
                'connector': {'host': SURROGATE}}},
             api_fixtures.caller('project-a', version='3.54')),
        ]
        for method, path, body, headers in cases:
            response = (self.post_raw if method == 'POST' else self.put_raw)(
                path, body, headers)
            message = self.fault(response, 400)
            self.assertIn('not valid Unicode', message, (path, body))

    def test_huge_value_is_not_echoed(self):
        name = 'x' * 1000000
        response = self.post_raw('/v3/volumes',
                                 {'volume': {'size': 1, 'name': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)
        response = self.post_raw('/v3/volumes', {'volume': {'size': name}})
        self.fault(response, 400)
        self.assertLess(len(response.body), 2000)


class PlacementHostileInputTest(test_placement_base.PlacementTestCase):

    def test_huge_value_is_not_echoed(self):
        response = self.post('/resource_providers',
                             {'name': 'x' * 1000000})
        self.assertError(response, 400)
        self.assertLess(len(response.body), 3000)

    def test_allocation_ratio_bounded(self):
        rp = self.create_provider('ratio')['uuid']
        cases = [(2 ** 63 - 1, 200), (2 ** 64, 200), (10 ** 40, 400),
                 (-1e308, 400), (1e308, 400), (-2 ** 63, 400), (0, 400),
                 (-1, 400)]
        for ratio, status in cases:
            generation = self.get('/resource_providers/%s' % rp
                                  ).json['generation']
            response = self.put(
                '/resource_providers/%s/inventories' % rp,
                {'resource_provider_generation': generation,
                 'inventories': {'DISK_GB': {
                     'total': 10, 'allocation_ratio': ratio}}})
            self.assertEqual(status, response.status_int, (ratio, response))
            if status == 200:
                stored = self.get(
                    '/resource_providers/%s/inventories/DISK_GB' % rp
                ).json['allocation_ratio']
                # MySQL returns its FLOAT to 6 digits.
                self.assertLess(abs(stored - ratio) / ratio, 1e-5)
                self.delete('/resource_providers/%s/inventories' % rp)
                continue
            self.assertError(response, 400)
            response = self.post(
                '/resource_providers/%s/inventories' % rp,
                {'resource_class': 'DISK_GB', 'total': 10,
                 'allocation_ratio': ratio}, version='1.0')
            self.assertError(response, 400)
        self.assertEqual({}, self.get('/resource_providers/%s/inventories'
                                      % rp).json['inventories'])


class MarkerScopeTest(api_fixtures.APITestCase):
    """A marker is looked up within the caller's project: another
    project's id answers exactly as an unknown id does."""

    def test_another_projects_id_is_an_unknown_marker(self):
        mine = rows.volume(self.context, project_id=self.project)
        theirs = rows.volume(self.context, project_id='project-b')
        rows.snapshot(self.context, mine)
        their_snapshot = rows.snapshot(self.context, theirs)
        rows.attachment(self.context, mine)
        their_attachment = rows.attachment(self.context, theirs)
        unknown = str(uuid.uuid4())
        headers = api_fixtures.caller(self.project, version='3.27')
        for path, their_id in (('/v3/volumes', theirs.id),
                               ('/v3/volumes/detail', theirs.id),
                               ('/v3/snapshots', their_snapshot.id),
                               ('/v3/snapshots/detail', their_snapshot.id),
                               ('/v3/attachments', their_attachment.id),
                               ('/v3/attachments/detail',
                                their_attachment.id)):
            answers = []
            for marker in (their_id, unknown):
                response = self.app.get('%s?marker=%s' % (path, marker),
                                        headers=headers, expect_errors=True)
                answers.append((response.status_int,
                                response.text.replace(marker, '<id>')))
            self.assertEqual(answers[1], answers[0], path)
            self.assertEqual(404, answers[0][0], path)
            # The owner pages past it; so does an administrator listing
            # every project.
            self.app.get('%s?marker=%s' % (path, their_id),
                         headers=api_fixtures.caller('project-b',
                                                     version='3.27'))
            self.app.get('%s?marker=%s&all_tenants=1' % (path, their_id),
                         headers=api_fixtures.caller('admin', 'admin',
                                                     '3.27'))
