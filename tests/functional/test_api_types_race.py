"""Deleting a volume type while a volume of that type is being created:
whichever wins, no live volume is ever left with a deleted type (the
create's guard and the delete's "not in use" condition conflict on the
type's row)."""
import threading

import sqlalchemy as sa

from db import models
from db import session
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

    def test_no_volume_keeps_a_deleted_type(self):
        outcomes = set()
        for round_number in range(ROUNDS):
            name = 'racing-%d' % round_number
            type_id = self.app.post_json(
                '/v3/types', {'volume_type': {'name': name}},
                headers=api_fixtures.ADMIN).json['volume_type']['id']
            barrier = threading.Barrier(2)
            results = {}

            def delete():
                barrier.wait()
                results['delete'] = self.app.delete(
                    '/v3/types/%s' % type_id, headers=api_fixtures.ADMIN,
                    expect_errors=True).status_int

            def create():
                barrier.wait()
                results['create'] = self.app.post_json(
                    '/v3/volumes',
                    {'volume': {'size': 1, 'volume_type': type_id}},
                    headers=self.owner, expect_errors=True).status_int

            threads = [threading.Thread(target=delete),
                       threading.Thread(target=create)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            # Exactly one of them wins, and the loser is refused cleanly.
            self.assertIn((results['delete'], results['create']),
                          {(202, 404), (400, 202)}, results)
            self.assertEqual(0, self._orphans(type_id))
            outcomes.add((results['delete'], results['create']))
        self.assertTrue(outcomes)
