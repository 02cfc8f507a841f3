"""JSON request bodies, read the same way by both APIs.

One parser, one nesting limit, one check for strings no database stores
and one Content-Type check. What is wrong is a :class:`Refused`; each API
words it in its own error format (``volapi.api.errors.refused_body``:
Cinder's messages, ``volapi.placement.errors.refused_body``: Placement's;
tests pin both).
"""
import json

from volapi import request_text

JSON_MEDIA_TYPE = 'application/json'

# No request of either API nests more than a few levels. A body nested
# hundreds of levels deep is still a small, valid JSON document, but
# validating it, or even printing it in an error message, recurses past
# Python's limit: a 500 instead of a 400.
MAX_DEPTH = 32


class Refused(ValueError):
    """A body either API refuses; ``str()`` says what is wrong. A
    ValueError, as pecan expects of a body it cannot read."""


class Malformed(Refused):
    """Not JSON: ``str()`` is the parser's complaint."""


class Empty(Malformed):
    """No body at all."""


class TooDeep(Refused):
    """Nested more than MAX_DEPTH levels."""


class Unstorable(Refused):
    """A string no database stores (a NUL, a lone surrogate)."""


class UnsupportedMediaType(Refused):
    """A Content-Type other than JSON: ``media_type`` is the one sent
    ('' for none)."""

    def __init__(self, media_type):
        super().__init__(media_type)
        self.media_type = media_type


def media_type(content_type):
    """The media type a Content-Type header names, without its parameters
    (as webob's ``Request.content_type``)."""
    return (content_type or '').split(';', 1)[0]


def require_json(content_type, lenient=False):
    """Raise UnsupportedMediaType unless the Content-Type header
    ``content_type`` names JSON. ``lenient`` is Cinder's rule: no media type
    at all also does, and spaces around it do not count."""
    sent = media_type(content_type)
    if lenient:
        sent = sent.strip()
        if not sent:
            return
    if sent != JSON_MEDIA_TYPE:
        raise UnsupportedMediaType(sent)


def parse(raw, constants=True):
    """The JSON value of ``raw`` (bytes or str), or raise Malformed.
    ``constants=False`` refuses NaN and Infinity, which Python's parser
    takes though they are not JSON."""
    try:
        if constants:
            return json.loads(raw)
        return json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise Malformed('nested too deeply') from None
    except ValueError as exc:
        # UnicodeDecodeError included: bytes that are no Unicode text.
        if not raw:
            raise Empty(str(exc)) from None
        raise Malformed(str(exc)) from None


def _refuse_constant(name):
    raise ValueError('%s is not a JSON number' % name)


def read(raw, constants=True):
    """The JSON value of the body ``raw``, checked for nesting and
    unstorable strings; or raise a Refused."""
    data = parse(raw, constants)
    if too_deep(data):
        raise TooDeep('nested more than %d levels deep' % MAX_DEPTH)
    if _may_hold_unstorable(raw):
        problem = request_text.unstorable_message(data)
        if problem:
            raise Unstorable(problem)
    return data


def _may_hold_unstorable(raw):
    # The parser refuses a raw NUL or control character in a string, so
    # plain ASCII text can only bring one, or a lone surrogate, through a
    # \u escape. Anything else (UTF-8, or UTF-16 detected by its NULs) is
    # decoded with 'surrogatepass' and is checked whole.
    if isinstance(raw, str):
        return not raw.isascii() or '\\u' in raw or '\x00' in raw
    return not raw.isascii() or b'\\u' in raw or b'\x00' in raw


def too_deep(value, limit=MAX_DEPTH):
    """True if ``value`` nests objects/arrays more than ``limit`` levels
    deep. Level by level, without recursion."""
    level = [value]
    for _ in range(limit + 1):
        children = []
        for item in level:
            if isinstance(item, dict):
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        if not children:
            return False
        level = children
    return True
