"""Parsing the OpenStack-API-Version header of the volume API."""
import testtools

from volapi.api import microversion


def _parse(header=None):
    environ = {} if header is None else {
        'HTTP_OPENSTACK_API_VERSION': header}
    return microversion.parse(environ)


class ParseTest(testtools.TestCase):

    def test_default_and_latest(self):
        self.assertEqual((3, 0), _parse())
        self.assertEqual((3, 0), _parse(''))
        self.assertEqual(microversion.MAX_VERSION, _parse('volume latest'))

    def test_versions_in_range(self):
        self.assertEqual((3, 44), _parse('volume 3.44'))
        self.assertEqual((3, 0), _parse('compute 2.1'))
        self.assertEqual((3, 27), _parse('compute 2.1, volume 3.27'))

    def test_out_of_range(self):
        for header in ('volume 3.68', 'volume 2.0', 'volume 4.1'):
            error = self.assertRaises(microversion.UnsupportedVersion,
                                      _parse, header)
            self.assertEqual(406, error.status)

    def test_malformed(self):
        for header in ('volume 3', 'volume x.y', 'volume 3.2.1',
                       'volume'):
            error = self.assertRaises(microversion.MalformedVersion,
                                      _parse, header)
            self.assertEqual(400, error.status)

    def test_matches(self):
        version = _parse('volume 3.45')
        self.assertTrue(microversion.api_version_matches(version, '3.45'))
        self.assertTrue(microversion.api_version_matches(version, (3, 0),
                                                         (3, 45)))
        self.assertFalse(microversion.api_version_matches(version, '3.46'))
        self.assertFalse(microversion.api_version_matches(version, None,
                                                          '3.44'))

    def test_response_headers(self):
        self.assertEqual(
            [('OpenStack-API-Version', 'volume 3.7'),
             ('Vary', 'OpenStack-API-Version')],
            microversion.response_headers(_parse('volume 3.7')))
