"""The volume API's own WSGI layers in front of the pecan application (the
ones both APIs share are in volapi.middleware.stack). Plain WSGI (no webob)
so that each costs a few microseconds per request."""
from volapi.api import errors
from volapi.api import microversion
from volapi.api import versions


class Faults:
    """An exception no inner layer turned into a fault becomes one here
    (500, or 503 when a dependency is down)."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            return self.application(environ, start_response)
        except Exception as e:
            status, message, headers = errors.to_fault(e)
            return errors.wsgi_fault(start_response, status, message,
                                     list(headers.items()))


def fault(environ, start_response, status, message):
    """A Cinder fault answering a request before the application."""
    return errors.wsgi_fault(start_response, status, message)


class VersionDocuments:
    """``GET /`` (300) and ``GET /v3/`` (200) answer the versions document
    without authentication; everything else goes on to ``application``."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        if path in ('', '/'):
            status = '300 Multiple Choices'
        elif path in ('/v3', '/v3/'):
            status = '200 OK'
        else:
            return self.application(environ, start_response)
        if environ['REQUEST_METHOD'] not in ('GET', 'HEAD'):
            return errors.wsgi_fault(start_response, 405,
                                     'The method is not allowed for this '
                                     'resource.')
        body = versions.document(environ)
        start_response(status, [('Content-Type', 'application/json'),
                                ('Content-Length', str(len(body)))])
        return [body]


class RefuseNul:
    """NUL characters in the path or query are refused with a 400: no
    resource name contains one, and PostgreSQL cannot even compare them."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if '\x00' in environ.get('PATH_INFO', '') or \
                '%00' in environ.get('QUERY_STRING', ''):
            return errors.wsgi_fault(start_response, 400,
                                     'NUL characters are not allowed in '
                                     'URLs.')
        return self.application(environ, start_response)


class Microversion:
    """Reads ``OpenStack-API-Version`` into ``environ[ENVIRON_KEY]`` and
    echoes the version (and ``Vary``) on the response; a malformed
    version is a 400, one out of range a 406, with Cinder's messages."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            version = microversion.parse(environ)
        except microversion.VersionError as e:
            return errors.wsgi_fault(start_response, e.status, str(e))
        environ[microversion.ENVIRON_KEY] = version
        version_headers = microversion.response_headers(version)

        def start(status, headers, exc_info=None):
            headers.extend(version_headers)
            return start_response(status, headers, exc_info)

        return self.application(environ, start)
