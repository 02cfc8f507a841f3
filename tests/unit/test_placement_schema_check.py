"""The compiled schema checks agree with jsonschema.

Every schema of volapi.placement.schemas is compiled, and thousands of
instances made from it (valid ones and near misses: wrong types, bounds
off by one, missing, extra and badly named keys) must get the same verdict
from the compiled check as from jsonschema.
"""
import importlib
import pkgutil
import random
import re
import uuid

import jsonschema
import webob.exc

from tests import base
from volapi.placement import schema_check
from volapi.placement import schemas
from volapi.placement.schemas import allocation
from volapi.placement import util

CANDIDATE_STRINGS = [
    '', 'a', 'DISK_GB', 'VCPU', 'CUSTOM_FOO', 'custom_foo', 'CUSTOM_',
    'x' * 36, 'x' * 200, 'x' * 201, 'x' * 255, 'x' * 256, str(uuid.UUID(int=7)),
    uuid.UUID(int=7).hex, str(uuid.UUID(int=7)).upper(), '{%s}' % uuid.UUID(
        int=7), 'not-a-uuid', 'all', 'unknown', 'in:a,b', 'group_1', '1.5',
    'none', 'isolate',
]
CANDIDATE_NUMBERS = [0, 1, -1, 2, 1.0, 1.5, -2147483648, -2147483649,
                     2147483647, 2147483648, 3.40282e+38, 1e39, True, False]
# How often a node of an instance is made anything at all.
ERROR_RATES = (0, 0.02, 0.1, 0.3)


def all_schemas():
    """(name, schema) of every module-level schema of the package."""
    for info in pkgutil.iter_modules(schemas.__path__):
        module = importlib.import_module('%s.%s' % (schemas.__name__,
                                                    info.name))
        for name, value in vars(module).items():
            if isinstance(value, dict) and not name.startswith('_') and (
                    'type' in value or 'anyOf' in value):
                yield '%s.%s' % (info.name, name), value


_references = {}


def reference(schema):
    """jsonschema's validator of ``schema``, as util uses it."""
    known = _references.get(id(schema))
    if known is None or known[0] is not schema:
        known = _references[id(schema)] = (
            schema, jsonschema.validators.validator_for(schema)(
                schema, format_checker=util.FORMAT_CHECKER))
    return known[1]


class Maker:
    """Random instances of a schema: each node is made valid, except that
    with probability ``error_rate`` it is anything at all (a wrong type, a
    bound off by one, a key missing or extra or badly named)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.error_rate = 0
        self.fitting = {}  # id(schema) -> its valid candidates

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, schema, candidates):
        """A candidate, valid for ``schema`` unless this node errs."""
        if not self.chance(self.error_rate):
            if id(schema) not in self.fitting:
                validator = reference(schema)
                self.fitting[id(schema)] = [
                    c for c in candidates if validator.is_valid(c)]
            candidates = self.fitting[id(schema)] or candidates
        return self.rng.choice(candidates)

    def make(self, schema, error_rate=None, depth=0):
        if error_rate is not None:
            self.error_rate = error_rate
        if depth > 6 or not isinstance(schema, dict):
            return self.anything()
        if 'anyOf' in schema:
            return self.make(self.rng.choice(schema['anyOf']), depth=depth + 1)
        if self.chance(self.error_rate / 4):
            return self.anything()
        kinds = schema.get('type', 'string')
        kind = self.rng.choice([kinds] if isinstance(kinds, str) else kinds)
        return getattr(self, 'make_' + kind)(schema, depth)

    def anything(self):
        return self.rng.choice([None, {}, [], 'x', 1, 1.0, True] +
                               CANDIDATE_STRINGS[:4])

    def make_null(self, schema, depth):
        return None

    def make_boolean(self, schema, depth):
        return self.chance(0.5)

    def make_integer(self, schema, depth):
        near = [schema.get(k) for k in ('minimum', 'maximum')
                if k in schema]
        near = [n + d for n in near for d in (-1, 0, 1)]
        return self.pick(schema, CANDIDATE_NUMBERS + near)

    make_number = make_integer

    def make_string(self, schema, depth):
        lengths = [schema.get(k) for k in ('minLength', 'maxLength')
                   if k in schema]
        near = ['Y' * max(0, n + d) for n in lengths for d in (-1, 0, 1)]
        return self.pick(schema, CANDIDATE_STRINGS + near)

    def make_array(self, schema, depth):
        fewest = schema.get('minItems', 0)
        if self.chance(self.error_rate):
            fewest = 0
        return [self.make(schema.get('items', {}), depth=depth + 1)
                for _ in range(self.rng.randint(fewest, fewest + 2))]

    def make_object(self, schema, depth):
        result = {}
        required = schema.get('required', [])
        for name, sub in schema.get('properties', {}).items():
            keep = 0.5
            if name in required:
                keep = 1 - self.error_rate
            if self.chance(keep):
                result[name] = self.make(sub, depth=depth + 1)
        patterns = schema.get('patternProperties', {})
        for pattern, sub in patterns.items():
            names = [c for c in CANDIDATE_STRINGS if re.search(pattern, c)]
            for _ in range(self.rng.randint(0, 2)):
                if self.chance(self.error_rate) or not names:
                    name = self.rng.choice(CANDIDATE_STRINGS)
                else:
                    name = self.rng.choice(names)
                result[name] = self.make(sub, depth=depth + 1)
        if self.chance(self.error_rate):
            result[self.rng.choice(CANDIDATE_STRINGS)] = self.anything()
        return result


class CompiledCheckTest(base.TestCase):

    def verdicts(self, schema, instance):
        validator = reference(schema)
        check = schema_check.compile_schema(schema, util.FORMAT_CHECKER)
        return check(instance), validator.is_valid(instance)

    def test_agrees_with_jsonschema_on_every_schema(self):
        maker = Maker(20261121)
        compiled = 0
        for name, schema in all_schemas():
            check = schema_check.compile_schema(schema, util.FORMAT_CHECKER)
            if check is None:
                continue
            compiled += 1
            validator = reference(schema)
            valid = 0
            for i in range(240):
                instance = maker.make(schema, ERROR_RATES[i % 4])
                expected = validator.is_valid(instance)
                valid += expected
                self.assertEqual(expected, check(instance),
                                 '%s: %r' % (name, instance))
            # Both verdicts are exercised.
            self.assertTrue(0 < valid < 240, name)
        self.assertGreater(compiled, 30)

    def test_claim_body(self):
        schema = allocation.ALLOCATION_SCHEMA_V1_28
        body = {'allocations': {str(uuid.UUID(int=1)): {
            'resources': {'DISK_GB': 1}}},
            'project_id': 'p', 'user_id': 'u', 'consumer_generation': None}
        self.assertEqual((True, True), self.verdicts(schema, body))
        body['allocations'][str(uuid.UUID(int=1))]['resources'] = {
            'DISK_GB': 0}
        self.assertEqual((False, False), self.verdicts(schema, body))
        body['allocations'] = {'not-a-uuid': {'resources': {'DISK_GB': 1}}}
        self.assertEqual((False, False), self.verdicts(schema, body))

    def test_integers_as_jsonschema_sees_them(self):
        schema = {'type': 'integer', 'minimum': 1}
        for value, valid in ((1, True), (1.0, True), (1.5, False),
                             (True, False), (0, False)):
            self.assertEqual((valid, valid), self.verdicts(schema, value))

    def test_unknown_keyword_is_not_compiled(self):
        self.assertIsNone(schema_check.compile_schema(
            {'type': 'array', 'uniqueItems': True}, util.FORMAT_CHECKER))
        self.assertIsNone(schema_check.compile_schema(
            {'type': 'object', 'properties': {'a': {'const': 1}}},
            util.FORMAT_CHECKER))

    def test_enum_accepts_only_its_strings(self):
        schema = {'enum': ['none', 'isolate', 1]}
        for value, valid in (('none', True), ('isolate', True),
                             ('other', False), (None, False)):
            self.assertEqual((valid, valid), self.verdicts(schema, value))
        # Not strings: refused, jsonschema decides (1 is a member).
        self.assertEqual((False, True), self.verdicts(schema, 1))

    def test_refused_body_keeps_jsonschema_message(self):
        with self.assertRaises(webob.exc.HTTPBadRequest) as caught:
            util.validate({'allocations': {}},
                          allocation.ALLOCATION_SCHEMA_V1_12,
                          'JSON does not validate: %s')
        self.assertIn("'project_id' is a required property",
                      str(caught.exception))
