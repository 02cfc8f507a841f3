"""The WSGI layers in front of each API, the same for both; oslo.middleware
where it has the layer. Outermost first:

- oslo_middleware's RequestId: ``req-<uuid>`` in ``openstack.request_id``
  and the response header; a well-formed inbound ``X-OpenStack-Request-Id``
  is kept as the global request id (RequestContext.from_environ reads both);
- ``oslo_middleware.CORS``, only when ``[cors] allowed_origin`` is set;
- ``oslo_middleware.HTTPProxyToWSGI``, only when ``[oslo_middleware]
  enable_proxy_headers_parsing`` is set: behind a TLS proxy, links say
  ``https://``;
- ``/healthcheck`` answered by ``oslo_middleware.Healthcheck``;
- the body size limit (oslo.middleware's sizelimit cannot have one limit
  per API in one process, nor answer in each API's error format): a body
  larger than the API's limit is a 413 in that format, a Content-Length
  that is no number of bytes a 400; a body is read whole here, so one that
  ends before its Content-Length (400) or stalls past the server's timeout
  (408) is refused in that format too;
- volapi.middleware.replay (a request that met a database outage before it
  wrote runs again).

Each API passes its limit and ``fault(environ, start_response, status,
message)``, which answers in its error format.
"""
import io
import re

from oslo_context import context as oslo_context
from oslo_middleware import cors
from oslo_middleware import healthcheck
from oslo_middleware import http_proxy_to_wsgi
from oslo_middleware import request_id

from volapi import request_text
from volapi.middleware import replay

HEALTHCHECK_PATH = '/healthcheck'


_TIMED_OUT = 'Request timeout: the body did not arrive in time (%s).'


class BodySizeLimit:
    """413 for a body larger than ``limit`` bytes, announced (Content-Length)
    or found so when read (chunked: read here, at most ``limit`` + 1 bytes,
    and handed on with its length; framing the server could not decode, a
    ValueError, is a 400). A Content-Length that is not ASCII digits is a
    400 (or the application's, ``own_length_check``). A body of a valid
    Content-Length is read here too, whole: one that ends early (the
    client closed) is a 400 and one that stalls (the server's read timed
    out) a 408, where a parser reading it later failed with a 500."""

    def __init__(self, application, limit, fault, own_length_check=False):
        self.application = application
        self.limit = limit
        self.fault = fault
        # The application refuses a Content-Length that is no number of
        # bytes itself, in its own words (Placement's, after its
        # microversion is known); the body is then not read.
        self.own_length_check = own_length_check

    def __call__(self, environ, start_response):
        length = environ.get('CONTENT_LENGTH')
        if length:
            size = request_text.byte_count(length)
            if size is None and self.own_length_check:
                return self.application(environ, start_response)
            if size is None:
                # webob would read ' 1', '+1' or '\u0661' as 1 (int()).
                return self.fault(
                    environ, start_response, 400,
                    'content-length header must be an integer (ASCII '
                    'digits), not %s' % request_text.excerpt(length))
            if size > self.limit:
                return self._too_large(environ, start_response)
            if size:
                refused = self._read(environ, size)
                if refused is not None:
                    status, message = refused
                    return self.fault(environ, start_response, status,
                                      message)
        elif environ.get('HTTP_TRANSFER_ENCODING', '').lower() == 'chunked':
            try:
                body = environ['wsgi.input'].read(self.limit + 1)
            except ValueError as e:
                # Chunked framing the server could not decode.
                return self.fault(environ, start_response, 400, str(e))
            except ConnectionError:
                return self.fault(environ, start_response, 400,
                                  'The request body ended before its last '
                                  'chunk.')
            except TimeoutError:
                return self.fault(environ, start_response, 408,
                                  _TIMED_OUT % 'chunked')
            if len(body) > self.limit:
                return self._too_large(environ, start_response)
            environ['wsgi.input'] = io.BytesIO(body)
            environ['CONTENT_LENGTH'] = str(len(body))
            del environ['HTTP_TRANSFER_ENCODING']
        return self.application(environ, start_response)

    @staticmethod
    def _read(environ, size):
        """Read the body of ``size`` bytes into ``environ``; (status,
        message) if it cannot be had whole."""
        try:
            body = environ['wsgi.input'].read(size)
        except TimeoutError:
            return 408, _TIMED_OUT % ('Content-Length: %d' % size)
        except ConnectionError:
            body = b''
        if len(body) < size:
            return 400, ('The request body ended after %d of the %d bytes '
                         'its Content-Length announced.' % (len(body), size))
        environ['wsgi.input'] = io.BytesIO(body)
        return None

    def _too_large(self, environ, start_response):
        return self.fault(environ, start_response, 413,
                          'Request is too large: the body is larger than %d '
                          'bytes.' % self.limit)


class Healthcheck:
    """``GET /healthcheck`` (under the API's mount point) answered by
    oslo.middleware's Healthcheck ([healthcheck] options); every other
    path goes on to ``application``."""

    def __init__(self, application, conf):
        self.application = application
        self.check = healthcheck.Healthcheck(None, conf)

    def __call__(self, environ, start_response):
        if environ.get('PATH_INFO') == HEALTHCHECK_PATH:
            return self.check(environ, start_response)
        return self.application(environ, start_response)


class RequestId(request_id.RequestId):
    """oslo.middleware's RequestId, also answering in the headers an API
    has always used (``compat_headers``). Its ``__call__`` builds a webob
    request and response around every request (some 15% of an os-reserve's
    CPU); this one does the same in plain WSGI, with oslo.middleware's
    names, id format and header (tests/unit/test_middleware_stack.py
    compares the two)."""

    def __init__(self, application, conf, compat_headers=()):
        super().__init__(application, conf)
        self.compat_headers = list(compat_headers)
        self._headers = [request_id.HTTP_RESP_HEADER_REQUEST_ID] + \
            self.compat_headers

    def __call__(self, environ, start_response):
        inbound = environ.get('HTTP_X_OPENSTACK_REQUEST_ID', '')
        if inbound and _GLOBAL_ID.match(inbound):
            environ[request_id.GLOBAL_REQ_ID] = inbound
        own = oslo_context.generate_request_id()
        environ[request_id.ENV_REQUEST_ID] = own

        def start(status, headers, exc_info=None):
            present = {name.lower() for name, _ in headers}
            headers.extend((name, own) for name in self._headers
                           if name.lower() not in present)
            return start_response(status, headers, exc_info)

        return self.application(environ, start)


_GLOBAL_ID = re.compile(request_id.ID_FORMAT)


def wrap(application, conf, body_limit, fault, compat_request_id_headers=(),
         own_length_check=False):
    """``application`` behind the shared layers (see the module text);
    ``own_length_check``: see BodySizeLimit."""
    application = replay.Replay(application)
    application = BodySizeLimit(application, body_limit, fault,
                                own_length_check)
    application = Healthcheck(application, conf)
    if conf.oslo_middleware.enable_proxy_headers_parsing:
        application = http_proxy_to_wsgi.HTTPProxyToWSGI(application, conf)
    if conf.cors.allowed_origin:
        application = cors.CORS(application, conf)
    return RequestId(application, conf, compat_request_id_headers)
