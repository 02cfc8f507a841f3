"""The volume state machine: ONE declarative table of transitions.

Each :class:`Transition` names an action, the resource whose row it
compare-and-swaps, the statuses it may start from, the other conditions that
must hold, the values it writes, the lowest microversion and whether only an
admin may ask for it. Everything else is derived from the table:

- the API refuses early (version, admin) from it (:func:`check_allowed`);
- the ``UPDATE ... WHERE`` of the compare-and-swap is built from it, and a
  failed one is explained from the same conditions ("volume status must be
  'available', it is 'in-use'");
- ``python -m volapi.volume.transitions`` prints the Markdown reference
  (doc/transitions.md) from it.

Transitions that move a resource into a status a worker will finish
(``creating``, ``extending`` ...) upsert the resource's ``workers`` row in the
same transaction (``service_id`` NULL until a worker claims it); the
worker's own transitions (``create_done`` ...) delete it in theirs.
:data:`CLEANUP` says which transition repairs a row left behind.

Entry points: :func:`apply` (one transition in its own transaction; what
the volume manager calls), and :func:`prepare` + :func:`run` for operations
that change several rows in one transaction (snapshot create, attach ...).
Failures raise db.exceptions: :class:`TransitionRefused` (a
ConditionNotMet), NotFound or ConcurrentUpdate.
"""
import dataclasses
import functools
import re
import sys

import sqlalchemy as sa
from oslo_utils import timeutils

from db import api as db_api
from db import conditions as cond
from db import exceptions as db_exc
from db import models
from db import session
from objects import volume_type

Volume = models.Volume
Snapshot = models.Snapshot
Attachment = models.VolumeAttachment

# Cinder's AVAILABLE_MIGRATION_STATUS: the volume is not being migrated.
NOT_MIGRATING = (None, 'deleting', 'error', 'success')
# Statuses a volume may be reset to (Cinder's VolumeAdminController).
RESET_STATUSES = ('creating', 'available', 'deleting', 'error',
                  'error_deleting', 'error_managing', 'managing', 'attaching',
                  'in-use', 'detaching', 'maintenance', 'reserved',
                  'extending', 'error_extending', 'retyping')
RESET_ATTACH_STATUSES = ('attached', 'detached')
RESET_MIGRATION_STATUSES = ('migrating', 'error', 'success', 'completing',
                            'none', 'starting')
# Statuses a snapshot may be reset to (Cinder's SnapshotStatus.ALL but
# 'deleted', which only a finished delete sets).
SNAPSHOT_RESET_STATUSES = ('error', 'available', 'creating', 'deleting',
                           'updating', 'error_deleting', 'unmanaging',
                           'backing-up', 'restoring')

# The ``workers`` row's resource_type for each resource (Cinder's names).
WORKER_TYPES = {'volume': 'Volume', 'snapshot': 'Snapshot'}


class _Now:
    """The time the transition runs (naive UTC, as columns hold it)."""

    def __repr__(self):
        return 'now'


NOW = _Now()
_REQUIRED = object()


@dataclasses.dataclass(frozen=True)
class Param:
    """A value the caller gives when applying the transition.

    With ``optional`` the value is simply not written when not given;
    ``default`` is used when not given (NOW for timestamps)."""
    name: str
    default: object = _REQUIRED
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
    in words for the documentation. ``build(params)`` returns the SQL.
    ``static``: the SQL does not depend on the params, so it is built once
    and db.api's statement cache serves every call with the same one."""
    text: str
    build: object
    static: bool = False

    def __str__(self):
        return self.text


@dataclasses.dataclass(frozen=True)
class Requirement:
    """A condition on other tables (or on a combination of columns).
    ``build(params)`` returns an SQL criterion, or None when the requirement
    does not apply to these parameters; ``text`` completes the sentence
    "volume ..." and may use ``%(param)s``."""
    text: str
    build: object

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


def _one_of(column, values):
    # One bind parameter per value: in_() of a plain list would make an
    # "expanding" parameter, whose SQL is rewritten at every execution.
    return column.in_([sa.literal(value) for value in values])


class SourceStatus(cond.Condition):
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

    def clause(self, model):
        column = cond.column_of(model, self.field)
        allowed = [_one_of(column, self.statuses)]
        for flag, statuses in self.flagged:
            allowed.append(sa.and_(_one_of(column, statuses),
                                   cond.column_of(model, flag)
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
        return cond.Expect(self.field, allowed).explain(status, what)


class LessThan(cond.Condition):
    """``field < bound``, explained as "volume size must be less than 5,
    it is 5"."""

    def __init__(self, field, bound):
        self.field = field
        self.expected = bound

    def __repr__(self):
        return 'LessThan(%s<%r)' % (self.field, self.expected)

    def clause(self, model):
        return cond.column_of(model, self.field) < self.expected

    def shape(self):
        return ('less_than', self.field)

    def with_expected(self, expected):
        return LessThan(self.field, expected)

    def actual(self, row):
        return row[self.field]

    def holds(self, actual):
        return actual is not None and actual < self.expected

    def explain(self, actual, what):
        return '%s %s must be less than %s, it is %s' % (
            what, self.field, self.expected, actual)


@dataclasses.dataclass(frozen=True)
class Bound:
    """Table form of :class:`LessThan` (the bound may be a Param)."""
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
class Transition:
    name: str
    resource: str                  # 'volume', 'snapshot' or 'attachment'
    summary: str
    source: tuple = None           # allowed statuses; None: any
    also: tuple = ()               # Also(...): statuses allowed when ...
    expect: dict = dataclasses.field(default_factory=dict)
    requires: tuple = ()           # Requirement / Bound / Unchanged
    values: dict = dataclasses.field(default_factory=dict)
    min_version: tuple = (3, 0)
    admin_only: bool = False
    http_status: int = 400         # the answer when a condition fails
    side: str = 'api'              # 'api' or 'worker'
    workers_row: str = None        # 'track', 'finish' or None
    lenient: bool = False          # a failed condition changes nothing
    #                                and is not an error (as in Cinder)


# -- building blocks of the table --------------------------------------------

def _attachments_of_volume(*criteria):
    return sa.exists().where(Attachment.volume_id == Volume.id,
                             Attachment.deleted == sa.false(), *criteria)


def _other_attachments(params, *criteria):
    """Attachments of the volume other than the one being removed."""
    return _attachments_of_volume(Attachment.id != params['attachment_id'],
                                  *criteria)


def _snapshots_of_volume(*criteria):
    return sa.exists().where(Snapshot.volume_id == Volume.id,
                             Snapshot.deleted == sa.false(), *criteria)


# Snapshots a cascade delete takes along; 'deleting' ones are on their way
# already (Cinder's "undeletable" test allows the three).
CASCADE_SNAPSHOT_STATUSES = ('available', 'error')
CASCADE_ALLOWED_STATUSES = CASCADE_SNAPSHOT_STATUSES + ('deleting',)

NO_SNAPSHOTS = Requirement(
    'must have no snapshots (or, with cascade, only snapshots that are '
    + ', '.join(CASCADE_ALLOWED_STATUSES) + ')',
    lambda p: ~_snapshots_of_volume(
        *([Snapshot.status.not_in(CASCADE_ALLOWED_STATUSES)]
          if p.get('cascade') else [])))

NO_ATTACHMENTS = Requirement(
    'must have no attachments',
    lambda p: ~_attachments_of_volume())

HAS_ATTACHMENT = Requirement(
    'must have attachment %(attachment_id)s',
    lambda p: _attachments_of_volume(Attachment.id == p['attachment_id']))


def _readonly_is_set():
    meta = models.VolumeAdminMetadata
    return sa.exists().where(meta.volume_id == Volume.id,
                             meta.key == 'readonly',
                             meta.value.in_(('True', 'true')))


NOT_READONLY_FOR_RW = Requirement(
    "must not be read-only to be attached in mode 'rw'",
    lambda p: ~_readonly_is_set() if p.get('mode', 'rw') == 'rw' else None)

AVAILABLE_TO_CHANGE_MULTIATTACH = Requirement(
    "must be 'available' for a retype that changes multiattach",
    lambda p: Volume.status == 'available'
    if p.get('changes_multiattach') else None)

WHEN_MULTIATTACH = 'if the volume is multiattach'


def _since(version_tuple):
    def when(params, version):
        return version is None or version >= version_tuple
    return when


def _forced(params, version):
    return bool(params.get('force'))


# "in-use" if attachments in ``statuses`` remain, else ``else_``: the status
# of a volume after an attachment leaves or a reservation is dropped.
def _status_after_detach(params):
    return cond.Case(
        [(_other_attachments(params, Attachment.attach_status == 'attached'),
          'in-use')], else_='available')


def _attach_status_after_detach(params):
    return cond.Case(
        [(_other_attachments(params, Attachment.attach_status == 'attached'),
          'attached')], else_='detached')


def _status_after_attachment_delete(params):
    # Cinder's order: attached > attaching > detaching > reserved.
    ranks = [('attached', 'in-use'), ('attaching', 'attaching'),
             ('detaching', 'detaching'), ('reserved', 'reserved')]
    return cond.Case(
        [(_other_attachments(params, Attachment.attach_status == status),
          volume_status) for status, volume_status in ranks],
        else_='available')


def _previous_attached_status(params):
    return cond.Case([(Volume.previous_status == 'in-use', 'in-use')],
                     else_='available')


def _type_is_multiattach(params):
    return volume_type.multiattach_criterion(params['volume_type_id'])


STATUS_AFTER_UNRESERVE = Computed(
    "'in-use' if it has attached attachments, else 'available'",
    lambda p: cond.Case([(_attachments_of_volume(
        Attachment.attach_status == 'attached'), 'in-use')],
        else_='available'), static=True)
STATUS_AFTER_DETACH = Computed(
    "'in-use' if other attached attachments remain, else 'available'",
    _status_after_detach)
ATTACH_STATUS_AFTER_DETACH = Computed(
    "'attached' if other attached attachments remain, else 'detached'",
    _attach_status_after_detach)
STATUS_AFTER_ATTACHMENT_DELETE = Computed(
    "from the other attachments: 'in-use' if one is attached, else "
    "'attaching', 'detaching', 'reserved' likewise, else 'available'",
    _status_after_attachment_delete)
PREVIOUS_ATTACHED_STATUS = Computed(
    "'in-use' if previous_status is 'in-use', else 'available'",
    _previous_attached_status, static=True)
OLD_STATUS = Computed('the status it had', lambda p: Volume.status,
                      static=True)
TYPE_MULTIATTACH = Computed(
    "whether the new type's extra spec multiattach is '<is> True'",
    _type_is_multiattach)


_DELETE_EXPECT = {'attach_status': cond.Not('attached'),
                  'migration_status': NOT_MIGRATING,
                  'consistencygroup_id': None,
                  'group_id': None}
_DELETE_VALUES = {'status': 'deleting', 'terminated_at': NOW}


# -- the table ------------------------------------------------------------------

_TABLE = [
    # Volumes: tenant/admin actions -------------------------------------------
    Transition(
        'delete', 'volume', 'DELETE /volumes/{id}: start deleting',
        source=('available', 'error', 'error_restoring', 'error_extending',
                'error_managing'),
        expect=_DELETE_EXPECT,
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=_DELETE_VALUES,
        workers_row='track'),
    Transition(
        'force_delete', 'volume',
        'DELETE /volumes/{id}?force=true: start deleting from any status',
        expect=dict({'status': cond.Not('deleting')}, **_DELETE_EXPECT),
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=_DELETE_VALUES,
        min_version=(3, 23), admin_only=True,
        workers_row='track'),
    Transition(
        'extend', 'volume', 'os-extend: start growing the volume',
        source=('available',),
        also=(Also(('in-use',), 'from microversion 3.42', _since((3, 42))),),
        requires=(Bound('size', Param('new_size')), Unchanged('size')),
        values={'status': 'extending', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'reserve', 'volume', 'os-reserve: hold the volume for an attach',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        values={'status': 'attaching'}),
    Transition(
        'unreserve', 'volume', 'os-unreserve: drop the hold',
        source=('attaching',),
        values={'status': STATUS_AFTER_UNRESERVE},
        lenient=True),
    Transition(
        'begin_detaching', 'volume', 'os-begin_detaching',
        source=('in-use',),
        expect={'attach_status': 'attached',
                'migration_status': NOT_MIGRATING},
        values={'status': 'detaching'}),
    Transition(
        'roll_detaching', 'volume', 'os-roll_detaching: detach abandoned',
        source=('detaching',),
        values={'status': 'in-use'},
        lenient=True),
    Transition(
        'attach', 'volume',
        'os-attach: record an attachment (inserted in the same transaction)',
        source=('attaching', 'available'),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        requires=(NOT_READONLY_FOR_RW,),
        values={'status': 'in-use', 'attach_status': 'attached'}),
    Transition(
        'detach', 'volume',
        'os-detach: remove an attachment (attachment_remove in the same '
        'transaction)',
        source=('detaching', 'in-use'),
        expect={'attach_status': 'attached'},
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_DETACH,
                'attach_status': ATTACH_STATUS_AFTER_DETACH}),
    Transition(
        'reset_status', 'volume',
        'os-reset_status: set the statuses given, whatever they are',
        values={'status': Param('status', optional=True),
                'attach_status': Param('attach_status', optional=True),
                'migration_status': Param('migration_status', optional=True)},
        admin_only=True,
        workers_row='finish'),
    Transition(
        'retype', 'volume', 'os-retype: change the type on the same backend',
        source=('available', 'in-use'),
        expect={'migration_status': NOT_MIGRATING,
                'consistencygroup_id': None,
                'group_id': None,
                'volume_type_id': cond.Not(Param('new_type_id'))},
        requires=(AVAILABLE_TO_CHANGE_MULTIATTACH,),
        values={'status': 'retyping', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'update_readonly_flag', 'volume',
        "os-update_readonly_flag: set admin metadata 'readonly' (upserted in "
        "the same transaction)",
        source=('available',),
        values={}),
    Transition(
        'snapshot_create', 'volume',
        'POST /snapshots: the snapshot row is inserted in the same '
        'transaction, so a concurrent delete cannot pass "no snapshots"',
        source=('available',),
        also=(Also(('in-use',), 'with force', _forced),),
        expect={'migration_status': NOT_MIGRATING,
                'host': cond.Not(None)},
        # The snapshot row copies them from the volume the request loaded.
        requires=(Unchanged('size'), Unchanged('volume_type_id')),
        values={}),
    # Volumes: the attachments API (3.27+) ---------------------------------
    Transition(
        'attachment_reserve', 'volume',
        'POST /attachments without connector: the attachment row '
        '(reserved) is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        values={'status': 'reserved'},
        min_version=(3, 27)),
    Transition(
        'attachment_attach', 'volume',
        'POST /attachments with a connector: the attachment row (attaching) '
        'is inserted in the same transaction',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        values={'status': 'attaching'},
        min_version=(3, 27)),
    Transition(
        'attachment_update', 'volume',
        'PUT /attachments/{id} with a connector (with attachment_connect)',
        source=('reserved', 'attaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'attaching'},
        min_version=(3, 27)),
    Transition(
        'attachment_complete', 'volume',
        'os-complete: the volume is attached (with attachment_attached)',
        source=('attaching', 'reserved', 'in-use'),
        requires=(HAS_ATTACHMENT,),
        values={'status': 'in-use', 'attach_status': 'attached'},
        min_version=(3, 44)),
    Transition(
        'attachment_delete', 'volume',
        'DELETE /attachments/{id} (with attachment_remove)',
        source=('available', 'reserved', 'attaching', 'in-use', 'detaching',
                'error_attaching', 'error_detaching'),
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_ATTACHMENT_DELETE,
                'attach_status': ATTACH_STATUS_AFTER_DETACH},
        min_version=(3, 27)),
    # Attachments ------------------------------------------------------------
    Transition(
        'attachment_connect', 'attachment',
        'PUT /attachments/{id}: store the connector before the worker '
        'initializes the connection',
        source=('reserved', 'attaching'),
        values={'attach_status': 'attaching',
                'connector': Param('connector'),
                'attached_host': Param('attached_host', optional=True),
                'mountpoint': Param('mountpoint', optional=True),
                'attach_mode': Param('attach_mode', optional=True)},
        min_version=(3, 27)),
    Transition(
        'attachment_connected', 'attachment',
        "store the worker's connection_info",
        source=('attaching',),
        requires=(Unchanged('connector'),),
        values={'connection_info': Param('connection_info')},
        min_version=(3, 27)),
    Transition(
        'attachment_attached', 'attachment',
        'os-complete: the consumer has connected',
        source=('attaching',),
        values={'attach_status': 'attached', 'attach_time': NOW},
        min_version=(3, 44)),
    Transition(
        'attachment_remove', 'attachment',
        'os-detach / DELETE /attachments/{id}: soft-delete the attachment',
        values={'attach_status': 'detached', 'detach_time': NOW,
                'deleted': True, 'deleted_at': NOW}),
    # Snapshots ----------------------------------------------------------------
    Transition(
        'snapshot_delete', 'snapshot', 'DELETE /snapshots/{id}',
        source=('available', 'error'),
        values={'status': 'deleting'},
        workers_row='track'),
    Transition(
        'snapshot_force_delete', 'snapshot',
        'os-force_delete: start deleting from any status',
        expect={'status': cond.Not('deleting')},
        values={'status': 'deleting'},
        admin_only=True,
        workers_row='track'),
    Transition(
        'snapshot_reset_status', 'snapshot',
        'os-reset_status: set the status given, whatever it is',
        values={'status': Param('status')},
        admin_only=True,
        workers_row='finish'),
    Transition(
        'snapshot_cascade_delete', 'snapshot',
        'DELETE /volumes/{id}?cascade=true takes each snapshot along',
        source=CASCADE_SNAPSHOT_STATUSES,
        values={'status': 'deleting'},
        workers_row='track'),
    # Worker side: the volume manager finishes what the API started ------
    Transition(
        'create_done', 'volume', 'the backend made the volume',
        source=('creating',),
        values={'status': 'available',
                'host': Param('host', optional=True),
                'provider_location': Param('provider_location',
                                           optional=True),
                'launched_at': Param('launched_at', default=NOW)},
        side='worker', workers_row='finish'),
    Transition(
        'create_failed', 'volume', 'the backend could not make the volume',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'extend_done', 'volume', 'the backend grew the volume',
        source=('extending',),
        values={'status': PREVIOUS_ATTACHED_STATUS, 'size': Param('size')},
        side='worker', workers_row='finish'),
    Transition(
        'extend_failed', 'volume', 'the backend could not grow the volume',
        source=('extending',),
        values={'status': 'error_extending'},
        side='worker', workers_row='finish'),
    Transition(
        'delete_done', 'volume', 'the backend removed the volume',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'delete_failed', 'volume', 'the backend could not remove the volume',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
    Transition(
        'retype_done', 'volume', 'the backend applied the new type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS,
                'volume_type_id': Param('volume_type_id'),
                'multiattach': TYPE_MULTIATTACH},
        side='worker', workers_row='finish'),
    Transition(
        'retype_failed', 'volume', 'the backend could not apply the type',
        source=('retyping',),
        values={'status': PREVIOUS_ATTACHED_STATUS},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_create_done', 'snapshot', 'the backend made the snapshot',
        source=('creating',),
        values={'status': 'available', 'progress': '100%',
                'provider_location': Param('provider_location',
                                           optional=True)},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_create_failed', 'snapshot',
        'the backend could not make the snapshot',
        source=('creating',),
        values={'status': 'error'},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_delete_done', 'snapshot', 'the backend removed the snapshot',
        source=('deleting',),
        values={'status': 'deleted', 'deleted': True, 'deleted_at': NOW},
        side='worker', workers_row='finish'),
    Transition(
        'snapshot_delete_failed', 'snapshot',
        'the backend could not remove the snapshot',
        source=('deleting',),
        values={'status': 'error_deleting'},
        side='worker', workers_row='finish'),
]

TRANSITIONS = {t.name: t for t in _TABLE}

# A ``workers`` row (resource_type, status) left by a dead worker -> the
# transition that repairs its resource. For 'deleting' the cleanup may
# instead cast the delete again (the status already says "deleting").
CLEANUP = {
    ('Volume', 'creating'): 'create_failed',
    ('Volume', 'extending'): 'extend_failed',
    ('Volume', 'deleting'): 'delete_failed',
    ('Volume', 'retyping'): 'retype_failed',
    ('Snapshot', 'creating'): 'snapshot_create_failed',
    ('Snapshot', 'deleting'): 'snapshot_delete_failed',
}


# -- errors ------------------------------------------------------------------------

class TransitionRefused(db_exc.ConditionNotMet):
    """A condition of ``transition`` does not hold (see ConditionNotMet)."""

    def __init__(self, transition, failure):
        self.transition = transition
        super().__init__(failure.condition, failure.actual, failure.what)


class NotAllowed(Exception):
    """The caller may not ask for this transition (admin only)."""

    def __init__(self, transition):
        self.transition = transition
        super().__init__('Policy does not allow %s to be performed.'
                         % transition.name)


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
    """Raise NotAvailable/NotAllowed if the request cannot ask for it."""
    if version is not None and tuple(version) < transition.min_version:
        raise NotAvailable(transition, version)
    if transition.admin_only and not getattr(context, 'is_admin', False):
        raise NotAllowed(transition)


def _resolve(value, obj, params):
    """A table value with its Params/Loaded/NOW replaced for this call;
    ``_SKIP`` for an optional Param not given."""
    if isinstance(value, Param):
        if value.name in params:
            return params[value.name]
        if value.optional:
            return _SKIP
        if value.default is _REQUIRED:
            raise TypeError('transition needs the parameter %r' % value.name)
        return _resolve(value.default, obj, params)
    if isinstance(value, Loaded):
        return _db_value(getattr(obj, value.field))
    if value is NOW:
        return timeutils.utcnow()
    if isinstance(value, Computed):
        return _static_sql(value) if value.static else value.build(params)
    if isinstance(value, cond.Not):
        return cond.Not(_resolve(value.value, obj, params), value.auto_none)
    return value


_SKIP = object()


@functools.lru_cache(maxsize=None)
def _static_sql(computed):
    return computed.build({})


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
    return _source_condition(field, tuple(statuses), tuple(flagged))


@functools.lru_cache(maxsize=None)
def _source_condition(field, statuses, flagged):
    # One object per distinct condition: db.api caches the statement of a
    # condition class of its own by the object's identity.
    if flagged:
        return SourceStatus(field, statuses, flagged)
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

    def execute(self, context):
        """The compare-and-swap and its workers-row bookkeeping; must run
        inside a transaction (see :func:`run`). True if the row changed;
        False only for a lenient transition whose condition failed."""
        t = self.transition
        try:
            self.obj.conditional_update_or_raise(
                dict(self.values), expected_values={},
                filters=list(self.conditions), reflect_changes=self.reflect)
        except db_exc.ConditionNotMet as failure:
            if t.lenient:
                return False
            raise TransitionRefused(t, failure) from None
        if t.workers_row == 'track':
            track_worker(context, t.resource, self.obj.id,
                         self.values['status'])
        elif t.workers_row == 'finish':
            finish_worker(context, t.resource, self.obj.id)
        return True


def _requirement_condition(requirement, obj, params):
    if isinstance(requirement, Bound):
        return LessThan(requirement.field,
                        _resolve(requirement.bound, obj, params))
    if isinstance(requirement, Unchanged):
        return cond.Expect(requirement.field,
                           _resolve(Loaded(requirement.field), obj, params))
    criterion = requirement.build(params)
    if criterion is None:
        return None
    return cond.Filter(criterion, requirement.text % params)


def prepare(context, name, obj, version=None, reflect=True, **params):
    """Compile transition ``name`` for ``obj`` with ``params``.

    ``version`` is the request's microversion (None for internal callers,
    who are not bound by microversions or admin rules). With ``reflect``
    False, ``obj`` is left as it was loaded (for callers that do not read
    it afterwards)."""
    transition = TRANSITIONS[name]
    if version is not None:
        check_allowed(context, transition, version)
    conditions = []
    source = source_condition(transition, params, version)
    if source is not None:
        conditions.append(source)
    for field, value in transition.expect.items():
        conditions.append(cond.Expect(field, _resolve(value, obj, params)))
    for requirement in transition.requires:
        condition = _requirement_condition(requirement, obj, params)
        if condition is not None:
            conditions.append(condition)
    values = {}
    for field, value in transition.values.items():
        resolved = _resolve(value, obj, params)
        if resolved is not _SKIP:
            values[field] = resolved
    return Step(transition, obj, values, conditions, reflect)


def run(context, *actions):
    """Run steps (and callables ``fn(context)``) in ONE transaction, retried
    as a whole on deadlock/serialization failure. Returns the results."""
    return _transaction(context, actions)


@db_api.retry_on_deadlock  # decorated once: decorating costs per call
def _transaction(context, actions):
    with session.writer.connection.using(context):
        return [a.execute(context) if isinstance(a, Step) else a(context)
                for a in actions]


MODELS = {'volume': Volume, 'snapshot': Snapshot, 'attachment': Attachment}


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
READ_FREE = frozenset(name for name, transition in TRANSITIONS.items()
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
    transition = TRANSITIONS[name]
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


# -- workers rows ----------------------------------------------------------------

def track_worker(context, resource, resource_id, status):
    """Upsert the ``workers`` row of a resource entering a transient
    status. Callers hold the resource's row (their compare-and-swap just
    changed it), so no one else upserts this row concurrently."""
    table = models.Worker.__table__
    now = timeutils.utcnow()
    resource_type = WORKER_TYPES[resource]
    with session.writer.connection.using(context) as conn:
        updated = conn.execute(
            table.update()
            .where(table.c.resource_type == resource_type,
                   table.c.resource_id == resource_id)
            .values(status=status, service_id=None, cleaning=False,
                    race_preventer=table.c.race_preventer + 1,
                    updated_at=now)).rowcount
        if not updated:
            conn.execute(table.insert().values(
                resource_type=resource_type, resource_id=resource_id,
                status=status, service_id=None, cleaning=False,
                race_preventer=0, created_at=now, updated_at=now))


def finish_worker(context, resource, resource_id):
    """Delete the ``workers`` row of a resource leaving a transient status."""
    table = models.Worker.__table__
    with session.writer.connection.using(context) as conn:
        conn.execute(table.delete().where(
            table.c.resource_type == WORKER_TYPES[resource],
            table.c.resource_id == resource_id))


# -- documentation ---------------------------------------------------------------

def _describe(value):
    if isinstance(value, str):
        return "'%s'" % value
    if isinstance(value, cond.Not):
        inner = value.value
        if inner is None:
            return 'set'
        return 'not %s' % _describe(inner)
    if isinstance(value, (tuple, list)):
        return 'one of ' + ', '.join(_describe(v) for v in value)
    if value is None:
        return 'unset'
    return str(value)


def _describe_value(value):
    if isinstance(value, Param):
        if value.optional:
            return '%s if given' % value
        if value.default is not _REQUIRED:
            return '%s (default %s)' % (value, _describe(value.default))
    return _describe(value)


def _sources(transition):
    if transition.source is None:
        return 'any'
    text = ', '.join(transition.source)
    for also in transition.also:
        text += '; also %s %s' % (', '.join(also.statuses), also.text)
    return text


def _conditions(transition):
    parts = ['%s %s' % (field, _describe(value))
             for field, value in transition.expect.items()]
    parts += [re.sub(r'%\((\w+)\)s', r'<\1>', str(r))
              for r in transition.requires]
    if transition.lenient:
        parts.append('(if not met: nothing changes, no error)')
    return '; '.join(parts) or '-'


def _targets(transition):
    parts = ['%s = %s' % (field, _describe_value(value))
             for field, value in transition.values.items()]
    return '; '.join(parts) or '(only updated_at: the row is held)'


def _workers(transition):
    return {'track': 'upsert', 'finish': 'delete'}.get(
        transition.workers_row, '-')


def markdown():
    """The Markdown reference of the table (doc/transitions.md)."""
    lines = [
        '# Volume state machine',
        '',
        'Generated by `python -m volapi.volume.transitions` from '
        '`volapi/volume/transitions.py`; do not edit.',
        '',
        'Every transition is one compare-and-swap of the resource row: '
        '`UPDATE ... SET <to> WHERE id = ... AND <from> AND <conditions>`. '
        'When it matches no row the same conditions are re-checked against '
        'the row to name the one that failed, e.g. `Invalid volume: volume '
        "status must be 'available', it is 'in-use'` (HTTP 400). "
        'A transition whose workers column says *upsert* writes the '
        "resource's `workers` row in the same transaction; *delete* removes "
        'it.',
        '',
    ]
    for side, title in (('api', 'Requested through the API'),
                        ('worker', 'Finished by the volume manager')):
        lines += ['## %s' % title, '',
                  '| transition | resource | what | from status | conditions '
                  '| to | min version | admin | HTTP error | workers row |',
                  '|---|---|---|---|---|---|---|---|---|---|']
        for t in _TABLE:
            if t.side != side:
                continue
            api = t.side == 'api'
            cells = [
                '`%s`' % t.name, t.resource, t.summary, _sources(t),
                _conditions(t), _targets(t),
                format_version(t.min_version) if api else '-',
                'yes' if t.admin_only else '',
                str(t.http_status) if api else '-', _workers(t)]
            lines.append('| %s |' % ' | '.join(
                c.replace('|', '\\|') for c in cells))
        lines.append('')
    lines += ['## Cleanup of rows left by a dead worker', '',
              '| workers row (resource_type, status) | repaired by |',
              '|---|---|']
    for (resource_type, status), name in CLEANUP.items():
        lines.append('| %s, %s | `%s` |' % (resource_type, status, name))
    lines += ['', "A `deleting` row may instead have its delete cast again.",
              '']
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.stdout.write(markdown())
