"""Sending one request to a server exactly as scripted, and the
differences between two servers' responses that a client could see."""
import http.client
import json
import re
import typing
import urllib.parse

# Headers a client reads, compared by value; those whose value is
# per-response (a time, an id) are compared by presence only.
COMPARED_HEADERS = ('content-type', 'openstack-api-version', 'vary',
                    'location', 'allow', 'cache-control')
PRESENCE_HEADERS = ('last-modified', 'x-openstack-request-id',
                    'openstack-request-id')
_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-'
                   r'[0-9a-f]{12}')
_REQUEST_ID = re.compile(r'req-[0-9a-f-]{36}')
_TIMESTAMP = re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:'
                        r'\d\d)?')


class Response(typing.NamedTuple):
    status: int
    headers: dict   # lower-case name -> value
    body: bytes


# A header value computed when sending (Content-Length of the body).
AUTO = object()


class Request(typing.NamedTuple):
    """One scripted request. ``body``: bytes sent as they are, or any
    other value sent as JSON; ``headers``: exactly the headers sent
    besides Host (a value of None leaves one out, AUTO is the body's
    length)."""
    method: str
    path: str
    headers: dict
    body: typing.Any = None
    note: str = ''

    def describe(self):
        version = self.headers.get('OpenStack-API-Version') or 'no version'
        text = '%s %s (%s)' % (self.method, self.path, version.replace(
            'placement ', ''))
        extra = {k: v for k, v in self.headers.items()
                 if k not in ('OpenStack-API-Version', 'X-Auth-Token')
                 and v is not AUTO}
        if extra:
            text += ' %s' % extra
        return text + (' - %s' % self.note if self.note else '')


def send(base_url, request):
    """The response of the server at ``base_url`` to ``request``, sent
    byte for byte (no header added but Host)."""
    url = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.putrequest(request.method, request.path,
                        skip_accept_encoding=True)
        body = request.body
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
        for name, value in request.headers.items():
            if value is AUTO:
                value = str(len(body or b''))
            if value is not None:
                conn.putheader(name, value)
        conn.endheaders(body)
        response = conn.getresponse()
        return Response(response.status,
                        {k.lower(): v for k, v in response.getheaders()},
                        response.read())
    finally:
        conn.close()


class _Names:
    """Gives each uuid not in ``known`` a stable placeholder, in order of
    first appearance, so generated uuids compare equal."""

    def __init__(self, known):
        self.known = known
        self.names = {}

    def __call__(self, match):
        value = match.group(0)
        if value in self.known:
            return value
        return self.names.setdefault(value, '<uuid-%d>' % len(self.names))


# jsonschema's message goes on with a dump of the server's own schema
# ("Failed validating ... in schema ...: {...} On instance ...: ..."),
# where volapi's stricter bounds (see volapi.placement) show; what a client
# reads is the first sentence, which is compared.
_SCHEMA_DUMP = re.compile(r'  Failed validating .*', re.DOTALL)


def _normal_text(text, names):
    text = _SCHEMA_DUMP.sub('  <schema dump>', text)
    text = _REQUEST_ID.sub('req-<id>', text)
    text = _TIMESTAMP.sub('<time>', text)
    return _UUID.sub(names, text)


def _normal(value, names):
    """JSON with lists sorted (the API promises no order) and ids and
    times replaced by placeholders."""
    if isinstance(value, dict):
        return {_normal_text(k, names): _normal(v, names)
                for k, v in value.items()}
    if isinstance(value, list):
        items = [_normal(v, names) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, str):
        return _normal_text(value, names)
    return value


def normal_body(response, known):
    """The body, normalised: parsed JSON if it is JSON, else text."""
    names = _Names(known)
    text = response.body.decode('utf-8', 'replace')
    try:
        return _normal(json.loads(text), names)
    except ValueError:
        return _normal_text(text, names)


def differences(reference, candidate, known):
    """What differs between two responses: a list of
    (aspect, reference's, candidate's)."""
    found = []
    if reference.status != candidate.status:
        found.append(('status', reference.status, candidate.status))
    for name in COMPARED_HEADERS:
        mine, theirs = (r.headers.get(name) for r in (reference, candidate))
        if name == 'allow' and mine and theirs:
            mine, theirs = (', '.join(sorted(v.replace(' ', '').split(',')))
                            for v in (mine, theirs))
        if name == 'location':
            # Absolute (webob makes it so): the servers' ports differ.
            names = _Names(known)
            mine, theirs = (v and _UUID.sub(names, urllib.parse.urlsplit(
                v).path) for v in (mine, theirs))
        if mine != theirs:
            found.append(('header %s' % name, mine, theirs))
    for name in PRESENCE_HEADERS:
        mine, theirs = (name in r.headers for r in (reference, candidate))
        if mine != theirs:
            found.append(('header %s present' % name, mine, theirs))
    mine, theirs = (normal_body(r, known) for r in (reference, candidate))
    if mine != theirs:
        found.append(('body', mine, theirs))
    return found
