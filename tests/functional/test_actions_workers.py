"""POST /workers/cleanup (3.24, admin) through the API: the operations in
flight of a dead volume service are repaired by the transition the table
names (extending -> error_extending); those of a live one are left alone;
bad filters are 400s."""
import objects
from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import worker_fixtures as wf
from volapi.volume.transitions import engine

ADMIN = dict(api_fixtures.ADMIN, **{'OpenStack-API-Version': 'volume 3.24'})


class WorkersCleanupTest(api_fixtures.APITestCase):

    def extending_held_by(self, service):
        volume = rows.volume(self.context)
        engine.apply(self.context, 'extend', volume, new_size=2)
        self.assertTrue(objects.Worker.take(
            self.context, 'Volume', volume.id, 'extending', service.id))
        return volume

    def cleanup(self, body, headers=ADMIN, status=202):
        return self.app.post_json('/v3/workers/cleanup', body,
                                  headers=headers, status=status)

    def test_dead_service_is_cleaned_live_one_is_not(self):
        dead = wf.make_service(self.context, 'dead@file', age=3600)
        alive = wf.make_service(self.context, 'alive@file')
        orphan = self.extending_held_by(dead)
        busy = self.extending_held_by(alive)
        body = self.cleanup({}).json
        self.assertEqual([{'id': dead.id, 'host': 'dead@file',
                           'binary': 'volapi-volume', 'cluster_name': None}],
                         body['cleaning'])
        self.assertEqual([alive.id], [s['id'] for s in body['unavailable']])
        self.assertEqual('error_extending', rows.row(
            self.context, models.Volume, orphan.id)['status'])
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             orphan.id))
        self.assertEqual('extending', rows.row(
            self.context, models.Volume, busy.id)['status'])

    def test_filters(self):
        dead = wf.make_service(self.context, 'dead@file', age=3600)
        volume = self.extending_held_by(dead)
        body = self.cleanup({'host': 'other@file'}).json
        self.assertEqual({'cleaning': [], 'unavailable': []}, body)
        self.assertEqual('extending', rows.row(
            self.context, models.Volume, volume.id)['status'])
        self.cleanup({'service_id': dead.id, 'resource_type': 'volume',
                      'is_up': 'false'})
        self.assertEqual('error_extending', rows.row(
            self.context, models.Volume, volume.id)['status'])

    def test_by_cluster(self):
        member = wf.make_service(self.context, 'member@file', age=3600,
                                 cluster_name='shared@file')
        outsider = wf.make_service(self.context, 'outsider@file', age=3600)
        of_member = self.extending_held_by(member)
        of_outsider = self.extending_held_by(outsider)
        body = self.cleanup({'cluster_name': 'shared@file'}).json
        self.assertEqual({'cleaning': [{
            'id': member.id, 'host': 'member@file',
            'binary': 'volapi-volume', 'cluster_name': 'shared@file'}],
            'unavailable': []}, body)
        self.assertEqual(['error_extending', 'extending'], [
            rows.row(self.context, models.Volume, v.id)['status']
            for v in (of_member, of_outsider)])

    def test_refusals(self):
        self.fault(self.cleanup({}, headers=dict(
            self.owner, **{'OpenStack-API-Version': 'volume 3.24'}),
            status=403), 403)
        self.fault(self.cleanup({}, headers=api_fixtures.ADMIN, status=404),
                   404)
        self.assertEqual(
            'Invalid input received: Resource type foo not valid, must be '
            'Snapshot or Volume',
            self.fault(self.cleanup({'resource_type': 'foo'}, status=400),
                       400))
        for body in ({'service_id': 'x'}, {'is_up': 'maybe'},
                     {'resource_id': 'nope'}, {'bogus': 1}, [1]):
            with self.subTest(body=body):
                self.fault(self.cleanup(body, status=400), 400)
        self.app.get('/v3/workers/cleanup', headers=ADMIN, status=405)
