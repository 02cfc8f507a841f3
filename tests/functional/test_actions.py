"""POST /volumes/{id}/action through the whole API: each action's effect,
the precise refusal when the volume's state forbids it, and bad input of
every kind answered with a 4xx fault that names the problem (never a 500).
"""
import os
import uuid

import fixtures
import sqlalchemy
import webtest

from db import models
from db import session
from tests import volume_rows as rows
from tests.functional import api_fixtures
from volapi.api import app

ADMIN = api_fixtures.ADMIN


class ActionTestCase(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.volume = rows.volume(self.context, project_id=self.project)

    def act(self, body, volume_id=None, headers=None, status=202,
            prefix='/v3'):
        response = self.app.post_json(
            '%s/volumes/%s/action' % (prefix, volume_id or self.volume.id),
            body, headers=headers or self.owner, status=status)
        if status == 202:
            self.assertEqual(b'', response.body)
        return response

    def refused(self, body, status=400, **kwargs):
        return self.fault(self.act(body, status=status, **kwargs), status)

    def volume_row(self, volume_id=None):
        return rows.row(self.context, models.Volume,
                        volume_id or self.volume.id)

    def status(self, volume_id=None):
        return self.volume_row(volume_id)['status']


class BadInputTest(ActionTestCase):

    def test_unknown_action(self):
        self.assertEqual('There is no such action: os-foo',
                         self.refused({'os-foo': {}}))

    def test_body_must_be_one_action(self):
        for body in ({'os-reserve': None, 'os-unreserve': None}, {}, [1],
                     'os-reserve', 5, None):
            with self.subTest(body=body):
                self.assertIn('exactly one key', self.refused(body))

    def test_malformed_json(self):
        response = self.app.post(
            '/v3/volumes/%s/action' % self.volume.id, '{"os-reserve":',
            headers=dict(self.owner, **{'Content-Type': 'application/json'}),
            status=400)
        self.assertIn('Malformed', self.fault(response, 400))

    def test_extend_bad_sizes(self):
        cases = [({}, "'new_size' is a required property"),
                 ({'new_size': -1}, '-1 is less than the minimum of 1'),
                 ({'new_size': 0}, '0 is less than the minimum of 1'),
                 ({'new_size': 2 ** 63}, 'is greater than the maximum of'),
                 ({'new_size': 'abc'}, 'new_size'),
                 ({'new_size': 1.5}, 'new_size'),
                 ({'new_size': True}, 'new_size'),
                 ({'new_size': [2]}, 'new_size'),
                 ({'new_size': 2, 'other': 1},
                  'Additional properties are not allowed'),
                 (5, "5 is not of type 'object'")]
        for argument, expected in cases:
            with self.subTest(argument=argument):
                self.assertIn(expected,
                              self.refused({'os-extend': argument}))
        self.assertEqual('available', self.status())
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             self.volume.id))

    def test_extend_must_grow(self):
        self.assertEqual(
            'Invalid volume: volume size must be less than 1, it is 1',
            self.refused({'os-extend': {'new_size': 1}}))

    def test_no_argument_actions_refuse_arguments(self):
        for name in ('os-reserve', 'os-unreserve', 'os-begin_detaching',
                     'os-roll_detaching'):
            with self.subTest(action=name):
                self.assertIn('Additional properties are not allowed',
                              self.refused({name: {'x': 1}}))
                self.assertIn("is not of type 'null', 'object'",
                              self.refused({name: 'x'}))

    def test_attach_bad_arguments(self):
        instance = str(uuid.uuid4())
        cases = [({'instance_uuid': instance}, "'mountpoint' is a required"),
                 ({'mountpoint': '/dev/vdb'}, 'is not valid under any'),
                 ({'instance_uuid': 'not-a-uuid', 'mountpoint': '/dev/vdb'},
                  'instance_uuid'),
                 ({'instance_uuid': instance, 'mountpoint': '/dev/vdb',
                   'mode': 'rx'}, "'rx' is not one of ['rw', 'ro']")]
        for argument, expected in cases:
            with self.subTest(argument=argument):
                self.assertIn(expected,
                              self.refused({'os-attach': argument}))

    def test_detach_bad_arguments(self):
        self.assertIn('attachment_id', self.refused(
            {'os-detach': {'attachment_id': 'nope'}}))
        volume = rows.volume(self.context, project_id=self.project,
                             status='in-use', attach_status='attached')
        self.assertEqual(
            'Volume %s has no attachments to detach.' % volume.id,
            self.refused({'os-detach': {}}, volume_id=volume.id))
        missing = str(uuid.uuid4())
        self.assertEqual(
            'Attachment %s could not be found.' % missing,
            self.refused({'os-detach': {'attachment_id': missing}},
                         volume_id=volume.id, status=404))

    def test_reset_status_bad_arguments(self):
        self.assertEqual(
            "Must specify 'status', 'attach_status' or 'migration_status' "
            "for update.",
            self.refused({'os-reset_status': {}}, headers=ADMIN))
        for argument in ({'status': 'bogus'}, {'attach_status': 'maybe'},
                         {'migration_status': 'x'}, {'other': 'available'}):
            with self.subTest(argument=argument):
                self.refused({'os-reset_status': argument}, headers=ADMIN)

    def test_retype_bad_arguments(self):
        self.assertIn("'new_type' is a required property",
                      self.refused({'os-retype': {}}))
        self.assertIn('migration_policy', self.refused(
            {'os-retype': {'new_type': 'x', 'migration_policy': 'always'}}))
        self.assertEqual('Volume type nope could not be found.',
                         self.refused({'os-retype': {'new_type': 'nope'}},
                                      status=404))

    def test_readonly_flag_bad_arguments(self):
        self.assertIn("'readonly' is a required property",
                      self.refused({'os-update_readonly_flag': {}}))
        self.assertIn('readonly', self.refused(
            {'os-update_readonly_flag': {'readonly': 'maybe'}}))

    def test_other_projects_volumes_do_not_exist(self):
        stranger = api_fixtures.caller('project-b')
        for body in ({'os-reserve': None}, {'os-extend': {'new_size': 2}},
                     {'os-update_readonly_flag': {'readonly': True}},
                     {'os-reset_status': {'status': 'error'}}):
            with self.subTest(body=body):
                response = self.app.post_json(
                    '/v3/volumes/%s/action' % self.volume.id, body,
                    headers=stranger, status=404)
                self.assertEqual('Volume %s could not be found.'
                                 % self.volume.id,
                                 self.fault(response, 404))
        self.assertEqual('available', self.status())
        missing = str(uuid.uuid4())
        self.assertEqual('Volume %s could not be found.' % missing,
                         self.refused({'os-reserve': None},
                                      volume_id=missing, status=404))

    def test_get_is_not_an_action(self):
        self.app.get('/v3/volumes/%s/action' % self.volume.id,
                     headers=self.owner, status=405)


class ActionsTest(ActionTestCase):

    def test_reserve_unreserve(self):
        self.act({'os-reserve': None}, prefix='/v3/%s' % self.project)
        self.assertEqual('attaching', self.status())
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'attaching'", self.refused({'os-reserve': None}))
        self.act({'os-unreserve': None})
        self.assertEqual('available', self.status())
        self.act({'os-unreserve': None})  # nothing to undo: as Cinder, 202
        self.assertEqual('available', self.status())

    def statements_of(self, body, **kwargs):
        """The SQL statements one action sends (pings excluded)."""
        sent = []

        def record(conn, cursor, statement, parameters, context, many):
            if statement.strip().upper() not in ('SELECT 1', 'BEGIN',
                                                 'BEGIN IMMEDIATE'):
                sent.append(statement.split()[0].upper())

        engine = session.get_engine()
        sqlalchemy.event.listen(engine, 'before_cursor_execute', record)
        try:
            self.act(body, **kwargs)
        finally:
            sqlalchemy.event.remove(engine, 'before_cursor_execute', record)
        return sent

    def test_reserve_of_own_volume_is_one_update(self):
        self.assertEqual(['UPDATE'], self.statements_of({'os-reserve': None}))
        self.assertEqual('attaching', self.status())
        self.assertEqual(['UPDATE'],
                         self.statements_of({'os-unreserve': None}))
        self.assertEqual('available', self.status())

    def test_reserve_of_multiattach_in_use_volume_is_one_update(self):
        multi = rows.volume(self.context, project_id=self.project,
                            status='in-use', attach_status='attached',
                            multiattach=True)
        self.assertEqual(['UPDATE'], self.statements_of(
            {'os-reserve': None}, volume_id=multi.id))
        self.assertEqual('attaching', self.status(multi.id))

    def test_admin_reserves_another_projects_volume(self):
        # Not the admin's own volume: the long way, which loads it.
        self.act({'os-reserve': None}, headers=ADMIN)
        self.assertEqual('attaching', self.status())

    def test_policy_is_checked_before_the_update(self):
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'policy.yaml')
        with open(path, 'w') as f:
            f.write('"volume_extension:volume_actions:reserve": '
                    '"rule:admin_api"\n')
        self.config.set('oslo_policy', policy_file=path)
        self.app = webtest.TestApp(app.setup_app(self.config.conf))
        self.assertIn('reserve', self.refused({'os-reserve': None},
                                              status=403))
        self.assertEqual('available', self.status())
        self.act({'os-reserve': None}, headers=ADMIN)
        self.assertEqual('attaching', self.status())

    def test_reset_status_follows_the_policy_alone(self):
        self.assertIn('reset_status', self.refused(
            {'os-reset_status': {'status': 'error'}}, status=403))
        directory = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(directory, 'policy.yaml')
        with open(path, 'w') as f:
            f.write('"volume_extension:volume_admin_actions:reset_status": '
                    '"rule:admin_or_owner"\n')
        self.config.set('oslo_policy', policy_file=path)
        self.app = webtest.TestApp(app.setup_app(self.config.conf))
        self.act({'os-reset_status': {'status': 'error'}})
        self.assertEqual('error', self.status())

    def test_extend_and_its_microversion_for_in_use(self):
        self.act({'os-extend': {'new_size': '3'}})
        row = self.volume_row()
        self.assertEqual(('extending', 1), (row['status'], row['size']))
        self.assertEqual('extending', rows.worker_status(
            self.context, 'volume', self.volume.id))
        in_use = rows.volume(self.context, project_id=self.project,
                             status='in-use', attach_status='attached')
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'in-use'",
            self.refused({'os-extend': {'new_size': 2}}, volume_id=in_use.id,
                         headers=api_fixtures.caller(self.project,
                                                     version='3.41')))
        self.act({'os-extend': {'new_size': 2}}, volume_id=in_use.id,
                 headers=api_fixtures.caller(self.project, version='3.42'))
        self.assertEqual('extending', self.status(in_use.id))

    def test_legacy_attach_detach(self):
        instance = str(uuid.uuid4())
        self.act({'os-reserve': None})
        self.act({'os-attach': {'instance_uuid': instance,
                                'mountpoint': '/dev/vdb', 'mode': 'rw'}})
        volume = self.app.get('/v3/volumes/%s' % self.volume.id,
                              headers=self.owner).json['volume']
        self.assertEqual('in-use', volume['status'])
        (attached,) = volume['attachments']
        self.assertEqual((instance, '/dev/vdb'),
                         (attached['server_id'], attached['device']))
        self.assertEqual(
            "Invalid volume: volume status must be one of 'available', "
            "'error', 'error_restoring', 'error_extending', "
            "'error_managing', it is 'in-use'",
            self.fault(self.app.delete('/v3/volumes/%s' % self.volume.id,
                                       headers=self.owner, status=400),
                       400))
        self.act({'os-begin_detaching': None})
        self.assertEqual('detaching', self.status())
        self.act({'os-roll_detaching': None})
        self.assertEqual('in-use', self.status())
        self.act({'os-begin_detaching': None})
        self.act({'os-detach': {'attachment_id': attached['attachment_id']}})
        row = self.volume_row()
        self.assertEqual(('available', 'detached'),
                         (row['status'], row['attach_status']))

    def test_detach_without_attachment_id_takes_the_only_one(self):
        self.act({'os-attach': {'host_name': 'server-1',
                                'mountpoint': '/mnt'}})
        self.act({'os-detach': None})
        self.assertEqual('available', self.status())

    def test_readonly_flag_forbids_rw_attach(self):
        self.act({'os-update_readonly_flag': {'readonly': 'true'}})
        self.assertEqual('True', rows.admin_metadata_of(
            self.context, self.volume.id)['readonly'])
        self.act({'os-reserve': None})
        self.assertEqual(
            "Invalid volume: volume must not be read-only to be attached "
            "in mode 'rw'",
            self.refused({'os-attach': {'host_name': 'h', 'mountpoint': '/m',
                                        'mode': 'rw'}}))
        self.act({'os-attach': {'host_name': 'h', 'mountpoint': '/m',
                                'mode': 'ro'}})
        self.assertEqual(
            "Invalid volume: volume status must be 'available', it is "
            "'in-use'",
            self.refused({'os-update_readonly_flag': {'readonly': False}}))

    def test_set_bootable(self):
        for value, shown in ((True, 'true'), ('false', 'false'),
                             ('1', 'true')):
            response = self.act({'os-set_bootable': {'bootable': value}},
                                status=200)
            self.assertEqual(b'', response.body)
            self.assertEqual(shown, self.app.get(
                '/v3/volumes/%s' % self.volume.id,
                headers=self.owner).json['volume']['bootable'])
        self.assertIn('bootable', self.refused(
            {'os-set_bootable': {'bootable': 'maybe'}}))
        self.assertIn("'bootable' is a required property",
                      self.refused({'os-set_bootable': {}}))
        self.act({'os-reset_status': {'status': 'maintenance'}},
                 headers=api_fixtures.ADMIN)
        self.assertIn('maintenance', self.refused(
            {'os-set_bootable': {'bootable': False}}))
        self.assertTrue(self.volume_row()['bootable'])

    def test_reset_status(self):
        self.act({'os-extend': {'new_size': 2}})
        self.assertEqual(
            "Policy doesn't allow "
            "volume_extension:volume_admin_actions:reset_status to be "
            "performed.",
            self.refused({'os-reset_status': {'status': 'available'}},
                         status=403))
        self.act({'os-reset_status': {'status': 'available',
                                      'migration_status': 'none'}},
                 headers=ADMIN)
        row = self.volume_row()
        self.assertEqual(('available', None),
                         (row['status'], row['migration_status']))
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             self.volume.id))

    def test_reset_attach_status_detached_ends_attachments(self):
        self.act({'os-attach': {'host_name': 'h', 'mountpoint': '/m'}})
        self.act({'os-reset_status': {'status': 'available',
                                      'attach_status': 'detached'}},
                 headers=ADMIN)
        self.assertEqual(0, rows.count(self.context, models.VolumeAttachment,
                                       volume_id=self.volume.id,
                                       deleted=False))
        self.assertEqual('available', self.status())

    def test_retype(self):
        type_id = rows.volume_type(self.context, name='gold')
        self.act({'os-retype': {'new_type': 'gold',
                                'migration_policy': 'on-demand'}})
        row = self.volume_row()
        self.assertEqual(('retyping', 'available'),
                         (row['status'], row['previous_status']))
        self.assertEqual('retyping', rows.worker_status(
            self.context, 'volume', self.volume.id))
        volume = rows.volume(self.context, project_id=self.project,
                             volume_type_id=type_id)
        self.assertEqual(
            "Invalid volume: volume volume_type_id must not be '%s', it is "
            "'%s'" % (type_id, type_id),
            self.refused({'os-retype': {'new_type': type_id}},
                         volume_id=volume.id))

    def test_the_new_type_of_a_retype_in_flight_is_in_use(self):
        # The volume takes the type only when the retype ends.
        type_id = rows.volume_type(self.context, name='gold')
        self.act({'os-retype': {'new_type': 'gold'}})
        response = self.app.delete('/v3/types/%s' % type_id, headers=ADMIN,
                                   status=400)
        self.assertEqual('Volume Type %s deletion is not allowed with '
                         'volumes present with the type.' % type_id,
                         self.fault(response, 400))
        self.app.get('/v3/types/gold', headers=self.owner, status=200)

    def test_retype_to_a_private_type_is_for_admins_only(self):
        type_id = rows.volume_type(self.context, name='secret')
        with session.writer.connection.using(self.context) as conn:
            conn.execute(models.VolumeType.__table__.update().where(
                models.VolumeType.id == type_id).values(is_public=False))
        self.assertEqual('Volume type secret could not be found.',
                         self.refused({'os-retype': {'new_type': 'secret'}},
                                      status=404))
        self.assertEqual('available', self.status())
        self.act({'os-retype': {'new_type': 'secret'}}, headers=ADMIN)
        self.assertEqual('retyping', self.status())

    def test_delete_refused_with_snapshots_unless_cascade(self):
        snapshot = rows.snapshot(self.context, self.volume)
        response = self.app.delete('/v3/volumes/%s' % self.volume.id,
                                   headers=self.owner, status=400)
        self.assertIn('volume must have no snapshots',
                      self.fault(response, 400))
        self.app.delete('/v3/volumes/%s?cascade=true' % self.volume.id,
                        headers=self.owner, status=202)
        self.assertEqual('deleting', self.status())
        self.assertEqual('deleting', rows.row(
            self.context, models.Snapshot, snapshot.id)['status'])
        for resource, ident in (('volume', self.volume.id),
                                ('snapshot', snapshot.id)):
            self.assertEqual('deleting', rows.worker_status(
                self.context, resource, ident))
