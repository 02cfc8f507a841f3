"""Microversion parsing and per-version handler dispatch."""
import webob
import webob.exc

from tests import base
from volapi.placement import microversion


def _version(version):
    # As the application makes it: knowing the range, so matches() works.
    return microversion.extract_version(
        {'HTTP_OPENSTACK_API_VERSION': 'placement %s' % version})


def _request(version):
    req = webob.Request.blank('/')
    req.environ[microversion.MICROVERSION_ENVIRON] = _version(version)
    return req


@microversion.version_handler('1.2', '1.6')
def _handler(req):
    return 'old'


@microversion.version_handler('1.7')  # noqa: F811
def _handler(req):  # noqa: F811
    return 'new'


@microversion.version_handler('1.5', status_code=405)
def _method(req):
    return 'ok'


class TestVersions(base.TestCase):

    def test_list_is_ordered_and_complete(self):
        self.assertEqual('1.0', microversion.min_version_string())
        self.assertEqual('1.39', microversion.max_version_string())
        self.assertEqual(['1.%d' % i for i in range(40)],
                         microversion.VERSIONS)

    def test_extract(self):
        def extract(header):
            environ = {}
            if header is not None:
                environ['HTTP_OPENSTACK_API_VERSION'] = header
            return microversion.extract_version(environ)

        self.assertEqual((1, 0), extract(None))
        self.assertEqual((1, 39), extract('placement latest'))
        self.assertEqual((1, 17), extract('placement 1.17'))
        self.assertEqual((1, 0), extract('compute 2.1'))
        self.assertRaises(ValueError, extract, 'placement 1.40')
        self.assertRaises(TypeError, extract, 'placement 1.x')

    def test_version_handler_picks_by_range(self):
        self.assertEqual('old', _handler(_request('1.2')))
        self.assertEqual('old', _handler(_request('1.6')))
        self.assertEqual('new', _handler(_request('1.7')))
        self.assertEqual('new', _handler(_request('1.39')))
        self.assertRaises(webob.exc.HTTPNotFound, _handler, _request('1.1'))

    def test_version_handler_status_code(self):
        self.assertRaises(webob.exc.HTTPMethodNotAllowed, _method,
                          _request('1.4'))
        self.assertEqual('ok', _method(_request('1.5')))
