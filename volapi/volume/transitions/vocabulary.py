"""The types the transition table is written in (see the package's
docstring): a :class:`Transition` per row, and the placeholders its
conditions and values use for what is only known when it is applied."""
import dataclasses

from volapi.api import microversion as mv


class _Now:
    """The time the transition runs (naive UTC, as columns hold it)."""

    def __repr__(self):
        return 'now'


NOW = _Now()
REQUIRED = object()


@dataclasses.dataclass(frozen=True)
class Param:
    """A value the caller gives when applying the transition.

    With ``optional`` the value is simply not written when not given;
    ``default`` is used when not given (NOW for timestamps)."""
    name: str
    default: object = REQUIRED
    optional: bool = False

    def __str__(self):
        return '<%s>' % self.name


@dataclasses.dataclass(frozen=True)
class Loaded:
    """The value the caller's object holds: what the request saw."""
    field: str

    def __str__(self):
        return 'the %s the request saw' % self.field


@dataclasses.dataclass(frozen=True)
class Computed:
    """A value computed in SQL from the row (and other tables), described
    in words for the documentation. ``build(params)`` returns the SQL; it
    is called only when db.statements has no statement of this shape yet.
    In ``params`` each name of ``bound`` is a bind parameter (each call
    binds its value) and each name of ``shaped`` the call's value, which
    changes the SQL itself (a statement per value)."""
    text: str
    build: object
    bound: tuple = ()
    shaped: tuple = ()

    def __str__(self):
        return self.text


@dataclasses.dataclass(frozen=True)
class Criterion:
    """A condition on other tables (or on a combination of columns).
    ``build(params)`` returns an SQL criterion, with ``params`` as for
    :class:`Computed`; ``applies(params)``, if given, says whether the
    requirement applies to the call at all. ``text`` completes the
    sentence "volume ..." and may use ``%(param)s``; ``refusal``, if
    given, is the whole answer when it fails (Cinder's words)."""
    text: str
    build: object
    bound: tuple = ()
    shaped: tuple = ()
    applies: object = None
    refusal: str = None

    def __str__(self):
        return self.text


@dataclasses.dataclass(frozen=True)
class Also:
    """More source statuses (described by ``text``), allowed either when
    the request says so, ``when(params, version)`` (version is None for
    internal callers, who are not bound by microversions), or while the
    row's boolean column ``flag`` is true: decided in SQL, on the row the
    UPDATE changes, so nothing read earlier has to be proved unchanged."""
    statuses: tuple
    text: str
    when: object = None
    flag: str = None


@dataclasses.dataclass(frozen=True)
class Bound:
    """Table form of :class:`db.conditions.LessThan` (the bound may be a
    Param)."""
    field: str
    bound: object

    def __str__(self):
        return '%s < %s' % (self.field, self.bound)


@dataclasses.dataclass(frozen=True)
class Unchanged:
    """``field`` still holds the value the caller's object loaded."""
    field: str

    def __str__(self):
        return '%s is still %s' % (self.field, Loaded(self.field))


@dataclasses.dataclass(frozen=True)
class Linked:
    """Another row this transition ends in its transaction: the
    ``resource`` whose id the object's ``field`` holds (as loaded; nothing
    when it is None), by its transition ``name`` (lenient, so a row that
    has moved on since is left alone)."""
    resource: str
    field: str
    name: str

    def __str__(self):
        return '%s its %s names, by %s' % (self.resource, self.field,
                                           self.name)


@dataclasses.dataclass(frozen=True)
class Transition:
    name: str
    resource: str                  # 'volume', 'snapshot', 'attachment',
    #                                'transfer' or 'backup'
    summary: str
    source: tuple = None           # allowed statuses; None: any
    also: tuple = ()               # Also(...): statuses allowed when ...
    expect: dict = dataclasses.field(default_factory=dict)
    requires: tuple = ()           # Criterion / Bound / Unchanged
    values: dict = dataclasses.field(default_factory=dict)
    min_version: tuple = tuple(mv.MIN_VERSION)
    policy: str = None             # the oslo.policy rule the API
    #                                authorizes before asking for it
    #                                (named here for the doc only)
    http_status: int = 400         # the answer when a condition fails
    side: str = 'api'              # 'api', 'worker' or 'reconciliation'
    workers_row: str = None        # 'track', 'finish' or None
    workers_status: str = None     # the tracked workers row's status when
    #                                the resource's own does not say it
    #                                (a migration leaves it 'available')
    lenient: bool = False          # a failed condition changes nothing
    #                                and is not an error (as in Cinder)
    creates: bool = False          # inserts the row (no source, no
    #                                conditions): its values and the
    #                                object's own fields are the new row
    linked: tuple = ()             # Linked(...): rows ended with it
