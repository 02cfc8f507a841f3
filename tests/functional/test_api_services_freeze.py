"""PUT /v3/os-services/freeze, thaw and failover_host, as Cinder answers
them for a backend without replication: a frozen backend gets no new
volumes, and its volumes and snapshots can be neither deleted nor
snapshotted (the refusal decided in the swap) until it is thawed."""
import os

import fixtures
import webtest

from objects import service as service_obj
from tests import volume_rows as rows
from tests.functional import api_fixtures
from tests.functional import commit_after_read
from tests.functional import worker_fixtures
from volapi import context as volapi_context
from volapi.api import app
from volapi.volume import api as volume_api
from volapi.volume import freezing
from volapi.volume import snapshots as snapshot_api

VOLUME = service_obj.VOLUME_BINARY
ADMIN = api_fixtures.ADMIN
FROZEN = ('Invalid input received: Modification operations are not '
          'allowed on frozen storage backends.')


def _admin(version='3.59'):
    return api_fixtures.caller('admin', 'admin', version)


class FreezeTestCase(api_fixtures.APITestCase):
    """Two servers with a pool each, worker-1@file and worker-2@file."""

    def setUp(self):
        super().setUp()
        # Each create reads the pools: a freeze counts at once.
        self.config.set('volume', scheduler_cache_seconds=0)
        self.useFixture(worker_fixtures.Pools(self, host='worker-2'))
        for host in ('worker-1@file', 'worker-2@file'):
            service_obj.Service.register(self.context, host, VOLUME)

    def put(self, action, body, headers=None, status=200):
        return self.app.put_json('/v3/os-services/' + action, body,
                                 headers=headers or _admin(), status=status)

    def frozen(self):
        return {s['host']: s['frozen'] for s in self.app.get(
            '/v3/os-services', headers=_admin()).json['services']}

    def volume_on(self, server):
        """An available volume of the owner's on ``server``'s pool."""
        while True:
            volume = self.create_volume().json['volume']
            host = self.app.get('/v3/volumes/%s' % volume['id'],
                                headers=_admin()).json['volume'][
                'os-vol-host-attr:host']
            if host.startswith(server + '#'):
                self.make_available(volume['id'])
                return volume['id']
            # The other pool had more room: freeing it evens them.
            self.make_available(volume['id'])
            self.app.delete('/v3/volumes/%s' % volume['id'],
                            headers=self.owner, status=202)

    def snapshot_of(self, volume_id, status=202):
        return self.app.post_json('/v3/snapshots', {'snapshot': {
            'volume_id': volume_id}}, headers=self.owner, status=status)

    def available_snapshot(self, volume_id):
        snapshot = self.snapshot_of(volume_id).json['snapshot']
        self.app.post_json('/v3/snapshots/%s/action' % snapshot['id'],
                           {'os-reset_status': {'status': 'available'}},
                           headers=ADMIN, status=202)
        return snapshot['id']

    def status(self, kind, ident):
        return self.app.get('/v3/%s/%s' % (kind, ident),
                            headers=_admin()).json[kind[:-1]]['status']


class FreezeTest(FreezeTestCase):

    def test_frozen_refuses_deletes_and_snapshots_until_thawed(self):
        volume_id = self.volume_on('worker-1@file')
        snapshot_id = self.available_snapshot(volume_id)
        response = self.put('freeze', {'host': 'worker-1@file'})
        self.assertEqual(b'', response.body)
        self.assertEqual({'worker-1@file': True, 'worker-2@file': False},
                         self.frozen())
        for response in (
                self.app.delete('/v3/volumes/%s' % volume_id,
                                headers=self.owner, status=400),
                self.app.delete('/v3/volumes/%s?cascade=true' % volume_id,
                                headers=self.owner, status=400),
                self.app.post_json(
                    '/v3/volumes/%s/action' % volume_id,
                    {'os-force_delete': {}}, headers=ADMIN, status=400),
                self.snapshot_of(volume_id, status=400),
                self.app.delete('/v3/snapshots/%s' % snapshot_id,
                                headers=self.owner, status=400),
                self.app.post_json(
                    '/v3/snapshots/%s/action' % snapshot_id,
                    {'os-force_delete': {}}, headers=ADMIN, status=400)):
            self.assertEqual(FROZEN, self.fault(response, 400))
        self.assertEqual('available', self.status('volumes', volume_id))
        self.assertEqual('available', self.status('snapshots', snapshot_id))
        self.assertEqual(1, len(self.app.get(
            '/v3/snapshots', headers=self.owner).json['snapshots']))

        self.put('thaw', {'host': 'worker-1@file'})
        self.assertEqual({'worker-1@file': False, 'worker-2@file': False},
                         self.frozen())
        self.app.delete('/v3/snapshots/%s' % snapshot_id,
                        headers=self.owner, status=202)
        self.snapshot_of(volume_id)
        self.assertEqual('deleting', self.status('snapshots', snapshot_id))

    def test_another_backend_is_not_refused(self):
        volume_id = self.volume_on('worker-2@file')
        self.put('freeze', {'host': 'worker-1@file'})
        snapshot_id = self.available_snapshot(volume_id)
        self.app.delete('/v3/snapshots/%s' % snapshot_id,
                        headers=self.owner, status=202)
        self.app.delete('/v3/volumes/%s?cascade=true' % volume_id,
                        headers=self.owner, status=202)

    def test_unmanage_is_not_refused(self):
        volume_id = self.volume_on('worker-1@file')
        self.put('freeze', {'host': 'worker-1'})
        self.app.post_json('/v3/volumes/%s/action' % volume_id,
                           {'os-unmanage': {}}, headers=ADMIN, status=202)
        self.assertEqual('unmanaging', self.status('volumes', volume_id))

    def test_new_volumes_avoid_frozen_backends(self):
        self.put('freeze', {'host': 'worker-1@file'})
        hosts = set()
        for _ in range(3):
            volume = self.create_volume().json['volume']
            hosts.add(self.app.get('/v3/volumes/%s' % volume['id'],
                                   headers=_admin()).json['volume'][
                'os-vol-host-attr:host'])
        self.assertEqual({'worker-2@file#file'}, hosts)
        self.put('freeze', {'host': 'worker-2@file'})
        volume = self.create_volume().json['volume']
        self.assertEqual('error', self.status('volumes', volume['id']))
        self.put('thaw', {'host': 'worker-1@file'})
        volume = self.create_volume().json['volume']
        self.assertEqual('worker-1@file#file', self.app.get(
            '/v3/volumes/%s' % volume['id'], headers=_admin()).json[
            'volume']['os-vol-host-attr:host'])

    def test_freeze_twice_thaw_twice(self):
        self.put('freeze', {'host': 'worker-1@file'})
        response = self.put('freeze', {'host': 'worker-1@file'}, status=400)
        self.assertEqual(
            "Invalid input received: No service could be changed: frozen "
            "in ['worker-1@file'] must be False to failover.",
            self.fault(response, 400))
        self.put('thaw', {'host': 'worker-1@file'})
        response = self.put('thaw', {'host': 'worker-1@file'}, status=400)
        self.assertEqual(
            "Invalid input received: No service could be changed: frozen "
            "in ['worker-1@file'] must be True to failover.",
            self.fault(response, 400))
        self.assertEqual({'worker-1@file': False, 'worker-2@file': False},
                         self.frozen())

    def test_a_cluster_freezes_as_one(self):
        for host in ('worker-3@file', 'worker-4@file'):
            service_obj.Service.register(self.context, host, VOLUME,
                                         cluster_name='c@file')
        # A member's host names its whole cluster (Cinder's).
        self.put('freeze', {'host': 'worker-3@file'})
        self.assertEqual({'worker-1@file': False, 'worker-2@file': False,
                          'worker-3@file': True, 'worker-4@file': True},
                         self.frozen())
        response = self.put('freeze', {'cluster': 'c@file'},
                            headers=_admin('3.26'), status=400)
        self.assertEqual('Invalid input received: frozen in c@file must '
                         'be False to failover.', self.fault(response, 400))
        # Before 3.26 the cluster is not read: the host is missing.
        response = self.put('thaw', {'cluster': 'c@file'},
                            headers=_admin('3.25'), status=400)
        self.assertEqual('Invalid input received: Host field is missing.',
                         self.fault(response, 400))
        self.put('thaw', {'cluster': 'c@file'}, headers=_admin('3.26'))
        self.assertFalse(any(self.frozen().values()))

    def test_a_clustered_volume_follows_its_cluster(self):
        for host in ('worker-3@file', 'worker-4@file'):
            service_obj.Service.register(self.context, host, VOLUME,
                                         cluster_name='c@file')
        # Made by worker-3, served by the cluster; and one of a worker
        # outside it whose host starts the same.
        clustered = rows.volume(self.context, project_id=self.project,
                                host='worker-3@file#file',
                                cluster_name='c@file#file')
        alone = rows.volume(self.context, project_id=self.project,
                            host='worker-3@file2#file')
        self.put('freeze', {'cluster': 'c@file'}, headers=_admin('3.26'))
        response = self.app.delete('/v3/volumes/%s' % clustered.id,
                                   headers=self.owner, status=400)
        self.assertEqual(FROZEN, self.fault(response, 400))
        self.app.delete('/v3/volumes/%s' % alone.id, headers=self.owner,
                        status=202)
        self.put('thaw', {'host': 'worker-4@file'})
        self.app.delete('/v3/volumes/%s' % clustered.id, headers=self.owner,
                        status=202)

    def test_bad_requests(self):
        for action, body, message in (
                ('freeze', {'host': 'nowhere'},
                 'No service found with host=nowhere'),
                ('thaw', {'host': 'worker-1@file#file'},
                 'No service found with host=worker-1@file#file'),
                ('freeze', {}, 'Invalid input received: One and only one '
                               'of cluster and host must be set.'),
                ('freeze', {'host': 'worker-1@file', 'binary': VOLUME},
                 None),
                ('thaw', {'host': ''}, None),
                ('freeze', ['worker-1@file'], None),
                ('failover_host', {'host': 'worker-1@file', 'x': 1}, None)):
            response = self.put(action, body, status=400)
            text = self.fault(response, 400)
            if message is not None:
                self.assertEqual(message, text)
        response = self.put('freeze', {'host': 'worker-1@file',
                                       'cluster': 'c@file'},
                            headers=_admin('3.26'), status=400)
        self.assertEqual('Invalid input received: One and only one of '
                         'cluster and host must be set.',
                         self.fault(response, 400))
        # A host without a backend names all of its backends.
        service_obj.Service.register(self.context, 'worker-1@other', VOLUME)
        response = self.put('freeze', {'host': 'worker-1'}, status=400)
        self.assertEqual('Services from different clusters found.',
                         self.fault(response, 400))
        self.assertFalse(any(self.frozen().values()))

    def test_failover_is_refused(self):
        response = self.put('failover_host', {'host': 'worker-1@file',
                                              'backend_id': 'b'},
                            status=400)
        self.assertEqual(
            "Invalid input received: No service could be changed: "
            "replication_status in ['worker-1@file'] must be ['enabled', "
            "'failed-over'] and must be up to failover.",
            self.fault(response, 400))
        service_obj.Service.register(self.context, 'worker-3@file', VOLUME,
                                     cluster_name='c@file')
        response = self.put('failover_host', {'cluster': 'c@file'},
                            headers=_admin('3.26'), status=400)
        self.assertEqual(
            "Invalid input received: replication_status in c@file must be "
            "['enabled', 'failed-over'] and must be up to failover.",
            self.fault(response, 400))
        response = self.put('failover_host', {'host': 'nowhere'},
                            status=400)
        self.assertEqual('No service found with host=nowhere',
                         self.fault(response, 400))
        listed = self.app.get('/v3/os-services', headers=_admin()).json
        self.assertEqual({('not-capable', None, False)},
                         {(s['replication_status'], s['active_backend_id'],
                           s['frozen']) for s in listed['services']})

    def test_administrators_only(self):
        for action in ('freeze', 'thaw', 'failover_host'):
            response = self.put(action, {'host': 'worker-1@file'},
                                headers=self.owner, status=403)
            self.assertIn('volume_extension:services:update',
                          self.fault(response, 403))
        self.assertFalse(any(self.frozen().values()))

    def test_the_rules_of_their_own(self):
        # Cinder asks for its rule of each action too.
        self.useFixture(PolicyRules(self, {
            'volume:freeze_host': '!', 'volume:thaw_host': '!',
            'volume:failover_host': '!'}))
        for action, rule in (('freeze', 'volume:freeze_host'),
                             ('thaw', 'volume:thaw_host'),
                             ('failover_host', 'volume:failover_host')):
            response = self.put(action, {'host': 'worker-1@file'},
                                status=403)
            self.assertIn(rule, self.fault(response, 403))
        self.assertFalse(any(self.frozen().values()))


class FreezeRaceTest(FreezeTestCase):
    """A freeze that commits between what a delete or snapshot read and
    its swap refuses it: the swap's WHERE holds the services row."""

    def freeze_after(self, module, name):
        return self.useFixture(commit_after_read.CommitAfterRead(
            self, module, name, lambda: freezing.set_frozen(
                volapi_context.get_admin_context(), 'worker-1@file', None,
                True)))

    def check(self, change, response, status_before):
        change.wait()
        # Only SQLite's one writer at a time keeps the two apart.
        self.assertEqual(self.backend != 'sqlite', change.in_between)
        if change.in_between:
            self.assertEqual(FROZEN, self.fault(response, 400))
        else:
            # SQLite: the freeze waited for the request's transaction.
            self.assertEqual(status_before, response.status_int)

    def test_delete(self):
        volume_id = self.volume_on('worker-1@file')
        change = self.freeze_after(volume_api, 'get_volume')
        response = self.app.delete('/v3/volumes/%s' % volume_id,
                                   headers=self.owner, expect_errors=True)
        self.check(change, response, 202)
        self.assertEqual('available' if change.in_between else 'deleting',
                         self.status('volumes', volume_id))

    def test_snapshot_create(self):
        volume_id = self.volume_on('worker-1@file')
        change = self.freeze_after(volume_api, 'get_volume')
        response = self.snapshot_of(volume_id, status='*')
        self.check(change, response, 202)

    def test_snapshot_delete(self):
        volume_id = self.volume_on('worker-1@file')
        snapshot_id = self.available_snapshot(volume_id)
        change = self.freeze_after(snapshot_api, 'get')
        response = self.app.delete('/v3/snapshots/%s' % snapshot_id,
                                   headers=self.owner, expect_errors=True)
        self.check(change, response, 202)
        self.assertEqual('available' if change.in_between else 'deleting',
                         self.status('snapshots', snapshot_id))


class PolicyRules(fixtures.Fixture):
    """A policy file with ``rules`` (oslo.policy's), and the test's app
    made again to read it."""

    def __init__(self, test, rules):
        super().__init__()
        self.test, self.rules = test, rules

    def _setUp(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'policy.yaml')
        with open(path, 'w') as f:
            for rule, check in self.rules.items():
                f.write('"%s": "%s"\n' % (rule, check))
        self.test.config.set('oslo_policy', policy_file=path)
        self.test.app = webtest.TestApp(app.setup_app(
            self.test.config.conf))
