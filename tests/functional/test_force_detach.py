"""os-force_detach (admin): an attachment removed whatever the attach or
detach in progress, its connection terminated by the worker; the volume's
statuses follow the attachments that remain."""
import uuid

from db import models
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import test_attachments
from tests.functional import test_openstacksdk
from tests.functional import volume_worker_fixture as vwf
from tests.functional import worker_fixtures as wf

ADMIN = api_fixtures.ADMIN
CONNECTOR = test_attachments.CONNECTOR


class ForceDetachTest(test_attachments.ConnectedTestCase):

    def force_detach(self, argument, status=202, headers=ADMIN):
        return self.app.post_json(
            '/v3/volumes/%s/action' % self.volume.id,
            {'os-force_detach': argument}, headers=headers, status=status)

    def reset(self, status):
        self.app.post_json('/v3/volumes/%s/action' % self.volume.id,
                           {'os-reset_status': {'status': status}},
                           headers=ADMIN, status=202)

    def assertTerminated(self, attachment_id, count=1):
        vwf.wait_for(lambda: wf.worker_row(self.context, 'attachment',
                                           attachment_id),
                     lambda row: row is None)
        self.assertEqual(count, self.terminations())

    def live_attachments(self):
        return rows.count(self.context, models.VolumeAttachment,
                          volume_id=self.volume.id, deleted=False)

    def test_a_volume_stuck_detaching_is_rolled_back(self):
        attachment = self.create(connector=CONNECTOR).json['attachment']
        self.complete(attachment['id'])
        self.reset('detaching')
        self.force_detach({'attachment_id': attachment['id'],
                           'connector': CONNECTOR})
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertEqual(0, self.live_attachments())
        self.assertTerminated(attachment['id'])

    def test_the_only_attachment_when_none_is_named(self):
        # Reserved, never connected: nothing to terminate.
        self.create()
        self.force_detach({})
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertEqual(0, self.live_attachments())
        self.assertEqual(0, self.terminations())

    def test_one_of_several_attachments(self):
        first, _ = self.attached_twice()
        message = self.fault(self.force_detach({}, status=400), 400)
        self.assertEqual('Detach volume failed: More than one attachment, '
                         'but no attachment_id provided.', message)
        self.force_detach({'attachment_id': first['id']})
        self.assertEqual(('in-use', 'attached'), self.volume_status())
        self.assertEqual(1, self.live_attachments())
        self.assertTerminated(first['id'])

    def test_an_attachment_the_volume_lacks_settles_its_statuses(self):
        # Cinder's roll-back of a bad detach: the attachment already went.
        attachment = self.create().json['attachment']
        self.reset('detaching')
        other = rows.volume(self.context, project_id=self.project)
        foreign = self.app.post_json('/v3/attachments', {'attachment': {
            'volume_uuid': other.id, 'instance_uuid': self.instance}},
            headers=self.headers).json['attachment']
        for named in (str(uuid.uuid4()), 'not-an-id', foreign['id']):
            self.force_detach({'attachment_id': named})
            # The reservation the volume has stays, and says 'reserved'.
            self.assertEqual(('reserved', 'detached'), self.volume_status())
            self.reset('detaching')
        self.app.delete('/v3/attachments/%s' % attachment['id'],
                        headers=self.headers)
        self.reset('attaching')
        self.force_detach({'attachment_id': None, 'connector': None})
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertEqual(1, rows.count(self.context, models.VolumeAttachment,
                                       volume_id=other.id, deleted=False))

    def test_refusals(self):
        attachment = self.create().json['attachment']
        self.assertEqual(403, self.force_detach(
            {'attachment_id': attachment['id']}, status=403,
            headers=self.headers).status_int)
        for argument in (None, [], {'attachment_id': 5},
                         {'connector': 5}, {'other': 1}):
            self.fault(self.force_detach(argument, status=400), 400)
        for status in ('maintenance', 'extending', 'creating'):
            self.reset(status)
            self.assertIn(
                "must be one of",
                self.fault(self.force_detach({}, status=400), 400))
        self.assertEqual(1, self.live_attachments())

    def test_openstacksdk(self):
        attachment = self.create(connector=CONNECTOR).json['attachment']
        self.complete(attachment['id'])
        conn = test_openstacksdk.connect(self.serve(), 'admin')
        conn.block_storage.detach_volume(self.volume.id, attachment['id'],
                                         force=True, connector=CONNECTOR)
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertTerminated(attachment['id'])
