"""A project's default type set while the type is deleted: forced
interleavings of the two compare-and-swaps on every backend, and the two
through the API at once. The invariant: no project's default is a deleted
type, and each outcome is that of some serial order."""
import threading

import sqlalchemy as sa

from db import api as db_api
from db import models
from db import session
from objects import default_type
from objects import volume_type as type_obj
from tests import base
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import interleaving

PROJECT = 'default-race-project'


def _defaults_of_deleted_types(context):
    defaults = models.DefaultVolumeType.__table__
    types = models.VolumeType.__table__
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(
            defaults.join(types, types.c.id == defaults.c.volume_type_id))
            .where(types.c.deleted == sa.true())).scalar()


class DefaultTypeInterleavingTest(interleaving.Interleaving,
                                  base.DatabaseTestCase):

    contended_table = 'volume_types'

    def setUp(self):
        super().setUp()
        self.type_id = rows.volume_type(self.context)

    def set_default(self, hold=None):
        """True: set; False: refused, the type is gone."""
        return interleaving.outcome(
            self.make_context(),
            lambda ctx: default_type.set_type(ctx, PROJECT, self.type_id),
            type_obj.VolumeTypeNotFound, hold)

    def delete_type(self, hold=None):
        """True: deleted; False: refused, a project's default. The type
        is read before the delete's transaction, as the API reads it."""
        @db_api.retry_on_deadlock
        def transaction(context):
            volume_type = type_obj.VolumeType.get(context, self.type_id)
            with session.writer.using(context):
                volume_type.destroy()
                if hold and not attempts:
                    attempts.append(1)
                    hold()
        attempts = []
        try:
            transaction(self.make_context())
            return True
        except type_obj.VolumeTypeIsDefault:
            return False

    def test_delete_waiting_for_a_set_default_is_refused(self):
        self.assertEqual((True, False),
                         self.interleave(self.set_default, self.delete_type))
        self.assertEqual(self.type_id, default_type.get(
            self.context, PROJECT).volume_type_id)
        self.assertEqual(0, _defaults_of_deleted_types(self.context))

    def test_set_default_waiting_for_a_delete_is_refused(self):
        self.assertEqual((True, False),
                         self.interleave(self.delete_type, self.set_default))
        self.assertIsNone(default_type.get(self.context, PROJECT))


class DefaultTypeRaceAPITest(api_fixtures.APITestCase):
    """PUT /default-types and DELETE /types of one type at once, for some
    rounds: exactly one wins."""

    ROUNDS = 8

    def test_set_default_and_delete_type(self):
        admin = dict(api_fixtures.ADMIN,
                     **{'OpenStack-API-Version': 'volume 3.62'})
        for round_ in range(self.ROUNDS):
            type_id = rows.volume_type(self.context)
            barrier = threading.Barrier(2)
            results = {}

            def set_default():
                barrier.wait()
                results['set'] = self.app.put_json(
                    '/v3/default-types/%s' % PROJECT,
                    {'default_type': {'volume_type': type_id}},
                    headers=admin, expect_errors=True).status_int

            def delete_type():
                barrier.wait()
                results['delete'] = self.app.delete(
                    '/v3/types/%s' % type_id, headers=admin,
                    expect_errors=True).status_int

            threads = [threading.Thread(target=set_default),
                       threading.Thread(target=delete_type)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            self.assertIn((results['set'], results['delete']),
                          {(200, 400), (400, 202)}, round_)
            self.assertEqual(0, _defaults_of_deleted_types(self.context))
            self.app.delete('/v3/default-types/%s' % PROJECT,
                            headers=admin, status=204)
