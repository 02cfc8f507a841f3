"""JSON request bodies as both APIs read them (volapi.json_intake), and
each API's wording of a refusal."""
import webob.exc

from tests import base
from volapi.api import errors
from volapi import json_intake
from volapi.placement import errors as placement_errors


class TestParse(base.TestCase):

    def test_json(self):
        self.assertEqual({'a': [1, 'b']},
                         json_intake.parse(b'{"a": [1, "b"]}'))
        self.assertEqual([1], json_intake.parse('[1]'))

    def test_constants_only_when_allowed(self):
        self.assertEqual([float('inf')], json_intake.parse(b'[Infinity]'))
        error = self.assertRaises(json_intake.Malformed, json_intake.parse,
                                  b'[NaN]', constants=False)
        self.assertEqual('NaN is not a JSON number', str(error))

    def test_empty(self):
        error = self.assertRaises(json_intake.Empty, json_intake.parse, b'')
        self.assertIn('Expecting value', str(error))
        self.assertNotIsInstance(
            self.assertRaises(json_intake.Malformed, json_intake.parse, b' '),
            json_intake.Empty)

    def test_not_unicode_is_malformed(self):
        self.assertRaises(json_intake.Malformed, json_intake.parse, b'\xff')

    def test_recursion_is_malformed(self):
        error = self.assertRaises(json_intake.Malformed, json_intake.parse,
                                  b'[' * 100000)
        self.assertEqual('nested too deeply', str(error))


class TestRead(base.TestCase):

    def test_depth(self):
        limit = json_intake.MAX_DEPTH
        self.assertEqual(1, len(json_intake.read(
            b'[' * limit + b'1' + b']' * limit)))
        error = self.assertRaises(
            json_intake.TooDeep, json_intake.read,
            b'[' * (limit + 1) + b'1' + b']' * (limit + 1))
        self.assertEqual('nested more than 32 levels deep', str(error))

    def test_unstorable_strings(self):
        for body in (b'{"a\\u0000": 1}', b'["\\ud800"]', '["\\ud800"]',
                     # Raw UTF-8 of a surrogate: the parser passes it on.
                     b'["\xed\xa0\x80"]',
                     '["\\u0000"]'.encode('utf-16')):
            error = self.assertRaises(json_intake.Unstorable,
                                      json_intake.read, body)
            self.assertRegex(str(error), 'NUL|lone surrogate')

    def test_storable_text_beyond_ascii(self):
        self.assertEqual(['\ud7ff\u00e9'],
                         json_intake.read('["\ud7ff\u00e9"]'.encode()))


class TestRequireJson(base.TestCase):

    def test_strict(self):
        json_intake.require_json('application/json; charset=UTF-8')
        for header in (None, '', 'text/plain', 'application/json ;x=1'):
            self.assertRaises(json_intake.UnsupportedMediaType,
                              json_intake.require_json, header)

    def test_lenient_takes_none_and_spaces(self):
        for header in (None, '', ' ; charset=UTF-8', 'application/json ;x=1'):
            json_intake.require_json(header, lenient=True)
        error = self.assertRaises(json_intake.UnsupportedMediaType,
                                  json_intake.require_json, 'text/plain',
                                  lenient=True)
        self.assertEqual('text/plain', error.media_type)


class TestEachApisWords(base.TestCase):
    """Both APIs refuse the same bodies, each in its own words."""

    def _refusal(self, body, header='application/json'):
        try:
            json_intake.require_json(header)
            json_intake.read(body, constants=False)
        except json_intake.Refused as exc:
            return exc
        self.fail('%r was not refused' % (body,))

    def test_volume_api(self):
        cases = [
            (b'{}', 'text/plain', 415, 'Unsupported Content-Type'),
            (b'', None, 400, 'The server could not comply with the request '
             'since it is either malformed or otherwise incorrect.'),
            (b'{', None, 400,
             'Malformed message body: cannot understand JSON'),
            (b'[' * 40 + b']' * 40, None, 400,
             'Malformed message body: nested more than 32 levels deep'),
            (b'["\\u0000"]', None, 400, "Invalid input in the request body: "
             "'\\x00' contains a NUL character.")]
        for body, header, status, message in cases:
            refusal = errors.refused_body(
                self._refusal(body, header or 'application/json'))
            self.assertEqual((status, message),
                             (refusal.status, refusal.message))

    def test_placement_api(self):
        cases = [
            (b'{}', 'text/plain', webob.exc.HTTPUnsupportedMediaType,
             'The media type text/plain is not supported, use '
             'application/json'),
            (b'{}', '', webob.exc.HTTPUnsupportedMediaType,
             'The media type None is not supported, use application/json'),
            (b'', None, webob.exc.HTTPBadRequest,
             'Malformed JSON: Expecting value: line 1 column 1 (char 0)'),
            (b'[NaN]', None, webob.exc.HTTPBadRequest,
             'Malformed JSON: NaN is not a JSON number'),
            (b'[' * 40 + b']' * 40, None, webob.exc.HTTPBadRequest,
             'JSON does not validate: nested more than 32 levels deep'),
            (b'["\\ud800"]', None, webob.exc.HTTPBadRequest,
             "JSON does not validate: '\\\\ud800' is not valid Unicode (a "
             "lone surrogate)")]
        for body, header, cls, message in cases:
            refusal = placement_errors.refused_body(
                self._refusal(body, 'application/json' if header is None
                              else header))
            self.assertIsInstance(refusal, cls)
            self.assertEqual(message, refusal.detail)
