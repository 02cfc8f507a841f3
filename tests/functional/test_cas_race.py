"""Many threads race the same compare-and-swap: exactly one wins each round."""
import threading

from db import api as db_api
from db import models
from db import session
from tests.unit import test_cas_base

THREADS = 16
ROUNDS = 200
WAIT = 60  # seconds a barrier waits before the test fails instead of hanging


class RaceTest(test_cas_base.CasTestCase):

    def setUp(self):
        super().setUp()
        # A connection for every racer: with oslo.db's default pool of 5,
        # 11 racers would open and close a connection every round, which
        # measures connection set-up instead of the race.
        session.configure(self.database.url, max_pool_size=THREADS + 1)
        self.addCleanup(session.configure, self.database.url)

    def test_one_winner_per_round(self):
        volume_id = self.create_volume(status='available')
        # 16 racers and this thread, which resets the row between rounds.
        start = threading.Barrier(THREADS + 1, timeout=WAIT)
        end = threading.Barrier(THREADS + 1, timeout=WAIT)
        wins = [[0] * ROUNDS for _ in range(THREADS)]
        errors = []

        def racer(index):
            context = self.make_context()
            try:
                for round_ in range(ROUNDS):
                    start.wait()
                    try:
                        wins[index][round_] = int(db_api.conditional_update(
                            context, models.Volume, {'status': 'attaching'},
                            {'id': volume_id, 'status': 'available'}))
                    except Exception as e:  # reported below, after the round
                        errors.append(e)
                    end.wait()
            except threading.BrokenBarrierError:
                # The test stopped the race (an error, a timeout): it
                # reports why; a traceback per racer would say nothing.
                return

        threads = [threading.Thread(target=racer, args=(i,))
                   for i in range(THREADS)]
        for thread in threads:
            thread.start()
        try:
            for round_ in range(ROUNDS):
                self.change_row(test_cas_base.VOLUMES, volume_id,
                                status='available')
                start.wait()
                end.wait()
                if errors:
                    break
        except threading.BrokenBarrierError:
            pass
        finally:
            start.abort()
            end.abort()
            for thread in threads:
                thread.join(WAIT)
        if errors:
            raise errors[0]
        winners = [sum(wins[i][r] for i in range(THREADS))
                   for r in range(ROUNDS)]
        self.assertEqual([1] * ROUNDS, winners)
        self.assertEqual('attaching', self.volume(volume_id)['status'])
