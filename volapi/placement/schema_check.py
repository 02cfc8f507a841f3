"""Request bodies checked against their JSON schema at the cost of a few
Python calls.

jsonschema spends far more CPU walking a schema than a small request body
is worth (about 60 us for a claim's body, half of what one of its SQL
statements costs; the compiled check takes under 10 us).
:func:`compile_schema` turns a schema into one function that only answers
"valid or not", with jsonschema's semantics (draft 2020-12, the default of
``jsonschema.validators.validator_for``) for the keywords placement's
schemas use. A body it accepts is valid; one it refuses goes to jsonschema,
which finds the error to report, so messages stay jsonschema's. A schema
using any other keyword is not compiled at all.
"""
import re

# Keywords that only describe; they never make an instance invalid.
_ANNOTATIONS = frozenset(('$schema', 'title', 'description'))


class _Unsupported(Exception):
    """The schema uses a keyword this module does not implement."""


def compile_schema(schema, format_checker):
    """A function ``check(instance) -> bool``, True only for instances
    valid against ``schema``; None if the schema uses a keyword not
    implemented here."""
    try:
        return _compile(schema, format_checker)
    except _Unsupported:
        return None


def _is_integer(value):
    # As jsonschema: 1.0 is an integer, True is not.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (
        isinstance(value, float) and value.is_integer())


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES = {
    'object': lambda value: isinstance(value, dict),
    'array': lambda value: isinstance(value, list),
    'string': lambda value: isinstance(value, str),
    'boolean': lambda value: isinstance(value, bool),
    'null': lambda value: value is None,
    'integer': _is_integer,
    'number': _is_number,
}


def _compile(schema, format_checker):
    if schema is True or schema == {}:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        raise _Unsupported(schema)
    keywords = set(schema) - _ANNOTATIONS
    checks = []
    for builder in _BUILDERS:
        check = builder(schema, keywords, format_checker)
        if check is not None:
            checks.append(check)
    if keywords:
        raise _Unsupported(sorted(keywords))
    if len(checks) == 1:
        return checks[0]

    def check_all(value):
        for check in checks:
            if not check(value):
                return False
        return True
    return check_all


# Each builder takes the keywords it implements out of ``keywords`` and
# returns a check, or None when the schema has none of them.

def _type(schema, keywords, format_checker):
    if 'type' not in keywords:
        return None
    keywords.discard('type')
    names = schema['type']
    names = [names] if isinstance(names, str) else list(names)
    try:
        tests = [_TYPES[name] for name in names]
    except KeyError:
        raise _Unsupported(names)
    if len(tests) == 1:
        return tests[0]
    return lambda value: any(test(value) for test in tests)


def _numbers(schema, keywords, format_checker):
    if not keywords & {'minimum', 'maximum'}:
        return None
    low, high = schema.get('minimum'), schema.get('maximum')
    keywords -= {'minimum', 'maximum'}

    def check(value):
        if not _is_number(value):
            return True
        return ((low is None or value >= low) and
                (high is None or value <= high))
    return check


def _strings(schema, keywords, format_checker):
    names = {'minLength', 'maxLength', 'pattern', 'format'}
    if not keywords & names:
        return None
    keywords -= names
    shortest = schema.get('minLength', 0)
    longest = schema.get('maxLength')
    pattern = re.compile(schema['pattern']) if 'pattern' in schema \
        else None
    form = schema.get('format')

    def check(value):
        if form is not None and not format_checker.conforms(value, form):
            # A format may name values of any type; jsonschema asks first.
            return False
        if not isinstance(value, str):
            return True
        return (len(value) >= shortest and
                (longest is None or len(value) <= longest) and
                (pattern is None or pattern.search(value) is not None))
    return check


def _objects(schema, keywords, format_checker):
    names = {'properties', 'patternProperties', 'additionalProperties',
             'required', 'minProperties', 'maxProperties'}
    if not keywords & names:
        return None
    keywords -= names
    properties = {name: _compile(sub, format_checker)
                  for name, sub in schema.get('properties', {}).items()}
    patterned = [(re.compile(pattern), _compile(sub, format_checker))
                 for pattern, sub in schema.get(
                     'patternProperties', {}).items()]
    # jsonschema tells additional properties by one search of the patterns
    # joined with '|'.
    any_pattern = re.compile('|'.join(schema['patternProperties'])) \
        if schema.get('patternProperties') else None
    additional = schema.get('additionalProperties', True)
    additional = _compile(additional, format_checker)
    required = tuple(schema.get('required', ()))
    fewest = schema.get('minProperties', 0)
    most = schema.get('maxProperties')

    def check(value):
        if not isinstance(value, dict):
            return True
        if len(value) < fewest or (most is not None and len(value) > most):
            return False
        for name in required:
            if name not in value:
                return False
        for name, item in value.items():
            matched = name in properties
            if matched and not properties[name](item):
                return False
            for pattern, sub in patterned:
                if pattern.search(name) is not None and not sub(item):
                    return False
            if not matched and (
                    any_pattern is None or
                    any_pattern.search(name) is None) and not additional(
                        item):
                return False
        return True
    return check


def _arrays(schema, keywords, format_checker):
    names = {'items', 'minItems', 'maxItems'}
    if not keywords & names:
        return None
    keywords -= names
    item_check = _compile(schema.get('items', True), format_checker)
    fewest = schema.get('minItems', 0)
    most = schema.get('maxItems')

    def check(value):
        if not isinstance(value, list):
            return True
        if len(value) < fewest or (most is not None and len(value) > most):
            return False
        return all(item_check(item) for item in value)
    return check


def _any_of(schema, keywords, format_checker):
    if 'anyOf' not in keywords:
        return None
    keywords.discard('anyOf')
    options = [_compile(sub, format_checker) for sub in schema['anyOf']]
    return lambda value: any(option(value) for option in options)


def _enum(schema, keywords, format_checker):
    # Only strings are compared here (jsonschema's equality tells 1 from
    # True and 1 from 1.0 apart): any other value is refused, so
    # jsonschema decides.
    if 'enum' not in keywords:
        return None
    keywords.discard('enum')
    members = frozenset(m for m in schema['enum'] if isinstance(m, str))
    return lambda value: isinstance(value, str) and value in members


_BUILDERS = (_type, _numbers, _strings, _objects, _arrays, _any_of, _enum)
