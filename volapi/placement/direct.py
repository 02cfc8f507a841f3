"""Direct access to the placement API: in process, no server, no socket.

For command-line tools and tests that want Placement's semantics (schemas,
microversions, compare-and-swap writes) on a database without running the
service::

    with PlacementDirect(conf, latest_microversion=True) as client:
        resp = client.get('/allocations/%s' % consumer)
        client.put('/allocations/%s' % consumer, json=body,
                   microversion='1.28')

``client`` speaks like a keystoneauth1 Adapter (``raise_exc=False``) or a
requests Session: ``get/put/post/delete(url, json=None, microversion=None,
headers=None)`` return a response with ``status_code``, ``headers``,
``content``, ``text``, ``json()`` and ``ok``. Each call is a webob Request
handed to the WSGI application (``Request.get_response``). Authentication
is noauth2 as admin, as in Placement's own PlacementDirect.
"""
import json as jsonlib
import urllib.parse

import sqlalchemy
import webob

from db import session
from volapi.placement import microversion as microversion_mod

ADMIN_TOKEN = 'admin'


class DirectResponse:
    """The parts of a requests.Response callers use."""

    def __init__(self, response):
        self.status_code = response.status_code
        self.headers = response.headers
        self.content = response.body
        self.reason = response.status.split(' ', 1)[-1]

    @property
    def ok(self):
        return self.status_code < 400

    @property
    def text(self):
        return self.content.decode('utf-8')

    def json(self):
        return jsonlib.loads(self.content)

    def __repr__(self):
        return '<DirectResponse [%d]>' % self.status_code


class DirectClient:
    """Requests to the placement application, called in process."""

    def __init__(self, application, default_microversion=None,
                 token=ADMIN_TOKEN):
        self.application = application
        self.default_microversion = default_microversion
        self.token = token

    def request(self, url, method, json=None, microversion=None,
                headers=None, data=None, **ignored):
        # Absolute URLs are accepted; only the path and query matter.
        parts = urllib.parse.urlsplit(url)
        path = parts.path or '/'
        if parts.query:
            path = '%s?%s' % (path, parts.query)
        request = webob.Request.blank(path, method=method.upper())
        request.headers['Accept'] = 'application/json'
        if self.token:
            request.headers['X-Auth-Token'] = self.token
        version = microversion or self.default_microversion
        if version:
            request.headers['OpenStack-API-Version'] = '%s %s' % (
                microversion_mod.SERVICE_TYPE, version)
        if json is not None:
            request.body = jsonlib.dumps(json).encode('utf-8')
            request.content_type = 'application/json'
        elif data is not None:
            request.body = data if isinstance(data, bytes) else \
                data.encode('utf-8')
        for name, value in (headers or {}).items():
            request.headers[name] = value
        return DirectResponse(request.get_response(self.application))

    def get(self, url, **kwargs):
        return self.request(url, 'GET', **kwargs)

    def put(self, url, **kwargs):
        return self.request(url, 'PUT', **kwargs)

    def post(self, url, **kwargs):
        return self.request(url, 'POST', **kwargs)

    def delete(self, url, **kwargs):
        return self.request(url, 'DELETE', **kwargs)


class PlacementDirect:
    """Context manager giving a DirectClient on the placement application
    built from ``conf`` (an oslo.config ConfigOpts the caller has filled
    in; its ``[database] connection`` is used unless the process already
    uses that database). Requests default to the newest microversion if
    ``latest_microversion``, else to 1.0, as in Placement."""

    def __init__(self, conf, latest_microversion=False):
        self.conf = conf
        self.default_microversion = 'latest' if latest_microversion else None

    def __enter__(self):
        _use_database(self.conf)
        self._auth_strategy = self.conf.placement.auth_strategy
        self.conf.set_override('auth_strategy', 'noauth2', group='placement')
        from volapi.placement import wsgi
        try:
            application = wsgi.setup_app(self.conf)
        except Exception:
            self._restore_auth_strategy()
            raise
        return DirectClient(application, self.default_microversion)

    def __exit__(self, *exc_info):
        self._restore_auth_strategy()
        return False

    def _restore_auth_strategy(self):
        self.conf.clear_override('auth_strategy', group='placement')
        if self.conf.placement.auth_strategy != self._auth_strategy:
            # The caller had overridden it too.
            self.conf.set_override('auth_strategy', self._auth_strategy,
                                   group='placement')


def _use_database(conf):
    """Point the process at ``conf``'s database unless it already is."""
    url = conf.database.connection
    if not url:
        return
    try:
        current = session.get_engine().url
    except RuntimeError:
        current = None
    if current != sqlalchemy.engine.make_url(url):
        session.configure_from_conf(conf)
