"""The attachments API (3.27+) through the whole API: reserve, connect
(with a real worker answering initialize_connection), complete (3.44),
delete; the volume's status follows; refusals and bad input are 4xx."""
import logging
import time
import uuid

import fixtures

from db import models
import objects
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import volume_worker_fixture as vwf
from tests.functional import worker_fixtures as wf
from volapi.volume import api as volume_api

CONNECTOR = {'host': 'compute-1', 'initiator': 'iqn.x', 'ip': '10.0.0.1',
             'mountpoint': '/dev/vdb', 'mode': 'rw', 'multipath': False}
SUMMARY_FIELDS = {'id', 'status', 'instance', 'volume_id'}
DETAIL_FIELDS = SUMMARY_FIELDS | {'attached_at', 'detached_at',
                                  'attach_mode', 'connection_info'}


class AttachmentTestCase(api_fixtures.APITestCase):

    version = '3.44'

    def setUp(self):
        super().setUp()
        self.headers = api_fixtures.caller(self.project,
                                           version=self.version)
        self.volume = rows.volume(self.context, project_id=self.project)
        self.instance = str(uuid.uuid4())

    def create(self, status=200, headers=None, **spec):
        spec.setdefault('volume_uuid', self.volume.id)
        spec.setdefault('instance_uuid', self.instance)
        return self.app.post_json('/v3/attachments', {'attachment': spec},
                                  headers=headers or self.headers,
                                  status=status)

    def complete(self, attachment_id, status=204, headers=None, value=None):
        return self.app.post_json(
            '/v3/attachments/%s/action' % attachment_id,
            {'os-complete': value}, headers=headers or self.headers,
            status=status)

    def volume_status(self):
        row = rows.row(self.context, models.Volume, self.volume.id)
        return row['status'], row['attach_status']


class ReserveTest(AttachmentTestCase):

    def test_reserve_list_show_delete(self):
        attachment = self.create().json['attachment']
        self.assertEqual(DETAIL_FIELDS, set(attachment))
        self.assertEqual(('reserved', self.instance, self.volume.id, None),
                         (attachment['status'], attachment['instance'],
                          attachment['volume_id'],
                          attachment['connection_info']))
        self.assertEqual(('reserved', 'detached'), self.volume_status())
        listed = self.app.get('/v3/attachments',
                              headers=self.headers).json['attachments']
        self.assertEqual([SUMMARY_FIELDS], [set(a) for a in listed])
        detailed = self.app.get('/v3/attachments/detail?volume_id=%s'
                                % self.volume.id,
                                headers=self.headers).json['attachments']
        self.assertEqual(attachment['id'], detailed[0]['id'])
        shown = self.app.get('/v3/attachments/%s' % attachment['id'],
                             headers=self.headers).json['attachment']
        self.assertEqual('reserved', shown['status'])
        remaining = self.app.delete('/v3/attachments/%s' % attachment['id'],
                                    headers=self.headers).json
        self.assertEqual({'attachments': []}, remaining)
        self.assertEqual(('available', 'detached'), self.volume_status())

    def test_second_reservation_of_a_single_attach_volume_is_refused(self):
        self.create()
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'reserved'", self.fault(self.create(status=400), 400))
        self.assertEqual(1, rows.count(self.context, models.VolumeAttachment))

    def test_complete_needs_a_connection(self):
        attachment = self.create().json['attachment']
        self.assertEqual(
            "Invalid attachment: attachment attach_status must be "
            "'attaching', it is 'reserved'",
            self.fault(self.complete(attachment['id'], status=400), 400))

    def test_microversions(self):
        old = api_fixtures.caller(self.project, version='3.26')
        self.assertEqual('API version 3.26 is not supported on this method.',
                         self.fault(self.create(headers=old, status=404),
                                    404))
        self.fault(self.app.get('/v3/attachments', headers=old, status=404),
                   404)
        attachment = self.create().json['attachment']
        self.fault(self.complete(attachment['id'], status=404,
                                 headers=api_fixtures.caller(
                                     self.project, version='3.43')), 404)

    def test_bad_input(self):
        cases = [{'attachment': {'volume_uuid': self.volume.id}},
                 {'attachment': {'instance_uuid': self.instance}},
                 {'attachment': {'volume_uuid': 'x',
                                 'instance_uuid': self.instance}},
                 {'attachment': {'volume_uuid': self.volume.id,
                                 'instance_uuid': self.instance,
                                 'connector': 'iqn'}},
                 {'attachment': {'volume_uuid': self.volume.id,
                                 'instance_uuid': self.instance,
                                 'mode': 'rx'}},
                 {'volume_uuid': self.volume.id}, []]
        for body in cases:
            with self.subTest(body=body):
                self.fault(self.app.post_json('/v3/attachments', body,
                                              headers=self.headers,
                                              status=400), 400)
        attachment = self.create().json['attachment']
        path = '/v3/attachments/%s' % attachment['id']
        for body in ({'attachment': {}}, {'attachment': {'connector': 1}},
                     {}):
            with self.subTest(body=body):
                self.fault(self.app.put_json(path, body,
                                             headers=self.headers,
                                             status=400), 400)
        for body in ({'os-foo': None},
                     {'os-complete': None, 'os-foo': None}):
            with self.subTest(body=body):
                self.fault(self.app.post_json(path + '/action', body,
                                              headers=self.headers,
                                              status=400), 400)
        missing = str(uuid.uuid4())
        self.assertEqual('Attachment %s could not be found.' % missing,
                         self.fault(self.app.get(
                             '/v3/attachments/%s' % missing,
                             headers=self.headers, status=404), 404))

    def test_other_projects(self):
        stranger = api_fixtures.caller('project-b', version=self.version)
        self.fault(self.create(headers=stranger, status=404), 404)
        attachment = self.create().json['attachment']
        path = '/v3/attachments/%s' % attachment['id']
        for method in ('get', 'delete'):
            self.fault(getattr(self.app, method)(path, headers=stranger,
                                                 status=404), 404)
        self.assertEqual([], self.app.get(
            '/v3/attachments', headers=stranger).json['attachments'])
        self.assertEqual(('reserved', 'detached'), self.volume_status())


class ConnectedTestCase(AttachmentTestCase):
    """With a volume worker answering initialize_connection."""

    def setUp(self):
        super().setUp()
        self.driver_log = self.useFixture(fixtures.FakeLogger(
            name='volapi.volume.drivers.file', level=logging.DEBUG,
            format='%(message)s'))
        self.worker = self.useFixture(vwf.RunningWorker(self))
        self.volume = self.available_volume()

    def available_volume(self, **fields):
        volume_id = self.create_volume(**fields).json['volume']['id']
        vwf.wait_for(lambda: rows.row(self.context, models.Volume,
                                      volume_id)['status'],
                     lambda status: status == 'available')
        return objects.Volume.get_by_id(self.context, volume_id)

    def assertConnected(self, attachment):
        info = attachment['connection_info']
        self.assertEqual('local', info['driver_volume_type'])
        self.assertEqual(('attaching', 'rw'), (attachment['status'],
                                               attachment['attach_mode']))

    def terminations(self):
        """What the file driver logs for each connection it terminates."""
        return self.driver_log.output.count('detached from compute-1')

    def attached_twice(self):
        """A multiattach volume (self.volume) attached to compute-1 and
        compute-2: its two attachments."""
        self.app.post_json('/v3/types', {'volume_type': {
            'name': 'multi', 'extra_specs': {'multiattach': '<is> True'}}},
            headers=api_fixtures.ADMIN)
        self.volume = self.available_volume(volume_type='multi')
        first = self.create(connector=CONNECTOR).json['attachment']
        self.complete(first['id'])
        second = self.create(instance_uuid=str(uuid.uuid4()),
                             connector=dict(CONNECTOR, host='compute-2')
                             ).json['attachment']
        self.complete(second['id'])
        return first, second


class ConnectTest(ConnectedTestCase):

    def test_connecting_when_no_worker_is_up_is_503_at_once(self):
        # The worker's heartbeat is older than service_down_time: the API
        # answers without waiting out an RPC timeout, and keeps nothing.
        self.config.set(rpc_response_timeout=60)
        self.worker.mark_down()
        started = time.monotonic()
        response = self.create(connector=CONNECTOR, status=503)
        self.assertLess(time.monotonic() - started, 10)
        self.assertIn('no volume worker serving it is up',
                      self.fault(response, 503))
        self.assertTrue(response.headers['Retry-After'].isdigit())
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertEqual([], self.app.get(
            '/v3/attachments', headers=self.headers).json['attachments'])

    def test_disconnecting_while_the_broker_is_down_is_done_later(self):
        attachment = self.create(connector=CONNECTOR).json['attachment']
        # The API's messages go to a broker nobody listens for (the worker
        # keeps its own transport).
        self.config.set(transport_url='rabbit://guest:guest@127.0.0.1:%d/'
                        % wf.free_port())
        volume_api.reset_worker_client()
        self.addCleanup(volume_api.reset_worker_client)
        started = time.monotonic()
        self.app.delete('/v3/attachments/%s' % attachment['id'],
                        headers=self.headers)
        self.assertLess(time.monotonic() - started, 30)
        # Done in the database; its workers row records the termination
        # the message did not carry.
        self.assertEqual(('available', 'detached'), self.volume_status())
        row = wf.worker_row(self.context, 'attachment', attachment['id'])
        self.assertEqual(('terminating', None),
                         (row.status, row.service_id))
        self.assertEqual(0, self.terminations())
        # The reconciliation of the volume's cluster re-drives it.
        self.worker.worker.reconciler.reconcile(unclaimed_timeout=0)
        self.assertEqual(1, self.terminations())
        self.assertIsNone(wf.worker_row(self.context, 'attachment',
                                        attachment['id']))

    def test_a_connection_made_after_its_attachment_went_is_ended(self):
        # DELETE /attachments commits, and its termination runs, while the
        # worker is still making the connection the PUT asked for: the
        # termination came first, so the PUT ends the connection itself.
        attachment = self.create().json['attachment']
        driver = self.worker.worker.driver
        connect = driver.initialize_connection

        def connect_while_deleted(volume, connector):
            info = connect(volume, connector)
            self.app.delete('/v3/attachments/%s' % attachment['id'],
                            headers=self.headers)
            vwf.wait_for(self.terminations, lambda count: count == 1)
            return info

        self.useFixture(fixtures.MockPatchObject(
            driver, 'initialize_connection', connect_while_deleted))
        response = self.app.put_json(
            '/v3/attachments/%s' % attachment['id'],
            {'attachment': {'connector': CONNECTOR}},
            headers=self.headers, status=404)
        self.assertIn(attachment['id'], self.fault(response, 404))
        vwf.wait_for(lambda: wf.worker_row(self.context, 'attachment',
                                           attachment['id']),
                     lambda row: row is None)
        events = [line for line in self.driver_log.output.splitlines()
                  if 'compute-1' in line]
        self.assertEqual(['attached', 'detached', 'detached'],
                         [line.split()[2] for line in events])
        self.assertEqual(('available', 'detached'), self.volume_status())

    def test_a_termination_from_an_api_before_rpc_1_2_is_made_at_once(self):
        # Such an API wrote no workers row: nothing to claim.
        attachment = objects.VolumeAttachment.get_by_id(
            self.context, self.create(connector=CONNECTOR).json[
                'attachment']['id'])
        self.worker.worker.manager.terminate_connection(
            self.context, self.volume, attachment)
        self.assertEqual(1, self.terminations())

    def test_create_with_connector_complete_delete(self):
        attachment = self.create(connector=CONNECTOR).json['attachment']
        self.assertConnected(attachment)
        self.assertEqual(('attaching', 'detached'), self.volume_status())
        self.complete(attachment['id'])
        self.assertEqual(('in-use', 'attached'), self.volume_status())
        shown = self.app.get('/v3/attachments/%s' % attachment['id'],
                             headers=self.headers).json['attachment']
        self.assertEqual('attached', shown['status'])
        self.assertNotEqual('', shown['attached_at'])
        volume = self.app.get('/v3/volumes/%s' % self.volume.id,
                              headers=self.headers).json['volume']
        self.assertEqual([attachment['id']],
                         [a['attachment_id'] for a in volume['attachments']])
        self.app.delete('/v3/attachments/%s' % attachment['id'],
                        headers=self.headers)
        self.assertEqual(('available', 'detached'), self.volume_status())
        # The worker terminates the connection and ends its workers row.
        vwf.wait_for(lambda: wf.worker_row(self.context, 'attachment',
                                           attachment['id']),
                     lambda row: row is None)
        self.assertEqual(1, self.terminations())

    def test_complete_takes_any_value(self):
        # As Cinder: openstacksdk sends the attachment's id.
        for value in ('id', {'x': 1}, {}):
            with self.subTest(value=value):
                self.volume = self.available_volume()
                attachment = self.create(connector=CONNECTOR).json[
                    'attachment']
                self.complete(attachment['id'], value=(
                    attachment['id'] if value == 'id' else value))
                self.assertEqual(('in-use', 'attached'),
                                 self.volume_status())

    def test_reserve_then_update_then_complete(self):
        attachment = self.create().json['attachment']
        updated = self.app.put_json(
            '/v3/attachments/%s' % attachment['id'],
            {'attachment': {'connector': CONNECTOR}},
            headers=self.headers).json['attachment']
        self.assertConnected(updated)
        self.assertEqual(('attaching', 'detached'), self.volume_status())
        self.complete(attachment['id'])
        self.assertEqual(('in-use', 'attached'), self.volume_status())

    def test_multiattach_volume_takes_a_second_attachment(self):
        first, second = self.attached_twice()
        self.assertEqual(2, rows.count(self.context, models.VolumeAttachment,
                                       volume_id=self.volume.id,
                                       attach_status='attached'))
        remaining = self.app.delete('/v3/attachments/%s' % first['id'],
                                    headers=self.headers).json
        self.assertEqual([second['id']],
                         [a['id'] for a in remaining['attachments']])
        self.assertEqual(('in-use', 'attached'), self.volume_status())

    def test_worker_failure_takes_the_attachment_back(self):
        # A volume the worker has no file for: initialize_connection fails.
        self.volume = rows.volume(self.context, project_id=self.project,
                                  host=self.volume.host)
        message = self.fault(self.create(connector=CONNECTOR, status=500),
                             500)
        self.assertEqual('Unable to initialize the connection to volume %s: '
                         'the volume worker failed (VolumeDriverError).'
                         % self.volume.id, message)
        self.assertEqual(('available', 'detached'), self.volume_status())
        self.assertEqual(0, rows.count(self.context, models.VolumeAttachment,
                                       volume_id=self.volume.id,
                                       deleted=False))
