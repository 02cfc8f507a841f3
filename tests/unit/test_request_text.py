"""volapi.request_text: integers and byte counts given as text, never an
exception, however many digits."""
from tests import base
from volapi import request_text


class IntegerTest(base.TestCase):

    def test_integers_given_as_text(self):
        for text, number in (('12', 12), ('+007', 7), ('-0', 0),
                             ('-' + '0' * 5000 + '5', -5),
                             ('0' * 5000 + '5', 5), ('9' * 19, 10 ** 19 - 1)):
            self.assertEqual(number, request_text.integer(text), text[:8])

    def test_what_is_not_one(self):
        for text in ('9' * 20, '9' * 5000, '1x', '', ' 1', '1_0', '\u0661',
                     True, None, 1.5):
            self.assertIsNone(request_text.integer(text), repr(text)[:8])


class ByteCountTest(base.TestCase):

    def test_byte_counts(self):
        self.assertEqual(0, request_text.byte_count('0'))
        self.assertEqual(5, request_text.byte_count('0' * 5000 + '5'))
        self.assertEqual(request_text.OVERSIZED,
                         request_text.byte_count('9' * 5000))
        for text in ('+5', '-5', '1x', '\u00b2', ''):
            self.assertIsNone(request_text.byte_count(text), text)
