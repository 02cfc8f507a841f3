"""Text and numbers from requests, checked the same way by both APIs.

A request's JSON may carry strings no database stores (a NUL, a lone
surrogate such as ``"\\ud800"``, which is valid JSON but not Unicode), and
numbers written as strings. Each API refuses them with a 400 in its own
format; what is wrong, and how a value is quoted back, is decided here.
"""
import ast
import re

from oslo_utils import timeutils

EXCERPT_LENGTH = 40
# Integers given as strings: ASCII digits only (str.isdigit() also takes
# '²', which int() refuses; int() takes '١', ' 1' and '1_0').
_INTEGER = re.compile(r'[-+]?[0-9]+', re.ASCII)
# More digits than any 64-bit number: never converted (int() of thousands
# of digits is refused, or slow).
MAX_DIGITS = 19
# A byte count of more digits than that (byte_count).
OVERSIZED = 10 ** MAX_DIGITS


def excerpt(value, length=EXCERPT_LENGTH):
    """A short quotation of ``value`` for an error message: never more
    than about ``length`` characters, however big the value, and always
    printable (a huge integer, a lone surrogate...)."""
    if isinstance(value, int) and not isinstance(value, bool) and \
            abs(value) >= 10 ** length:
        return 'an integer of about %d digits' % _digits(value)
    if isinstance(value, (dict, list)):
        text = _json_excerpt(value, length)
    else:
        text = str(value) if isinstance(value, str) else repr(value)
        if len(text) > length:
            text = text[:length] + '...(%d characters)' % len(text)
    return text.encode('utf-8', 'backslashreplace').decode('utf-8')


def _digits(number):
    # len(str(n)) is refused past sys.get_int_max_str_digits().
    return int(abs(number).bit_length() * 0.30103) + 1


def _json_excerpt(value, length):
    kind = 'object' if isinstance(value, dict) else 'array'
    parts = []
    size = 0
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        part = (excerpt(key, length) + ': ' if kind == 'object' else '') + \
            excerpt(item, length)
        size += len(part)
        if size > length:
            return '%s of %d items: %s...' % (kind, len(value),
                                              ', '.join(parts))
        parts.append(part)
    return ('{%s}' if kind == 'object' else '[%s]') % ', '.join(parts)


def text_problem(value):
    """Why string ``value`` cannot be stored, or None."""
    if '\x00' in value:
        return 'contains a NUL character'
    try:
        value.encode('utf-8')
    except UnicodeEncodeError:
        return 'is not valid Unicode (a lone surrogate)'
    return None


def unstorable(data):
    """The first string (key or value) anywhere in ``data`` that cannot
    be stored, with its problem: ``(string, problem)``, or None. Level by
    level, without recursion (the depth is checked elsewhere)."""
    level = [data]
    while level:
        children = []
        for item in level:
            if isinstance(item, str):
                problem = text_problem(item)
                if problem:
                    return item, problem
            elif isinstance(item, dict):
                children.extend(item.keys())
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        level = children
    return None


def unstorable_message(data):
    """A message naming the first unstorable string in ``data``, or
    None."""
    found = unstorable(data)
    if found is None:
        return None
    text, problem = found
    return '%r %s' % (excerpt(text), problem)


def is_integer_text(value):
    """True if ``value`` is a string writing an integer in ASCII digits,
    of any length."""
    return isinstance(value, str) and bool(_INTEGER.fullmatch(value))


def byte_count(text):
    """A Content-Length's value as a number of bytes: ``text`` of ASCII
    digits only, else None; more digits than MAX_DIGITS give
    OVERSIZED, more than any body can be (never converted: see
    MAX_DIGITS)."""
    if not (text.isascii() and text.isdigit()):
        return None
    count = integer(text)
    return OVERSIZED if count is None else count


def integer(value):
    """``value`` as an int if it is one, or a string of ASCII digits (an
    optional sign) within 64 bits' worth of digits; None otherwise (never
    an exception)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not is_integer_text(value):
        return None
    # Converted without its leading zeros: int() counts them against its
    # limit of digits too.
    digits = value.lstrip('+-').lstrip('0') or '0'
    if len(digits) > MAX_DIGITS:
        return None
    return -int(digits) if value.startswith('-') else int(digits)


def utc_time(text):
    """The ISO 8601 time ``text`` as a naive UTC datetime (how every
    backend stores times); ValueError if it writes none, or one that
    leaves datetime's years 1-9999 once moved to UTC (``9999-12-31T23:00
    -01:00``: normalize_time raises OverflowError)."""
    try:
        return timeutils.normalize_time(timeutils.parse_isotime(text))
    except OverflowError:
        raise ValueError('%s is out of range in UTC' % excerpt(text)) \
            from None


def python_literal(text):
    """The value the Python literal ``text`` writes (Cinder's metadata and
    extra_specs list filters are such text: ``{'k': 'v'}``), or None if it
    writes none. Never an exception: ast.literal_eval also raises
    TypeError (``{[]: 1}``), and MemoryError or RecursionError for text
    of thousands of nested operators."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError,
            RecursionError):
        return None


# The longest error message either API sends: a message quoting what was
# sent is cut here, so that a huge body never gets a huge answer.
MAX_MESSAGE = 1024


def bounded(message, length=MAX_MESSAGE):
    """``message``, cut to about ``length`` characters."""
    message = str(message)
    if len(message) <= length:
        return message
    return message[:length] + '... (%d characters cut)' % (
        len(message) - length)
