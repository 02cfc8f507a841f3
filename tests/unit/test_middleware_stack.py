"""volapi.middleware.stack.RequestId answers as oslo.middleware's own
RequestId does (it only avoids webob per request)."""
import webob
from oslo_middleware import request_id

from tests import base
from volapi.middleware import stack

GLOBAL_ID = 'req-0123abcd-0123-4567-89ab-0123456789ab'


def _seen_by(middleware_class, headers, **kwargs):
    seen = {}

    def application(environ, start_response):
        seen.update(environ)
        start_response('200 OK', [('Content-Type', 'text/plain')])
        return [b'ok']

    middleware = middleware_class(application, {}, **kwargs)
    response = webob.Request.blank('/', headers=headers).get_response(
        middleware)
    return seen, response


class RequestIdTest(base.TestCase):

    def compare(self, headers):
        ours, our_response = _seen_by(stack.RequestId, headers)
        theirs, their_response = _seen_by(request_id.RequestId, headers)
        for key in (request_id.ENV_REQUEST_ID, request_id.GLOBAL_REQ_ID):
            self.assertEqual(key in theirs, key in ours, key)
        self.assertEqual(theirs.get(request_id.GLOBAL_REQ_ID),
                         ours.get(request_id.GLOBAL_REQ_ID))
        for environ, response in ((ours, our_response),
                                  (theirs, their_response)):
            self.assertEqual(
                environ[request_id.ENV_REQUEST_ID],
                response.headers[request_id.HTTP_RESP_HEADER_REQUEST_ID])
        self.assertRegex(ours[request_id.ENV_REQUEST_ID],
                         request_id.ID_FORMAT)

    def test_same_as_oslo_middleware(self):
        self.compare({})
        self.compare({request_id.INBOUND_HEADER: GLOBAL_ID})
        self.compare({request_id.INBOUND_HEADER: 'req-not-an-id'})
        self.compare({request_id.INBOUND_HEADER: GLOBAL_ID + '\n'})

    def test_compat_headers(self):
        _, response = _seen_by(stack.RequestId, {},
                               compat_headers=['openstack-request-id'])
        self.assertEqual(response.headers['openstack-request-id'],
                         response.headers['x-openstack-request-id'])
