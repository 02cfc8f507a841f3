"""Conditions and values of a compare-and-swap.

A condition is written once and serves twice: ``clause(model)`` is the SQL
that goes in the ``WHERE`` of the conditional ``UPDATE``, and ``holds(actual)``
is the same test in Python, used after a failed update to name the condition
that refused it (``explain``).

Expected values follow Python's semantics, NULL included:

============================  ==========================================
expected                      SQL
============================  ==========================================
``'x'``                       ``col = 'x'``
``None``                      ``col IS NULL``
``('a', 'b')`` (list, range)  ``col IN ('a', 'b')``
``('a', None)``               ``col IN ('a') OR col IS NULL``
``()``                        matches nothing
``Not('x')``                  ``col != 'x' OR col IS NULL``
``Not('x', auto_none=False)`` ``col != 'x'``
``Not(None)``                 ``col IS NOT NULL``
``Not(('a', None))``          ``col NOT IN ('a') AND col IS NOT NULL``
============================  ==========================================
"""
import sqlalchemy as sa
from sqlalchemy.sql import elements

from db import exceptions

_COLLECTIONS = (list, tuple, set, frozenset, range)


def is_sql(value):
    """True for SQLAlchemy expressions (columns, ``size + 1``, ...)."""
    return isinstance(value, elements.ClauseElement) or hasattr(
        value, '__clause_element__')


class Not:
    """Negates an expected value, the way Python's ``!=``/``not in`` do."""

    def __init__(self, value, auto_none=True):
        self.value = value
        # With auto_none, a NULL column "is not 'x'", as None != 'x' in Python.
        self.auto_none = auto_none

    def __repr__(self):
        return 'Not(%r)' % (self.value,)

    def __eq__(self, other):
        return (isinstance(other, Not) and other.value == self.value
                and other.auto_none == self.auto_none)


class Case:
    """A value chosen in SQL: ``Case([(cond, value), ...], else_=value)``."""

    def __init__(self, whens, value=None, else_=None):
        self.whens = list(whens)
        self.value = value
        self.else_ = else_

    def __clause_element__(self):
        return sa.case(*self.whens, value=self.value, else_=self.else_)


class Sql:
    """SQL (a value to write or a criterion) named by an explicit cache
    key, built only when needed. ``key`` (hashable) names its shape: two
    Sql with one key must build the same SQL up to the values of the bind
    parameters it names, ``params`` ({name: value}), which each call
    supplies. db.statements then builds a compare-and-swap that holds it
    once per shape, and each call only binds its values. Name the bind
    parameters apart from the columns of the table updated (SQLAlchemy
    reserves those) and from db.statements' own ``cas_<n>``."""

    __slots__ = ('key', '_build', 'params', '_built')

    def __init__(self, key, build, params=None):
        self.key = key
        self._build = build
        self.params = params or {}
        self._built = None

    def __repr__(self):
        return 'Sql(%r)' % (self.key,)

    def sql(self):
        """What ``build()`` returned (built on first use)."""
        if self._built is None:
            self._built = self._build()
        return self._built

    def __clause_element__(self):
        built = self.sql()
        if hasattr(built, '__clause_element__'):
            return built.__clause_element__()
        return built


def _members(values):
    members = list(values)
    has_none = any(v is None for v in members)
    return [v for v in members if v is not None], has_none


def _quote(value):
    if isinstance(value, str):
        return "'%s'" % value
    return repr(value)


class Condition:
    """Base of everything that can stand in a compare-and-swap's WHERE."""

    # Conditions that can be checked against column values in Python; the
    # others are re-evaluated in SQL for the one row.
    checks_in_python = True

    @property
    def fields(self):
        """The columns ``actual(row)`` reads."""
        return (self.field,)

    # -- the statement cache (db.statements) ----------------------------
    def cache_key(self):
        """A hashable naming this condition's SQL, its literal values left
        out (they are bound: :meth:`literals`); None (the default): it has
        none, and a statement that holds it is built for each call. Keys
        start with the class, whose ``clause`` makes the SQL."""
        return None

    def literals(self):
        """The values bound in the place of the literals, in order."""
        return ()

    def bound(self, param):
        """This condition with ``param()`` (a new bind parameter) in the
        place of each of :meth:`literals`, in order."""
        return self

    def named_params(self):
        """{name: value} of the bind parameters its Sql names."""
        return {}

    def cache_parts(self):
        """(cache_key(), literals(), named_params()) in one call."""
        return self.cache_key(), self.literals(), self.named_params()

    def clause(self, model):
        raise NotImplementedError

    def holds(self, actual):
        raise NotImplementedError

    def actual(self, row):
        raise NotImplementedError

    def explain(self, actual, what):
        raise NotImplementedError


class Expect(Condition):
    """``field`` must have the ``expected`` value (see the module's table)."""

    def __init__(self, field, expected):
        if isinstance(field, str):
            self.field = field
        else:
            self.field = field.key
        self.expected = expected

    def __repr__(self):
        return 'Expect(%s=%r)' % (self.field, self.expected)

    # -- the statement cache -------------------------------------------------
    def cache_key(self):
        shape = _shape_of(self.expected)
        return None if shape is _UNKEYED else (
            type(self), self.field, shape)

    def literals(self):
        return _literals_of(self.expected)

    def bound(self, param):
        return type(self)(self.field, _bind(self.expected, param))

    def named_params(self):
        return _named_params_of(self.expected)

    def cache_parts(self):
        expected = self.expected
        if type(expected) in _PLAIN:  # the common case, in one step
            return (type(self), self.field, PARAM), (expected,), _NO_PARAMS
        return super().cache_parts()

    # -- SQL ---------------------------------------------------------------
    def clause(self, model):
        column = column_of(model, self.field)
        expected = self.expected
        if isinstance(expected, Not):
            return self._negated(column, expected)
        if expected is None:
            return column.is_(None)
        if is_sql(expected):
            return column == expected
        if isinstance(expected, _COLLECTIONS):
            members, has_none = _members(expected)
            parts = []
            if members:
                parts.append(column.in_(members))
            if has_none:
                parts.append(column.is_(None))
            if not parts:
                return sa.false()
            return sa.or_(*parts) if len(parts) > 1 else parts[0]
        return column == expected

    @staticmethod
    def _negated(column, negation):
        value = negation.value
        if value is None:
            return column.is_not(None)
        if isinstance(value, _COLLECTIONS):
            members, has_none = _members(value)
            if has_none:
                # NULL is excluded explicitly, so auto_none cannot apply.
                parts = [column.is_not(None)]
                if members:
                    parts.append(column.not_in(members))
                return sa.and_(*parts) if len(parts) > 1 else parts[0]
            if not members:
                return sa.true() if negation.auto_none else column.is_not(None)
            clause = column.not_in(members)
        else:
            clause = column != value
        if negation.auto_none:
            return sa.or_(clause, column.is_(None))
        return clause

    # -- Python ------------------------------------------------------------
    def actual(self, row):
        return row[self.field]

    def holds(self, actual):
        expected = self.expected
        if isinstance(expected, Not):
            value = expected.value
            if value is None:
                return actual is not None
            if isinstance(value, _COLLECTIONS):
                members = list(value)
                if actual is None:
                    return None not in members and expected.auto_none
                return actual not in members
            if actual is None:
                return expected.auto_none
            return actual != value
        if isinstance(expected, _COLLECTIONS):
            return actual in list(expected)
        return actual == expected

    def explain(self, actual, what):
        expected = self.expected
        if isinstance(expected, Not):
            value = expected.value
            if value is None:
                wanted = 'must be set'
            elif isinstance(value, _COLLECTIONS):
                wanted = 'must not be any of %s' % ', '.join(
                    _quote(v) for v in value)
            else:
                wanted = 'must not be %s' % _quote(value)
        elif expected is None:
            wanted = 'must be unset'
        elif isinstance(expected, _COLLECTIONS):
            members = list(expected)
            if not members:
                wanted = 'cannot match any value'
            elif len(members) == 1:
                wanted = 'must be %s' % _quote(members[0])
            else:
                wanted = 'must be one of %s' % ', '.join(
                    _quote(v) for v in members)
        else:
            wanted = 'must be %s' % _quote(expected)
        return '%s %s %s, it is %s' % (
            what, self.field, wanted,
            'unset' if actual is None else _quote(actual))


class Filter(Condition):
    """Any SQLAlchemy criterion, with the requirement it stands for in words.

    ``Filter(~exists().where(Snapshot.volume_id == Volume.id),
    'must have no snapshots')``. After a failed update the criterion is
    evaluated in SQL for the one row, so the error can still name it.
    """

    checks_in_python = False

    def __init__(self, criterion, requirement=None):
        self.criterion = criterion
        self.requirement = requirement

    def __repr__(self):
        return 'Filter(%s)' % (self.requirement or self.criterion,)

    def cache_key(self):
        if isinstance(self.criterion, Sql):
            return (type(self), self.criterion.key)
        return None

    def named_params(self):
        return _named_params_of(self.criterion)

    def clause(self, model):
        if isinstance(self.criterion, Sql):
            return self.criterion.__clause_element__()
        return self.criterion

    def holds(self, actual):
        return bool(actual)

    def explain(self, actual, what):
        if self.requirement:
            return '%s %s' % (what, self.requirement)
        return '%s does not meet the condition %s' % (what, self.criterion)


def _one_of(column, values):
    # One bind parameter per value: in_() of a plain list would make an
    # "expanding" parameter, whose SQL is rewritten at every execution.
    return column.in_([sa.literal(value) for value in values])


class SourceStatus(Condition):
    """The status a transition starts from: one of ``statuses``, or of an
    Also's statuses while its ``flag`` column is true. Explained from the
    row as the statuses that row allows: "volume status must be
    'available', it is 'in-use'" for a volume that is not multiattach."""

    def __init__(self, field, statuses, flagged):
        self.field = field
        self.statuses = tuple(statuses)
        self.flagged = tuple(flagged)  # ((flag column, statuses), ...)

    @property
    def fields(self):
        return (self.field,) + tuple(flag for flag, _ in self.flagged)

    def __repr__(self):
        return 'SourceStatus(%s in %r, %r)' % (self.field, self.statuses,
                                               self.flagged)

    def cache_key(self):
        # Few distinct ones (the transition table's): statuses in the key.
        return (type(self), self.field, self.statuses, self.flagged)

    def clause(self, model):
        column = column_of(model, self.field)
        allowed = [_one_of(column, self.statuses)]
        for flag, statuses in self.flagged:
            allowed.append(sa.and_(_one_of(column, statuses),
                                   column_of(model, flag)
                                   == sa.true()))
        return sa.or_(*allowed)

    def actual(self, row):
        allowed = list(self.statuses)
        for flag, statuses in self.flagged:
            if row[flag]:
                allowed += [s for s in statuses if s not in allowed]
        return row[self.field], tuple(allowed)

    def holds(self, actual):
        status, allowed = actual
        return status in allowed

    def explain(self, actual, what):
        status, allowed = actual
        return Expect(self.field, allowed).explain(status, what)


class LessThan(Condition):
    """``field < bound``, explained as "volume size must be less than 5,
    it is 5"."""

    def __init__(self, field, bound):
        self.field = field
        self.expected = bound

    def __repr__(self):
        return 'LessThan(%s<%r)' % (self.field, self.expected)

    def clause(self, model):
        return column_of(model, self.field) < self.expected

    def cache_key(self):
        if is_sql(self.expected):
            return None
        return (type(self), self.field)

    def literals(self):
        return (self.expected,)

    def bound(self, param):
        return type(self)(self.field, param())

    def actual(self, row):
        return row[self.field]

    def holds(self, actual):
        return actual is not None and actual < self.expected

    def explain(self, actual, what):
        return '%s %s must be less than %s, it is %s' % (
            what, self.field, self.expected, actual)


# -- cache keys of expected values ---------------------------------------------
#
# What an expected value's SQL looks like depends on its shape (None,
# True/False, a collection's length, Not ...), not on its literal values,
# which are bound: the key holds PARAM where a literal is.

PARAM = '?'
_UNKEYED = object()
_PLAIN = frozenset([str, int, float])
_NO_PARAMS = {}


def _shape_of(expected):
    if expected is None or isinstance(expected, bool):
        return expected  # constants of the SQL (IS NULL, = true)
    if isinstance(expected, Not):
        inner = _shape_of(expected.value)
        return _UNKEYED if inner is _UNKEYED else (
            'not', expected.auto_none, inner)
    if isinstance(expected, Sql):
        return ('sql', expected.key)
    if is_sql(expected):
        return _UNKEYED
    if isinstance(expected, _COLLECTIONS):
        members = tuple(None if v is None else _shape_of(v)
                        if is_sql(v) else PARAM for v in expected)
        return _UNKEYED if _UNKEYED in members else ('in', members)
    return PARAM


def _literals_of(expected):
    if expected is None or isinstance(expected, bool) or is_sql(expected):
        return ()
    if isinstance(expected, Not):
        return _literals_of(expected.value)
    if isinstance(expected, _COLLECTIONS):
        return tuple(v for v in expected if v is not None and not is_sql(v))
    return (expected,)


def _bind(expected, param):
    if expected is None or isinstance(expected, bool) or is_sql(expected):
        return expected
    if isinstance(expected, Not):
        return Not(_bind(expected.value, param), expected.auto_none)
    if isinstance(expected, _COLLECTIONS):
        return tuple(v if v is None or is_sql(v) else param()
                     for v in expected)
    return param()


def _named_params_of(expected):
    if isinstance(expected, Sql):
        return expected.params
    if isinstance(expected, Not):
        return _named_params_of(expected.value)
    if isinstance(expected, _COLLECTIONS):
        params = {}
        for value in expected:
            params.update(_named_params_of(value))
        return params
    return {}


def as_conditions(model, expected_values=None, filters=()):
    """Normalise ``expected_values`` and ``filters`` into Condition objects."""
    conditions = []
    for field, expected in (expected_values or {}).items():
        if is_sql(expected):
            # Compared with another column or expression: only SQL can tell.
            column = column_of(model, field)
            conditions.append(Filter(column == expected,
                                     'must have %s equal to %s' % (
                                         column.key, expected)))
        else:
            column_of(model, field)  # refuse unknown or foreign keys early
            conditions.append(Expect(field, expected))
    for criterion in filters:
        if isinstance(criterion, Condition):
            conditions.append(criterion)
        else:
            conditions.append(Filter(criterion))
    return conditions


def column_of(model, field):
    """The column ``field`` (a name or an attribute) of ``model``'s table."""
    table = model.__table__
    if isinstance(field, str):
        try:
            return table.c[field]
        except KeyError:
            raise exceptions.InvalidUpdate(
                '%s has no column %r' % (table.name, field)) from None
    column = getattr(field, 'expression', field)
    tables = {t for t in _tables_of(column)}
    if tables and tables != {table}:
        raise exceptions.InvalidUpdate(
            'conditional update of %s cannot use %s from %s: keys of one '
            'update must all belong to one model' % (
                table.name, getattr(field, 'key', field),
                ', '.join(sorted(t.name for t in tables))))
    return table.c[column.key]


def _tables_of(column):
    table = getattr(column, 'table', None)
    return [table] if table is not None else []


def changed_before(table, moment):
    """SQL: the row of ``table`` (a model or a Table) has not changed since
    ``moment``: its last change, updated_at or else created_at, is older."""
    columns = getattr(table, '__table__', table).c
    return sa.func.coalesce(columns.updated_at, columns.created_at) < moment
