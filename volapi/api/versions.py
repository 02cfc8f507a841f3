"""Cinder's versions document, as python-cinderclient reads it."""
import json

from volapi.api import microversion

UPDATED = '2019-09-30T00:00:00Z'


def base_url(environ):
    scheme = environ.get('wsgi.url_scheme', 'http')
    host = environ.get('HTTP_HOST')
    if not host:
        host = environ.get('SERVER_NAME', 'localhost')
        port = environ.get('SERVER_PORT')
        if port and port not in ('80', '443'):
            host = '%s:%s' % (host, port)
    return '%s://%s%s' % (scheme, host, environ.get('SCRIPT_NAME', ''))


def document(environ):
    """The JSON body (bytes) listing the v3 API."""
    return json.dumps({'versions': [{
        'id': 'v3.0',
        'status': 'CURRENT',
        'version': microversion.MAX_VERSION_STRING,
        'min_version': microversion.MIN_VERSION_STRING,
        'updated': UPDATED,
        'links': [
            {'rel': 'self', 'href': base_url(environ) + '/v3/'},
            {'rel': 'describedby', 'type': 'text/html',
             'href': 'https://docs.openstack.org/'},
        ],
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.volume+json;version=3',
        }],
    }]}).encode()
