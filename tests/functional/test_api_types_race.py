"""Deleting a volume type while a volume of that type is being created,
or retyped to it: whichever wins, no live volume is ever left with a
deleted type (the create's or retype's guard and the delete's "not in
use" condition conflict on the type's row)."""
import threading

import sqlalchemy as sa

from db import models
from db import session
from tests import volume_rows as rows
from tests.functional import api_fixtures

ROUNDS = 12


class TypeDeleteVersusCreateTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        # Twelve rounds of creates: more volumes than the default quota.
        self.config.set('quota', volumes=-1, gigabytes=-1)

    def _orphans(self, type_id):
        volumes = models.Volume.__table__
        types = models.VolumeType.__table__
        with session.reader.connection.using(self.context) as conn:
            return conn.execute(
                sa.select(sa.func.count()).select_from(
                    volumes.join(types,
                                 volumes.c.volume_type_id == types.c.id))
                .where(volumes.c.deleted == sa.false(),
                       types.c.deleted == sa.true(),
                       types.c.id == type_id)).scalar()

    def delete_racing(self, type_id, request):
        """(status of the type's delete, status ``request()`` got), the two
        sent at once."""
        barrier = threading.Barrier(2)
        results = [None, None]

        def send(index, fn):
            barrier.wait()
            results[index] = fn()

        def delete():
            return self.app.delete('/v3/types/%s' % type_id,
                                   headers=api_fixtures.ADMIN,
                                   expect_errors=True).status_int

        threads = [threading.Thread(target=send, args=(0, delete)),
                   threading.Thread(target=send, args=(1, request))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return tuple(results)

    def test_no_volume_keeps_a_deleted_type(self):
        for round_number in range(ROUNDS):
            name = 'racing-%d' % round_number
            type_id = self.app.post_json(
                '/v3/types', {'volume_type': {'name': name}},
                headers=api_fixtures.ADMIN).json['volume_type']['id']
            results = self.delete_racing(type_id, lambda: self.app.post_json(
                '/v3/volumes', {'volume': {'size': 1, 'volume_type': type_id}},
                headers=self.owner, expect_errors=True).status_int)
            # Exactly one of them wins, and the loser is refused cleanly.
            self.assertIn(results, {(202, 404), (400, 202)})
            self.assertEqual(0, self._orphans(type_id))

    def test_no_retype_goes_to_a_deleted_type(self):
        for round_number in range(ROUNDS):
            name = 'racing-%d' % round_number
            type_id = rows.volume_type(self.context, name=name)
            volume = rows.volume(self.context, project_id=self.project)
            results = self.delete_racing(type_id, lambda: self.app.post_json(
                '/v3/volumes/%s/action' % volume.id,
                {'os-retype': {'new_type': type_id}},
                headers=self.owner, expect_errors=True).status_int)
            # Exactly one of them wins: a retype in flight keeps its new
            # type (the volume takes it when the retype ends).
            self.assertIn(results, {(202, 400), (202, 404), (400, 202)})
            retyping = rows.row(self.context, models.Volume,
                                volume.id)['status'] == 'retyping'
            self.assertEqual(results[1] == 202, retyping, results)
