"""Applying the transition table.

Entry points: :func:`apply` (one transition in its own transaction; what
the volume manager calls), and :func:`prepare` + :func:`run` for operations
that change several rows in one transaction (snapshot create, attach ...).
Failures raise db.exceptions: :class:`TransitionRefused` (a
ConditionNotMet), NotFound or ConcurrentUpdate.
"""
import dataclasses

import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exc
from db import models
from db import session
from db import writes as db_writes
import objects
from objects import worker as worker_obj
from volapi.volume import claims
from volapi.volume.transitions import table
from volapi.volume.transitions.vocabulary import Bound
from volapi.volume.transitions.vocabulary import Computed
from volapi.volume.transitions.vocabulary import Loaded
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import REQUIRED
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged


# -- errors -------------------------------------------------------------------

class TransitionRefused(db_exc.ConditionNotMet):
    """A condition of ``transition`` does not hold (see ConditionNotMet)."""

    def __init__(self, transition, failure):
        self.transition = transition
        # The whole answer the failed requirement gives, if it has one.
        self.refusal = getattr(failure.condition, 'refusal', None)
        super().__init__(failure.condition, failure.actual, failure.what)


class NotAvailable(Exception):
    """The transition needs a higher microversion than the request's."""

    def __init__(self, transition, version):
        self.transition = transition
        self.version = version
        super().__init__(
            '%s needs microversion %s or later; the request is at %s.' % (
                transition.name, format_version(transition.min_version),
                format_version(version)))


def format_version(version):
    return '%d.%d' % tuple(version)[:2]


# -- compiling a transition for one object ---------------------------------

def check_allowed(context, transition, version):
    """Raise NotAvailable if the request's version cannot ask for it. Who
    may ask is oslo.policy's answer alone, given before (the API
    authorizes the transition's ``policy``)."""
    if version is not None and tuple(version) < transition.min_version:
        raise NotAvailable(transition, version)


def _resolve(value, obj, params, key):
    """A table value with its Params/Loaded/NOW/Computed replaced for this
    call; ``_SKIP`` for an optional Param not given. ``key`` names the
    value's place in the table (the cache key of a Computed's SQL)."""
    if isinstance(value, Param):
        if value.name in params:
            return params[value.name]
        if value.optional:
            return _SKIP
        if value.default is REQUIRED:
            raise TypeError('transition needs the parameter %r' % value.name)
        return _resolve(value.default, obj, params, key)
    if isinstance(value, Loaded):
        return _db_value(getattr(obj, value.field))
    if value is NOW:
        return timeutils.utcnow()
    if isinstance(value, Computed):
        return _sql(key, value, params)
    if isinstance(value, cond.Not):
        return cond.Not(_resolve(value.value, obj, params, key),
                        value.auto_none)
    return value


_SKIP = object()
# Bind parameters of a Computed or Criterion: named apart from the columns
# that an UPDATE sets (SQLAlchemy reserves those names).
_BOUND = 'p_'


def _sql(key, block, params):
    """The SQL of a Computed or Criterion for this call, as db.conditions.Sql:
    keyed by its place in the table and its shaped params' values, built
    only if db.statements has no statement of that key yet."""
    def build():
        built = {name: params.get(name) for name in block.shaped}
        built.update((name, sa.bindparam(_BOUND + name))
                     for name in block.bound)
        return block.build(built)
    return cond.Sql(key + tuple(params.get(name) for name in block.shaped),
                    build,
                    {_BOUND + name: _bound_value(params, name)
                     for name in block.bound})


def _bound_value(params, name):
    # 'now', unless the caller gives it, is the time the transition runs
    # (a Computed of a linked transition, which gets its caller's params).
    if name == 'now' and name not in params:
        return timeutils.utcnow()
    return params[name]


def _db_value(value):
    if getattr(value, 'tzinfo', None) is not None:
        return timeutils.normalize_time(value)
    return value


def source_condition(transition, params, version):
    """The condition on the status this call may start from (None: any)."""
    if transition.source is None:
        return None
    statuses = list(transition.source)
    flagged = []
    for also in transition.also:
        if also.flag is not None:
            flagged.append((also.flag, tuple(also.statuses)))
        elif also.when(params, version):
            statuses += [s for s in also.statuses if s not in statuses]
    field = 'attach_status' if transition.resource == 'attachment' \
        else 'status'
    if flagged:
        return cond.SourceStatus(field, statuses, flagged)
    return cond.Expect(field, statuses[0] if len(statuses) == 1
                       else statuses)


@dataclasses.dataclass
class Step:
    """One transition compiled for one object: ready to run in a
    transaction (:func:`run`), possibly with other steps. ``conditions``
    are in the order a failure is explained: status first."""
    transition: Transition
    obj: object
    values: dict
    conditions: list
    # Whether ``obj`` is to hold what was written (values computed in SQL
    # cost one more SELECT to learn).
    reflect: bool = True
    # What the workers row keeps of the parameters (table.WORKER_ARGUMENTS).
    arguments: dict = None
    # True when the caller deletes the workers row of a 'finish' itself,
    # in the same transaction (objects.Worker.finish_held).
    workers_row_finished: bool = False
    # The parameters, for the transitions of the rows it ends too.
    params: dict = None

    def execute(self, context):
        """The compare-and-swap (or, for a ``creates`` transition, the
        insert) and its workers-row bookkeeping; must run inside a
        transaction (see :func:`run`). True if the row changed; False only
        for a lenient transition whose condition failed."""
        t = self.transition
        if t.creates:
            with session.writer.connection.using(context) as conn:
                db_writes.make(conn, self.inserts())
            return True
        # The linked rows as the object names them before the swap.
        linked = [(link, getattr(self.obj, link.field)) for link in t.linked]
        try:
            self.obj.conditional_update_or_raise(
                dict(self.values), expected_values={},
                filters=list(self.conditions),
                reflect_changes=self.reflect)
        except db_exc.ConditionNotMet as failure:
            if t.lenient:
                return False
            if failure.field == 'project_id':
                # Given to another project since the request read it
                # (the owner guard, see OWNED): as if it were gone.
                raise db_exc.NotFound(MODELS[t.resource].cas_name,
                                      self.obj.id) from None
            raise TransitionRefused(t, failure) from None
        claims.after_transition(context, t.name, self.obj, self.values)
        if t.workers_row == 'track':
            worker_obj.Worker.track(context, t.resource, self.obj.id,
                                    self._workers_status(), self.arguments)
        elif t.workers_row == 'finish' and not self.workers_row_finished:
            worker_obj.Worker.finish(context, t.resource, self.obj.id)
        for link, ident in linked:
            if ident is not None:
                _end_linked(context, link, ident, self.params or {})
        return True

    def inserts(self):
        """For a ``creates`` transition: the writes (db.writes) inserting
        its object's rows and its workers row, for the caller to make in
        its transaction (:meth:`execute` makes them at once; a claim has
        its project's usage swap carry them, volapi.volume.claims). The
        object holds what they write."""
        t = self.transition
        if not t.creates or t.linked or t.workers_row == 'finish' or \
                t.name in claims.AFTER_TRANSITION:
            raise ValueError('%s is not a transition that only inserts'
                             % t.name)
        for field, value in self.values.items():
            setattr(self.obj, field, value)
        writes = self.obj.insert_writes()
        if t.workers_row == 'track':
            writes.append(worker_obj.Worker.new_row(
                t.resource, self.obj.id, self._workers_status(),
                self.arguments))
        return writes

    def _workers_status(self):
        return self.transition.workers_status or self.values['status']


def _end_linked(context, link, ident, params):
    """Transition ``link.name`` of the row ``ident`` of ``link.resource``,
    in the caller's transaction; nothing if the row is gone."""
    loader = getattr(objects, OBJECTS[link.resource])
    try:
        obj = loader.get_by_id(context, ident)
    except db_exc.NotFound:
        return
    prepare(context, link.name, obj, reflect=False,
            **params).execute(context)


class _Refusing(cond.Filter):
    """A requirement's Filter that carries its own answer (``refusal``)."""

    def __init__(self, criterion, requirement, refusal):
        super().__init__(criterion, requirement)
        self.refusal = refusal


def _requirement_condition(requirement, obj, params, key):
    if isinstance(requirement, Bound):
        return cond.LessThan(requirement.field,
                             _resolve(requirement.bound, obj, params, key))
    if isinstance(requirement, Unchanged):
        return cond.Expect(requirement.field, _resolve(
            Loaded(requirement.field), obj, params, key))
    if requirement.applies is not None and not requirement.applies(params):
        return None
    if requirement.refusal is not None:
        return _Refusing(_sql(key, requirement, params),
                         requirement.text % params, requirement.refusal)
    return cond.Filter(_sql(key, requirement, params),
                       requirement.text % params)


# Resources whose project changes (volume transfers): a request authorized
# on the owner it loaded proves that owner unchanged in its swap, or a
# transfer accepted between its read and its write would let it act on
# the new owner's row (an UPDATE at READ COMMITTED, and MySQL's at any
# level, matches the latest row, not what the transaction read).
OWNED = ('volume', 'snapshot')


def _owner_unchanged(obj, params, name):
    return _requirement_condition(Unchanged('project_id'), obj, params,
                                  (name, 'owner'))


def prepare(context, name, obj, version=None, reflect=True, **params):
    """Compile transition ``name`` for ``obj`` with ``params``.

    ``version`` is the request's microversion (None for internal callers,
    who are not bound by microversions or admin rules). With ``reflect``
    False, ``obj`` is left as it was loaded (for callers that do not read
    it afterwards)."""
    transition = table.TRANSITIONS[name]
    if version is not None:
        check_allowed(context, transition, version)
    conditions = []
    source = source_condition(transition, params, version)
    if source is not None:
        conditions.append(source)
    for field, value in transition.expect.items():
        conditions.append(cond.Expect(field, _resolve(
            value, obj, params, (name, 'expect', field))))
    for i, requirement in enumerate(transition.requires):
        condition = _requirement_condition(requirement, obj, params,
                                           (name, 'requires', i))
        if condition is not None:
            conditions.append(condition)
    if obj is not None and transition.side == 'api' and \
            not transition.creates and transition.resource in OWNED:
        conditions.append(_owner_unchanged(obj, params, name))
    values = {}
    for field, value in transition.values.items():
        resolved = _resolve(value, obj, params, (name, 'values', field))
        if resolved is not _SKIP:
            values[field] = resolved
    arguments = {k: params[k] for k in table.WORKER_ARGUMENTS.get(name, ())
                 if k in params}
    return Step(transition, obj, values, conditions, reflect,
                arguments or None, params=params)


def run(context, *actions):
    """Run steps (and callables ``fn(context)``) in ONE transaction, retried
    as a whole on deadlock/serialization failure. Returns the results."""
    return _transaction(context, actions)


@db_api.retry_on_deadlock  # decorated once: decorating costs per call
def _transaction(context, actions):
    with session.writer.connection.using(context):
        return [a.execute(context) if isinstance(a, Step) else a(context)
                for a in actions]


MODELS = {'volume': models.Volume, 'snapshot': models.Snapshot,
          'attachment': models.VolumeAttachment,
          'transfer': models.Transfer, 'backup': models.Backup,
          'group': models.Group, 'group_snapshot': models.GroupSnapshot}
# The object class (in ``objects``) of each resource a Linked names.
OBJECTS = {'volume': 'Volume', 'snapshot': 'Snapshot', 'backup': 'Backup',
           'group_snapshot': 'GroupSnapshot'}


def reads_nothing(transition):
    """True if the transition needs nothing loaded (no Loaded value, no
    Unchanged) and keeps no workers row: it can run as a lone UPDATE."""
    loaded = [v for v in list(transition.expect.values())
              + list(transition.values.values()) if isinstance(v, Loaded)]
    loaded += [r for r in transition.requires
               if isinstance(r, Unchanged) or (
                   isinstance(r, Bound) and isinstance(r.bound, Loaded))]
    return not loaded and transition.workers_row is None


# Decided once: apply_to_own is on the hot path of os-reserve.
READ_FREE = frozenset(name for name, transition in table.TRANSITIONS.items()
                      if reads_nothing(transition))


def apply_to_own(context, name, ident, version=None, **params):
    """Transition ``name`` of row ``ident`` of the caller's own project,
    without reading it first: one UPDATE whose WHERE holds the project too.

    True if it changed the row. False if anything is off (no such row in
    the caller's project, a condition fails): the caller then goes the
    long way (load, check the policy on what was loaded, :func:`prepare`
    and :func:`run`), which gives the precise answer. Only for transitions
    that :func:`reads_nothing`."""
    if name not in READ_FREE:
        raise ValueError('%s needs the row read first' % name)
    transition = table.TRANSITIONS[name]
    step = prepare(context, name, None, version=version, reflect=False,
                   **params)
    return db_api.conditional_update(
        context, MODELS[transition.resource], step.values, {'id': ident},
        [cond.Expect('project_id', context.project_id)] + step.conditions)


def apply(context, name, obj, version=None, **params):
    """Apply transition ``name`` to ``obj`` in its own transaction.

    The entry point of the volume manager: ``apply(ctx, 'extend_done',
    volume, size=new_size)``. Raises TransitionRefused (a
    db.exceptions.ConditionNotMet), NotFound or ConcurrentUpdate; returns
    False only for a lenient transition that did nothing."""
    step = prepare(context, name, obj, version=version, **params)
    return run(context, step)[0]
