"""Contention through real HTTP: 32 clients (threads, one connection
each) fire the same request at the same instant at a gunicorn server
(2 processes, threads) on the backend under test, round after round.

Every round must have exactly one winner (202) and the losers must get the
precise 400, never a 409 or 500: the compare-and-swap decides, the
database serialises. The full 50 rounds run on PostgreSQL. On
MySQL/MariaDB a loser keeps the row lock until it has explained its
failure and rolled back, so the 31 losers of a round pass one by one
(2-4 s a round here); 5 rounds keep the suite fast there. SQLite
serialises every writer by design and is skipped.
"""
import concurrent.futures
import threading

import requests

from db import models
import objects
from objects import project_quota
from tests import base
from tests import volume_rows as rows
from tests.functional import http_server_fixture
from volapi.volume.transitions import engine

CLIENTS = 32
ROUNDS = {'postgresql': 50, 'mysql': 5}
PROJECT = 'project-a'
OWNER = {'X-Auth-Token': 'user-a:%s' % PROJECT,
         'OpenStack-API-Version': 'volume 3.59'}
ADMIN = {'X-Auth-Token': 'admin:admin'}


class Clients:
    """CLIENTS threads, each with its own HTTP session, released together
    by a barrier for every round."""

    def __init__(self, url):
        self.url = url
        self._local = threading.local()
        self._pool = concurrent.futures.ThreadPoolExecutor(CLIENTS)

    def close(self):
        self._pool.shutdown()

    def _session(self):
        session = getattr(self._local, 'session', None)
        if session is None:
            session = self._local.session = requests.Session()
        return session

    def race(self, requests_of_round):
        """Run the CLIENTS (method, path, body) at once; their
        (status, fault message) in order."""
        barrier = threading.Barrier(len(requests_of_round))

        def one(method, path, body):
            session = self._session()
            barrier.wait()
            response = session.request(method, self.url + path, json=body,
                                       headers=OWNER, timeout=60)
            return response.status_code, _message(response)

        futures = [self._pool.submit(one, *r) for r in requests_of_round]
        return [f.result() for f in futures]


def _message(response):
    if response.status_code < 400:
        return None
    (fault,) = response.json().values()
    return fault['message']


class ContentionTest(base.DatabaseTestCase):

    def setUp(self):
        super().setUp()
        if self.backend == 'sqlite':
            self.skipTest('contention runs on PostgreSQL and MySQL/MariaDB; '
                          'SQLite serialises every writer')
        self.rounds = ROUNDS[self.backend]
        # The races make more volumes and snapshots than Cinder's default
        # quota allows one project: the server reads the project's limits.
        project_quota.set_limits(
            self.context, PROJECT,
            {'volumes': -1, 'snapshots': -1, 'gigabytes': -1}, {})
        self.server = self.useFixture(http_server_fixture.GunicornServer())
        self.clients = Clients(self.server.url)
        self.addCleanup(self.clients.close)
        self.volume = rows.volume(self.context, project_id=PROJECT)
        self.action = '/v3/volumes/%s/action' % self.volume.id

    def post_action(self, body, headers=OWNER):
        response = requests.post(self.server.url + self.action, json=body,
                                 headers=headers, timeout=60)
        self.assertEqual(202, response.status_code, response.text)

    def assertOneWinner(self, results, loser_message, round_number):
        statuses = sorted(status for status, _ in results)
        self.assertEqual([202] + [400] * (len(results) - 1), statuses,
                         'round %d: %s' % (round_number, results))
        for status, message in results:
            if status == 400:
                self.assertEqual(loser_message, message)

    def test_reserve_has_one_winner_per_round(self):
        body = {'os-reserve': None}
        for round_number in range(self.rounds):
            results = self.clients.race([('POST', self.action, body)]
                                        * CLIENTS)
            self.assertOneWinner(
                results, "Invalid volume: volume status must be "
                "'available', it is 'attaching'", round_number)
            # Alternate the two ways back to 'available'.
            if round_number % 2:
                self.post_action({'os-unreserve': None})
            else:
                self.post_action(
                    {'os-reset_status': {'status': 'available'}}, ADMIN)
        self.assertEqual('available', rows.row(
            self.context, models.Volume, self.volume.id)['status'])

    def test_extend_to_one_size_has_one_winner_per_round(self):
        for round_number in range(self.rounds):
            new_size = round_number + 2
            body = {'os-extend': {'new_size': new_size}}
            results = self.clients.race([('POST', self.action, body)]
                                        * CLIENTS)
            # 3.59: extending an in-use volume is allowed too.
            self.assertOneWinner(
                results, "Invalid volume: volume status must be one of "
                "'available', 'in-use', it is 'extending'", round_number)
            # What the volume worker would do (no worker serves this
            # server's in-memory transport).
            volume = objects.Volume.get_by_id(self.context, self.volume.id)
            engine.apply(self.context, 'extend_done', volume,
                         size=new_size)
        row = rows.row(self.context, models.Volume, self.volume.id)
        self.assertEqual(('available', self.rounds + 1),
                         (row['status'], row['size']))
        self.assertIsNone(rows.worker_status(self.context, 'volume',
                                             self.volume.id))

    def test_snapshot_create_and_volume_delete_never_both_win(self):
        """Half the clients snapshot the volume, half delete it: either the
        delete wins alone, or snapshots win and every delete is refused."""
        for round_number in range(self.rounds // 2):
            volume = rows.volume(self.context, project_id=PROJECT)
            action = ('DELETE', '/v3/volumes/%s' % volume.id, None)
            snapshot = ('POST', '/v3/snapshots',
                        {'snapshot': {'volume_id': volume.id}})
            results = self.clients.race([action, snapshot] * (CLIENTS // 2))
            deletes = [r for i, r in enumerate(results) if i % 2 == 0]
            snapshots = [r for i, r in enumerate(results) if i % 2 == 1]
            deleted = [s for s, _ in deletes if s == 202]
            snapped = [s for s, _ in snapshots if s == 202]
            self.assertTrue(
                (len(deleted) == 1 and not snapped)
                or (not deleted and snapped),
                'round %d: deletes %s, snapshots %s'
                % (round_number, deletes, snapshots))
            # A delete that kept meeting a changed row may give up with
            # Cinder's 409 "try again" (seen on MariaDB under 16 racers);
            # a snapshot never does, and nothing else is allowed.
            self.assertEqual(
                set(), {s for s, _ in snapshots} - {202, 400},
                'round %d: %s' % (round_number, results))
            self.assertEqual(
                set(), {s for s, _ in deletes} - {202, 400, 409},
                'round %d: %s' % (round_number, results))
            self.assertTrue(all('try again' in message
                                for status, message in deletes
                                if status == 409), results)
            self.assertEqual(len(snapped), rows.count(
                self.context, models.Snapshot, volume_id=volume.id))
            self.assertEqual('deleting' if deleted else 'available',
                             rows.row(self.context, models.Volume,
                                      volume.id)['status'])
