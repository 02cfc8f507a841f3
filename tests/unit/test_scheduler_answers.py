"""The scheduler's cache of answers for volume creates: bounded, and a
pool dropped only from the answer it was tried from."""
import testtools

from volapi.volume import scheduler


class AnswersTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.answers = scheduler._Answers(2)

    def test_the_oldest_read_goes_first(self):
        self.answers.put('a', ['p1'])
        self.answers.put('b', ['p2'])
        self.answers.put('a', ['p3'])  # read again: now the newest
        self.answers.put('c', ['p4'])
        self.assertIsNone(self.answers.get('b', 60))
        self.assertEqual(['p3'], self.answers.get('a', 60).hosts)
        self.assertEqual(['p4'], self.answers.get('c', 60).hosts)

    def test_an_empty_answer_drops_the_kept_one(self):
        self.answers.put('a', ['p1'])
        self.answers.put('a', [])
        self.assertIsNone(self.answers.get('a', 60))

    def test_an_answer_ages_out(self):
        self.answers.put('a', ['p1'])
        self.assertIsNone(self.answers.get('a', 0))

    def test_a_host_is_dropped_from_the_answer_it_came_from(self):
        self.answers.put('a', ['p1', 'p2'])
        tried = self.answers.get('a', 60)
        left = self.answers.remove_host('a', tried, 'p1')
        self.assertEqual(['p2'], left.hosts)
        self.assertIs(left, self.answers.get('a', 60))
        self.assertIsNone(self.answers.remove_host('a', left, 'p2'))
        self.assertIsNone(self.answers.get('a', 60))
        # Nothing to drop from any more.
        self.assertIsNone(self.answers.remove_host('a', None, 'p2'))

    def test_a_newer_read_keeps_its_hosts(self):
        self.answers.put('a', ['p1', 'p2'])
        tried = self.answers.get('a', 60)
        self.answers.put('a', ['p1'])  # read since: p1 has room again
        self.assertIsNone(self.answers.remove_host('a', tried, 'p1'))
        self.assertEqual(['p1'], self.answers.get('a', 60).hosts)
