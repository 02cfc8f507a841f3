"""Query-string parsers, JSON extraction and the error body formatter."""
import webob
import webob.exc

from tests import base
from volapi.placement import microversion
from volapi.placement import util


def _version(version):
    # As the application makes it: knowing the range, so matches() works.
    return microversion.extract_version(
        {'HTTP_OPENSTACK_API_VERSION': 'placement %s' % version})


def _request(query, version='1.39'):
    req = util.PlacementRequest.blank('/?' + query)
    req.environ[microversion.MICROVERSION_ENVIRON] = _version(version)
    return req


A = 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa'
B = 'bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb'


class TestResources(base.TestCase):

    def test_parse(self):
        self.assertEqual({'VCPU': 2, 'DISK_GB': 10},
                         util.normalize_resources_qs_param('VCPU:2,DISK_GB:10'))

    def test_bad(self):
        for value in ('', ' ', 'VCPU', 'VCPU:', 'VCPU:x', 'VCPU:0',
                      'VCPU:-2', 'VCPU:1:2'):
            self.assertRaises(webob.exc.HTTPBadRequest,
                              util.normalize_resources_qs_param, value)


def _traits(query, version='1.39'):
    required, forbidden = util.normalize_required_traits(
        _request(query, version))
    return {frozenset(group) for group in required}, forbidden


class TestTraits(base.TestCase):

    def test_versions(self):
        self.assertEqual(({frozenset('A'), frozenset('B')}, set()),
                         _traits('required=A,B', '1.18'))
        self.assertRaises(webob.exc.HTTPBadRequest,
                          util.normalize_required_traits,
                          _request('required=A,!B', '1.21'))
        self.assertEqual(({frozenset('A')}, {'B'}),
                         _traits('required=A,!B', '1.22'))
        self.assertEqual(({frozenset('AB'), frozenset('C')}, {'D'}),
                         _traits('required=in:A,B&required=C,!D'))
        # Before 1.39 only the last parameter counts.
        self.assertEqual(({frozenset('C')}, set()),
                         _traits('required=A&required=C', '1.38'))

    def test_bad(self):
        for query in ('required=', 'required=A,,B', 'required=in:A,!B',
                      'required=in:'):
            self.assertRaises(webob.exc.HTTPBadRequest,
                              util.normalize_required_traits,
                              _request(query))


class TestMemberOf(base.TestCase):

    def test_versions(self):
        self.assertEqual(([{A}], set()), util.normalize_member_of_qs_params(
            _request('member_of=' + A, '1.3')))
        self.assertEqual(([{A, B}], set()), util.normalize_member_of_qs_params(
            _request('member_of=in:%s,%s' % (A, B), '1.3')))
        self.assertRaises(webob.exc.HTTPBadRequest,
                          util.normalize_member_of_qs_params,
                          _request('member_of=%s&member_of=%s' % (A, B),
                                   '1.23'))
        self.assertEqual(([{A}, {B}], set()),
                         util.normalize_member_of_qs_params(_request(
                             'member_of=%s&member_of=%s' % (A, B), '1.24')))
        self.assertRaises(webob.exc.HTTPBadRequest,
                          util.normalize_member_of_qs_params,
                          _request('member_of=!' + A, '1.31'))
        self.assertEqual(([], {A, B}), util.normalize_member_of_qs_params(
            _request('member_of=!in:%s,%s' % (A, B), '1.32')))

    def test_bad(self):
        for query in ('member_of=%s,%s' % (A, B), 'member_of=x',
                      'member_of=in:%s,x' % A, 'member_of=in:!%s' % A,
                      'member_of='):
            self.assertRaises(webob.exc.HTTPBadRequest,
                              util.normalize_member_of_qs_params,
                              _request(query))


class TestExtractJson(base.TestCase):
    SCHEMA = {'type': 'object', 'properties': {'n': {'type': 'integer'},
                                               's': {'type': 'string'}},
              'additionalProperties': False}

    def test_valid(self):
        self.assertEqual({'n': 1}, util.extract_json(b'{"n": 1}',
                                                     self.SCHEMA))

    def test_invalid(self):
        for body in (b'', b'{', b'{"n": NaN}', b'{"n": Infinity}',
                     b'{"n": "1"}', b'{"x": 1}', b'{"s": "a\\u0000b"}',
                     b'{"s": "\\ud800"}', b'\xff', b'{"s": "\xed\xa0\x80"}'):
            self.assertRaises(webob.exc.HTTPBadRequest, util.extract_json,
                              body, self.SCHEMA)

    def test_uuid_format_takes_dashless(self):
        schema = {'type': 'string', 'format': 'uuid'}
        util.validate('a' * 32, schema, '%s')
        self.assertRaises(webob.exc.HTTPBadRequest, util.validate, 'a' * 31,
                          schema, '%s')


class TestErrorFormatter(base.TestCase):

    def test_code_from_1_23(self):
        environ = {util.ENV_REQUEST_ID: 'req-1', util.ENV_ERROR_CODE: 'c'}
        environ[microversion.MICROVERSION_ENVIRON] = _version('1.22')
        body = util.json_error_formatter('<b>x</b>', '409 Conflict',
                                         'Conflict', environ)
        self.assertEqual({'errors': [{'status': 409, 'title': 'Conflict',
                                      'detail': 'x', 'request_id': 'req-1'}]},
                         body)
        environ[microversion.MICROVERSION_ENVIRON] = _version('1.23')
        body = util.json_error_formatter('x', '409 Conflict', 'Conflict',
                                         environ)
        self.assertEqual('c', body['errors'][0]['code'])

    def test_refused_version_names_the_range(self):
        body = util.json_error_formatter('x', '406 Not Acceptable',
                                         'Not Acceptable', {})
        self.assertEqual('1.39', body['errors'][0]['max_version'])
        self.assertEqual('1.0', body['errors'][0]['min_version'])
