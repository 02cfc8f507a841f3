"""QoS specs associated while they, or their types, are deleted or
associated elsewhere: forced interleavings of the compare-and-swaps on
every backend, and concurrent associations through the API. Invariants:
no live type is associated with a deleted spec, a type with one spec at
most, and each outcome is that of some serial order."""
import threading
import uuid

import sqlalchemy as sa
from oslo_utils import timeutils

from db import models
from db import session
from objects import qos_association
from objects import qos_specs as specs_obj
from objects import volume_type as type_obj
from tests import base
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import interleaving

REFUSED_ASSOCIATION = (specs_obj.QosSpecsNotFound,
                       qos_association.VolumeTypeNotFound,
                       qos_association.AssociatedWithAnother)


def qos_spec(context, name=None):
    spec_id = str(uuid.uuid4())
    name = name or 'qos-%s' % spec_id[:8]
    rows.insert(context, models.QosSpecs, id=spec_id, name=name,
                live_name=name, consumer='back-end', deleted=False,
                created_at=timeutils.utcnow())
    return spec_id


def live_types_of_deleted_specs(context):
    types = models.VolumeType.__table__
    specs = models.QosSpecs.__table__
    with session.reader.connection.using(context) as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(
            types.join(specs, specs.c.id == types.c.qos_specs_id)).where(
            types.c.deleted == sa.false(),
            specs.c.deleted == sa.true())).scalar()


class QosInterleavingTest(interleaving.Interleaving, base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        self.spec_id = qos_spec(self.context)
        self.type_id = rows.volume_type(self.context)

    def associate(self, hold=None, spec_id=None):
        """True: associated; False: refused."""
        return interleaving.outcome(
            self.make_context(is_admin=True),
            lambda ctx: qos_association.associate(
                ctx, spec_id or self.spec_id, self.type_id),
            REFUSED_ASSOCIATION, hold)

    def delete_spec(self, hold=None, force=False):
        """True: deleted; False: refused, in use."""
        return interleaving.outcome(
            self.make_context(is_admin=True),
            lambda ctx: specs_obj.QosSpecs(ctx, id=self.spec_id).destroy(
                force=force),
            (specs_obj.QosSpecsInUse, specs_obj.QosSpecsNotFound), hold)

    def delete_type(self, hold=None):
        def change(ctx):
            type_obj.VolumeType(ctx, id=self.type_id).destroy()
        return interleaving.outcome(self.make_context(is_admin=True), change,
                                    type_obj.VolumeTypeInUse, hold)

    def qos_of_type(self):
        return rows.row(self.context, models.VolumeType,
                        self.type_id)['qos_specs_id']

    def spec_deleted(self):
        return rows.row(self.context, models.QosSpecs,
                        self.spec_id)['deleted']

    def test_delete_waiting_for_an_association_is_refused(self):
        self.contended_table = 'qos_specs'
        self.assertEqual((True, False),
                         self.interleave(self.associate, self.delete_spec))
        self.assertEqual(self.spec_id, self.qos_of_type())
        self.assertFalse(self.spec_deleted())

    def test_association_waiting_for_a_delete_is_refused(self):
        self.contended_table = 'qos_specs'
        self.assertEqual((True, False),
                         self.interleave(self.delete_spec, self.associate))
        self.assertIsNone(self.qos_of_type())
        self.assertEqual(0, live_types_of_deleted_specs(self.context))

    def test_forced_delete_waiting_for_an_association_disassociates(self):
        self.contended_table = 'qos_specs'
        self.assertEqual((True, True), self.interleave(
            self.associate, lambda: self.delete_spec(force=True)))
        self.assertIsNone(self.qos_of_type())
        self.assertTrue(self.spec_deleted())

    def test_association_waiting_for_a_forced_delete_is_refused(self):
        self.contended_table = 'qos_specs'
        self.assertEqual((True, False), self.interleave(
            lambda hold: self.delete_spec(hold, force=True),
            self.associate))
        self.assertIsNone(self.qos_of_type())
        self.assertEqual(0, live_types_of_deleted_specs(self.context))

    def test_association_waiting_for_a_type_delete_is_refused(self):
        self.contended_table = 'volume_types'
        self.assertEqual((True, False),
                         self.interleave(self.delete_type, self.associate))
        self.assertIsNone(self.qos_of_type())

    def test_association_waiting_for_another_is_refused(self):
        self.contended_table = 'volume_types'
        other = qos_spec(self.context)
        self.assertEqual((True, False), self.interleave(
            self.associate, lambda: self.associate(spec_id=other)))
        self.assertEqual(self.spec_id, self.qos_of_type())


class QosAssociationRaceAPITest(api_fixtures.APITestCase):
    """8 associations of one type with 8 specs at once, for some rounds:
    exactly one succeeds, the others get Cinder's 400 naming it."""

    ROUNDS = 3
    CLIENTS = 8

    def test_concurrent_associations_of_one_type(self):
        for round_ in range(self.ROUNDS):
            type_id = rows.volume_type(self.context)
            specs = [qos_spec(self.context) for _ in range(self.CLIENTS)]
            barrier = threading.Barrier(self.CLIENTS)
            results = {}

            def associate(spec_id):
                barrier.wait()
                results[spec_id] = self.app.get(
                    '/v3/admin/qos-specs/%s/associate' % spec_id,
                    params={'vol_type_id': type_id},
                    headers=api_fixtures.ADMIN, expect_errors=True)

            threads = [threading.Thread(target=associate, args=(spec_id,))
                       for spec_id in specs]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            won = [spec_id for spec_id, response in results.items()
                   if response.status_int == 202]
            self.assertEqual(1, len(won), round_)
            self.assertEqual(won[0], rows.row(
                self.context, models.VolumeType, type_id)['qos_specs_id'])
            for spec_id, response in results.items():
                if spec_id != won[0]:
                    self.assertEqual(
                        'Invalid volume type: Type %s is already associated '
                        'with another qos specs: %s' % (type_id, won[0]),
                        self.fault(response, 400))
