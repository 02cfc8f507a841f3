"""PUT /os-services/get-log and set-log (3.32, admin): the log levels of
the API process and of each volume worker that is up, read and set while
they run."""
import logging
import time

import fixtures
from oslo_log import log

from tests.functional import api_fixtures
from tests.functional import test_actions_cli
from tests.functional import volume_worker_fixture as vwf

ADMIN = dict(api_fixtures.ADMIN, **{'OpenStack-API-Version': 'volume 3.32'})
PREFIX = 'volapi.volume.drivers'


class ServiceLogsTest(api_fixtures.APITestCase):

    def setUp(self):
        super().setUp()
        self.worker = self.useFixture(vwf.RunningWorker(self))
        # The API and the worker share this process's loggers: put back
        # what the test changes.
        logger = log.getLogger(PREFIX + '.file').logger
        self.addCleanup(logger.setLevel, logger.level)

    def put(self, path, body, headers=ADMIN, status=200):
        return self.app.put_json('/v3/os-services/' + path, body,
                                 headers=headers, status=status)

    def test_get_then_set(self):
        found = self.put('get-log', {'prefix': PREFIX}).json['log_levels']
        self.assertEqual(['volapi-api', 'volapi-volume'],
                         sorted(entry['binary'] for entry in found))
        for entry in found:
            self.assertIn(PREFIX + '.file', entry['levels'])
        response = self.put('set-log', {'prefix': PREFIX, 'level': 'debug',
                                        'binary': 'cinder-volume'},
                            status=202)
        self.assertEqual(b'', response.body)
        vwf.wait_for(lambda: self.put('get-log', {
            'prefix': PREFIX + '.file', 'binary': 'volapi-volume'}).json[
            'log_levels'],
            lambda found: found[0]['levels'] == {PREFIX + '.file': 'DEBUG'})
        self.assertEqual(logging.DEBUG, log.getLogger(
            PREFIX + '.file').logger.getEffectiveLevel())

    def test_chosen_by_binary_and_server(self):
        host = self.worker.worker.server_name
        only_worker = self.put('get-log', {'server': host, 'prefix': PREFIX})
        self.assertEqual([host], [e['host'] for e in
                                  only_worker.json['log_levels']])
        self.assertEqual(['volapi-api'], [e['binary'] for e in self.put(
            'get-log', {'binary': 'cinder-api'}).json['log_levels']])
        self.assertEqual([], self.put('get-log', {
            'binary': 'cinder-scheduler'}).json['log_levels'])
        self.assertEqual([], self.put('get-log', {
            'server': 'nowhere@else'}).json['log_levels'])

    def test_refusals(self):
        for body in ({'level': 'loud'}, {}, {'level': 'info', 'x': 1},
                     {'level': 'info', 'binary': 'nova-compute'},
                     {'level': 3}):
            with self.subTest(body=body):
                self.fault(self.put('set-log', body, status=400), 400)
        self.fault(self.put('get-log', {}, headers=dict(
            ADMIN, **{'OpenStack-API-Version': 'volume 3.31'}), status=404),
            404)
        self.fault(self.put('get-log', {}, headers=api_fixtures.caller(
            self.project, version='3.32'), status=403), 403)
        self.fault(self.app.get('/v3/os-services/get-log', headers=ADMIN,
                                status=405), 405)

    def test_a_worker_that_does_not_answer_is_503(self):
        # The first call makes the RPC client (which registers the option).
        self.put('get-log', {'binary': 'cinder-volume'})
        self.config.set(rpc_response_timeout=1)
        self.useFixture(fixtures.MonkeyPatch(
            'volapi.volume.manager.VolumeManager.get_log_levels',
            lambda *args, **kwargs: time.sleep(3)))
        response = self.put('get-log', {'binary': 'cinder-volume'},
                            status=503)
        self.assertIn('did not answer', self.fault(response, 503))


class CinderClientLogsTest(test_actions_cli.CinderClientTestCase):

    def test_get_and_set(self):
        logger = log.getLogger(PREFIX + '.file').logger
        self.addCleanup(logger.setLevel, logger.level)
        services = self.client('admin', 'admin', version='3.32').services
        services.set_log_levels('warning', 'cinder-volume', None, PREFIX)
        vwf.wait_for(
            lambda: services.get_log_levels('cinder-volume', None,
                                            PREFIX + '.file'),
            lambda levels: [(e.binary, e.prefix, e.level) for e in levels]
            == [('volapi-volume', PREFIX + '.file', 'WARNING')])
