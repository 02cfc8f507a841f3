"""Every adaptation of pecan's internals in one place, for the speed a
request needs (bench/api_profile.py). pecan is pinned below its next major
version (setup.cfg) and tests/unit/test_pecan_compat.py fails when an
internal relied on here changes.

- pecan inspects each handler's signature on every request
  (``pecan.core.getargspec``, and ``pecan.routing.getargspec`` per
  ``_route`` hop), rebuilding a namedtuple class each time: a fifth of a
  request's CPU. :func:`remember_signatures` keeps the answer per function.
- :class:`Pecan` skips pecan's Accept negotiation (handlers build their JSON
  responses themselves) and its private ``_handle_empty_response_body``,
  which turns every empty 200 into a 204 (Cinder answers some requests 200
  with no body).
- :class:`FastRequest`: ``pecan.Request`` wraps EVERY attribute access to
  answer a UnicodeDecodeError with a 400; only webob's properties that
  decode what the client sent can raise one, and they alone keep that
  answer.
"""
import pecan
import pecan.core
import pecan.routing
import webob

# The modules whose module-level ``getargspec`` pecan calls per request.
SIGNATURE_READERS = (pecan.core, pecan.routing)


def _remembering(getargspec):
    specs = {}

    def cached(function):
        key = (getattr(function, '__func__', function),
               hasattr(function, '__self__'))
        spec = specs.get(key)
        if spec is None:
            spec = specs[key] = getargspec(function)
        return spec

    cached.remembering = True
    return cached


def remember_signatures():
    """Make pecan remember handler signatures (process-wide, once)."""
    for module in SIGNATURE_READERS:
        if not getattr(module.getargspec, 'remembering', False):
            module.getargspec = _remembering(module.getargspec)


class Pecan(pecan.Pecan):

    def find_controller(self, state):
        # Handlers build their JSON responses themselves (rest.respond), so
        # pecan's Accept negotiation, which refuses application/json for
        # handlers exposed without templates, has nothing to decide.
        state.request.pecan['content_type'] = 'text/html'
        return super().find_controller(state)

    def _handle_empty_response_body(self, state):
        # Handlers set their status deliberately; see the module text.
        pass


def _answering_400_if_undecodable(prop, what):
    """webob's property ``prop``, answering what the client sent that
    cannot be decoded with a 400, as pecan.Request does, naming ``what``
    was not UTF-8 (pecan's 400 says only that the request is malformed)."""
    def fget(request):
        try:
            return prop.fget(request)
        except UnicodeDecodeError:
            pecan.abort(400, '%s is not valid UTF-8.' % what)
    return property(fget, prop.fset, prop.fdel, prop.__doc__)


class FastRequest(pecan.Request):
    __getattribute__ = object.__getattribute__
    path_info = _answering_400_if_undecodable(webob.Request.path_info,
                                              'The URL path')
    script_name = _answering_400_if_undecodable(webob.Request.script_name,
                                                'The URL path')
    GET = _answering_400_if_undecodable(webob.Request.GET,
                                        'The query string')
    POST = _answering_400_if_undecodable(webob.Request.POST, 'The body')
    text = _answering_400_if_undecodable(webob.Request.text, 'The body')
