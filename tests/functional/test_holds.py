"""Holds whose client vanished (os-reserve, os-begin_detaching, POST
/attachments never completed) are rolled back by the volume worker's
reconciliation once ``[volume] attach_hold_timeout`` has passed, and only
then; a hold completed while the expiry runs ends one way, never both."""
import datetime
import threading
import uuid

from oslo_utils import timeutils

from db import exceptions as db_exc
from db import models
from db import session
import objects
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import placement_invariant as invariant
from tests.functional import volume_worker_fixture as vwf
from volapi import context as volapi_context
from volapi.volume import api as volume_api
from volapi.volume import attachments
from volapi.volume import holds
from volapi.volume.drivers import file as file_driver
from volapi.volume.transitions import engine

CONNECTOR = {'host': 'compute-1', 'initiator': 'iqn.x', 'ip': '10.0.0.1',
             'mountpoint': '/dev/vdb', 'mode': 'rw', 'multipath': False}
TIMEOUT = 60
RACE_ROUNDS = 6


class TerminationRecordingDriver(file_driver.FileDriver):
    """The file driver, noting the connections it terminates (the file
    driver's own terminate leaves no trace to check)."""

    terminated = []

    def terminate_connection(self, volume, connector):
        super().terminate_connection(volume, connector)
        self.terminated.append((volume.id, connector['host']))


class HoldsTestCase(api_fixtures.APITestCase):

    version = '3.44'
    # The periodic reconciliation stays out of the way: tests run the
    # expiry themselves.
    cleanup_interval = 3600

    def setUp(self):
        super().setUp()
        self.config.set('volume', attach_hold_timeout=TIMEOUT,
                        cleanup_interval=self.cleanup_interval,
                        volume_driver='%s.%s' % (
                            __name__, TerminationRecordingDriver.__name__))
        TerminationRecordingDriver.terminated = []
        self.useFixture(invariant.PoolInvariant(self))
        self.running = self.useFixture(vwf.RunningWorker(self)).worker
        self.headers = api_fixtures.caller(self.project,
                                           version=self.version)
        self.volume_id = self.available_volume()

    def available_volume(self, **fields):
        volume_id = self.create_volume(**fields).json['volume']['id']
        vwf.wait_for(lambda: self.status(volume_id)[0],
                     lambda status: status == 'available')
        return volume_id

    def multiattach_volume(self):
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'multi', 'extra_specs': {'multiattach': '<is> True'}}},
            headers=api_fixtures.ADMIN)
        return self.available_volume(volume_type='multi')

    def status(self, volume_id=None):
        row = rows.row(self.context, models.Volume,
                       volume_id or self.volume_id)
        return row['status'], row['attach_status']

    def act(self, body, volume_id=None):
        self.app.post_json('/v3/volumes/%s/action' % (
            volume_id or self.volume_id), body, headers=self.headers,
            status=202)

    def attach(self, connector=None, volume_id=None, instance=None):
        spec = {'volume_uuid': volume_id or self.volume_id,
                'instance_uuid': instance or str(uuid.uuid4())}
        if connector:
            spec['connector'] = connector
        return self.app.post_json('/v3/attachments', {'attachment': spec},
                                  headers=self.headers).json['attachment']

    def complete(self, attachment_id):
        self.app.post_json('/v3/attachments/%s/action' % attachment_id,
                           {'os-complete': None}, headers=self.headers,
                           status=204)

    def attachment(self, attachment_id):
        return rows.row(self.context, models.VolumeAttachment, attachment_id)

    def age(self, model, ident, seconds=TIMEOUT + 5):
        """As if the row had last changed ``seconds`` ago."""
        table = model.__table__
        past = timeutils.utcnow() - datetime.timedelta(seconds=seconds)
        with session.writer.connection.using(self.context) as conn:
            conn.execute(table.update().where(table.c.id == ident).values(
                created_at=past, updated_at=past))

    def age_volume(self, volume_id=None):
        self.age(models.Volume, volume_id or self.volume_id)

    def expire(self):
        return self.running.holds.expire()


class AbandonedHoldsTest(HoldsTestCase):

    def test_reserve_is_dropped_after_the_timeout_only(self):
        self.act({'os-reserve': None})
        self.assertEqual([], self.expire())
        self.assertEqual(('attaching', 'detached'), self.status())
        self.age_volume()
        self.assertEqual([self.volume_id], [v.id for v in self.expire()])
        self.assertEqual(('available', 'detached'), self.status())
        # The volume is free again for a client that does come back.
        self.act({'os-reserve': None})
        self.assertEqual(('attaching', 'detached'), self.status())

    def test_reserve_of_an_attached_multiattach_volume_goes_back_to_in_use(
            self):
        self.volume_id = self.multiattach_volume()
        attached = self.attach(CONNECTOR)
        self.complete(attached['id'])
        self.act({'os-reserve': None})
        self.assertEqual(('attaching', 'attached'), self.status())
        self.age_volume()
        self.assertEqual([self.volume_id], [v.id for v in self.expire()])
        self.assertEqual(('in-use', 'attached'), self.status())
        self.assertFalse(self.attachment(attached['id'])['deleted'])

    def test_begin_detaching_is_rolled_back_after_the_timeout_only(self):
        attachment = self.attach(CONNECTOR)
        self.complete(attachment['id'])
        self.act({'os-begin_detaching': None})
        self.assertEqual([], self.expire())
        self.assertEqual(('detaching', 'attached'), self.status())
        self.age_volume()
        self.assertEqual([self.volume_id], [v.id for v in self.expire()])
        self.assertEqual(('in-use', 'attached'), self.status())
        self.assertEqual('attached',
                         self.attachment(attachment['id'])['attach_status'])
        self.assertEqual([], TerminationRecordingDriver.terminated)

    def test_hold_renewed_after_the_candidates_were_read_is_kept(self):
        # The age is decided by the compare-and-swap, not by the read that
        # found the candidate: a client that detaches again in between
        # keeps its new hold.
        attachment = self.attach(CONNECTOR)
        self.complete(attachment['id'])
        self.act({'os-begin_detaching': None})
        self.age_volume()
        cutoff = timeutils.utcnow() - datetime.timedelta(seconds=TIMEOUT)
        candidate, = objects.Volume.get_unchanged_since(
            self.context, 'status', ('detaching',), cutoff)
        self.act({'os-roll_detaching': None})
        self.act({'os-begin_detaching': None})
        refused = self.assertRaises(
            engine.TransitionRefused, engine.apply, self.context,
            'detaching_hold_expired', candidate, hold_cutoff=cutoff)
        self.assertEqual('volume must not have changed since %s' % cutoff,
                         str(refused))
        self.assertEqual(('detaching', 'attached'), self.status())

    def test_reservation_is_removed_after_the_timeout_only(self):
        attachment = self.attach()
        self.assertEqual([], self.expire())
        self.assertEqual(('reserved', 'detached'), self.status())
        self.age(models.VolumeAttachment, attachment['id'])
        self.age_volume()
        self.assertEqual([attachment['id']],
                         [a.id for a in self.expire()])
        self.assertEqual(('available', 'detached'), self.status())
        row = self.attachment(attachment['id'])
        self.assertEqual((True, 'detached'),
                         (row['deleted'], row['attach_status']))
        self.assertEqual([], self.app.get(
            '/v3/attachments', headers=self.headers).json['attachments'])
        # Nothing was connected, so nothing is terminated.
        self.assertEqual([], TerminationRecordingDriver.terminated)

    def test_attaching_attachment_is_removed_and_disconnected(self):
        attachment = self.attach(CONNECTOR)
        self.assertEqual(('attaching', 'detached'), self.status())
        self.assertEqual([], self.expire())
        self.age(models.VolumeAttachment, attachment['id'])
        self.assertEqual([attachment['id']],
                         [a.id for a in self.expire()])
        self.assertEqual(('available', 'detached'), self.status())
        self.assertTrue(self.attachment(attachment['id'])['deleted'])
        self.assertEqual([(self.volume_id, 'compute-1')],
                         TerminationRecordingDriver.terminated)

    def test_expired_reservation_leaves_the_other_attachment_attached(self):
        self.volume_id = self.multiattach_volume()
        attached = self.attach(CONNECTOR)
        self.complete(attached['id'])
        reserved = self.attach()
        self.assertEqual(('reserved', 'attached'), self.status())
        self.age(models.VolumeAttachment, reserved['id'])
        self.age(models.VolumeAttachment, attached['id'])
        self.assertEqual([reserved['id']], [a.id for a in self.expire()])
        self.assertEqual(('in-use', 'attached'), self.status())
        self.assertFalse(self.attachment(attached['id'])['deleted'])

    def test_reserve_with_a_fresh_attachment_being_made_is_kept(self):
        # The volume's own row is old, but an attachment is being made
        # now: it expires on its own, later, and takes the volume along.
        self.act({'os-reserve': None})
        attachment = rows.attachment(self.context, objects.Volume.get_by_id(
            self.context, self.volume_id), attach_status='attaching')
        self.age_volume()
        self.assertEqual([], self.expire())
        self.assertEqual(('attaching', 'detached'), self.status())
        self.assertFalse(self.attachment(attachment.id)['deleted'])

    def test_holds_of_another_cluster_are_left_alone(self):
        volume = rows.volume(self.context, status='detaching',
                             attach_status='attached',
                             host='elsewhere@file#file',
                             cluster_name='other@file#file')
        self.age_volume(volume.id)
        self.assertEqual([], self.expire())
        self.assertEqual(('detaching', 'attached'), self.status(volume.id))


class ExpiryRaceTest(HoldsTestCase):
    """The client completes its hold just as the expiry rolls it back.
    An attachment's os-complete and its removal: exactly one wins.
    os-attach and os-detach need no hold (they may start from 'available'
    or 'in-use'), so they always succeed and are never rolled back. The
    rows agree with each other afterwards."""

    def race(self, complete):
        """Run ``complete(ctx)`` and one expiry pass at once, each with its
        own context; (completed, expired). A refused complete raises
        ConditionNotMet or NotFound (its attachment is gone)."""
        barrier = threading.Barrier(2, timeout=30)
        outcomes = {}

        def run(name, fn):
            barrier.wait()
            try:
                outcomes[name] = fn(volapi_context.get_admin_context())
            except (db_exc.ConditionNotMet, db_exc.NotFound):
                outcomes[name] = 'refused'

        def expire(ctx):
            return len(holds.HoldExpiry(ctx, self.running.holds.membership,
                                        self.running.holds.driver).expire())

        threads = [threading.Thread(target=run, args=pair) for pair in (
            ('complete', complete), ('expire', expire))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertIn(outcomes['expire'], (0, 1))
        return outcomes['complete'] != 'refused', outcomes['expire'] == 1

    def test_attachment_completed_while_it_expires(self):
        for _ in range(RACE_ROUNDS):
            volume_id = self.available_volume()
            attachment = self.attach(CONNECTOR, volume_id=volume_id)
            self.age(models.VolumeAttachment, attachment['id'])
            self.age_volume(volume_id)
            completed, expired = self.race(
                lambda ctx: attachments.complete(ctx, attachment['id']))
            self.assertNotEqual(completed, expired, 'both or neither won')
            row = self.attachment(attachment['id'])
            if completed:
                self.assertEqual(('in-use', 'attached'),
                                 self.status(volume_id))
                self.assertEqual((False, 'attached'),
                                 (row['deleted'], row['attach_status']))
            else:
                self.assertEqual(('available', 'detached'),
                                 self.status(volume_id))
                self.assertEqual((True, 'detached'),
                                 (row['deleted'], row['attach_status']))

    def test_attach_racing_the_reserve_expiry_is_never_undone(self):
        # os-attach needs no reserve (it may start from 'available'), so
        # it wins whichever way the race goes; what must never happen is
        # a rollback of the attached volume.
        for _ in range(RACE_ROUNDS):
            volume_id = self.available_volume()
            self.act({'os-reserve': None}, volume_id=volume_id)
            self.age_volume(volume_id)
            completed, _expired = self.race(
                lambda ctx: volume_api.attach(
                    ctx, volume_id, instance_uuid=str(uuid.uuid4()),
                    mountpoint='/dev/vdb'))
            self.assertTrue(completed)
            self.assertEqual((('in-use', 'attached'), 1), (
                self.status(volume_id), rows.count(
                    self.context, models.VolumeAttachment,
                    volume_id=volume_id, deleted=False)))

    def test_detach_racing_the_detaching_expiry_is_never_undone(self):
        for _ in range(RACE_ROUNDS):
            volume_id = self.available_volume()
            attachment_id = volume_api.attach(
                self.context, volume_id, instance_uuid=str(uuid.uuid4()),
                mountpoint='/dev/vdb')
            self.act({'os-begin_detaching': None}, volume_id=volume_id)
            self.age_volume(volume_id)
            completed, _expired = self.race(
                lambda ctx: volume_api.detach(ctx, volume_id,
                                              attachment_id))
            self.assertTrue(completed)
            self.assertEqual((('available', 'detached'), 0), (
                self.status(volume_id), rows.count(
                    self.context, models.VolumeAttachment,
                    volume_id=volume_id, deleted=False)))


class PeersTest(HoldsTestCase):

    def test_two_members_expiring_at_once_roll_each_hold_back_once(self):
        reserved = self.available_volume()
        self.act({'os-reserve': None}, volume_id=reserved)
        detaching = self.available_volume()
        volume_api.attach(self.context, detaching,
                          instance_uuid=str(uuid.uuid4()))
        self.act({'os-begin_detaching': None}, volume_id=detaching)
        connected = self.attach(CONNECTOR)
        self.age(models.VolumeAttachment, connected['id'])
        for volume_id in (reserved, detaching):
            self.age_volume(volume_id)
        barrier = threading.Barrier(2, timeout=30)
        passes = []

        def expire():
            peer = holds.HoldExpiry(volapi_context.get_admin_context(),
                                    self.running.holds.membership,
                                    self.running.holds.driver)
            barrier.wait()
            passes.append([obj.id for obj in peer.expire()])

        threads = [threading.Thread(target=expire) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(sorted([reserved, detaching, connected['id']]),
                         sorted(passes[0] + passes[1]))
        self.assertEqual([('available', 'detached'), ('in-use', 'attached'),
                          ('available', 'detached')],
                         [self.status(v) for v in (reserved, detaching,
                                                   self.volume_id)])
        self.assertEqual([(self.volume_id, 'compute-1')],
                         TerminationRecordingDriver.terminated)


class PeriodicExpiryTest(HoldsTestCase):
    """The worker's own periodic reconciliation does it."""

    cleanup_interval = 1

    def test_periodic_reconciliation_rolls_back_an_abandoned_reserve(self):
        self.config.set('volume', attach_hold_timeout=2)
        self.act({'os-reserve': None})
        vwf.wait_for(self.status, lambda s: s == ('available', 'detached'),
                     timeout=30)
