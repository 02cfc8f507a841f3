"""volapi.request_text: integers, byte counts and Python literals given as
text, never an exception, however many digits or levels."""
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


class PythonLiteralTest(base.TestCase):

    def test_literals(self):
        self.assertEqual({'k': 'v'}, request_text.python_literal("{'k': 'v'}"))
        self.assertEqual([1], request_text.python_literal('[1]'))

    def test_what_is_not_one(self):
        for text in ('{[]: 1}', '{1, []}', '-' * 100000 + '1', '1' * 5000,
                     '(' * 300 + ')' * 300, 'a\x00', 'x('):
            self.assertIsNone(request_text.python_literal(text), text[:8])
