"""The building blocks the transition table's rows are written with: SQL
criteria (:class:`Criterion`), computed values (:class:`Computed`) and the
conditions on a request's version. Only data, as the table is."""
import sqlalchemy as sa

from db import conditions as cond
from db import models
from objects import service as service_obj
from objects import volume_type
from volapi.volume.transitions.vocabulary import Computed
from volapi.volume.transitions.vocabulary import Criterion
from volapi.volume.transitions.vocabulary import Param

Volume = models.Volume
Snapshot = models.Snapshot
Attachment = models.VolumeAttachment
Backup = models.Backup
Worker = models.Worker
Service = models.Service


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

NO_SNAPSHOTS = Criterion(
    'must have no snapshots (or, with cascade, only snapshots that are '
    + ', '.join(CASCADE_ALLOWED_STATUSES) + ')',
    lambda p: ~_snapshots_of_volume(
        *([Snapshot.status.not_in(CASCADE_ALLOWED_STATUSES)]
          if p['cascade'] else [])),
    shaped=('cascade',))

NO_ATTACHMENTS = Criterion(
    'must have no attachments',
    lambda p: ~_attachments_of_volume())

HAS_ATTACHMENT = Criterion(
    'must have attachment %(attachment_id)s',
    lambda p: _attachments_of_volume(Attachment.id == p['attachment_id']),
    bound=('attachment_id',))


def _readonly_is_set():
    meta = models.VolumeAdminMetadata
    return sa.exists().where(meta.volume_id == Volume.id,
                             meta.key == 'readonly',
                             meta.value.in_(('True', 'true')))


NOT_READONLY_FOR_RW = Criterion(
    "must not be read-only to be attached in mode 'rw'",
    lambda p: ~_readonly_is_set(),
    applies=lambda p: p.get('mode', 'rw') == 'rw')

# ``multiattach``: the new type's (the API always gives it). Whether the
# retype changes it is decided on the row the UPDATE changes, not on what
# the request read.
AVAILABLE_TO_CHANGE_MULTIATTACH = Criterion(
    "must be 'available' for a retype that changes multiattach",
    lambda p: sa.or_(Volume.status == 'available',
                     Volume.multiattach == p['multiattach']),
    bound=('multiattach',), applies=lambda p: 'multiattach' in p)

# A retype in place was found possible on the pool the volume was on when
# the request read it (``planned_host``; the API always gives it): the
# volume must still be there.
ON_PLANNED_POOL = Criterion(
    'must still be on the pool the retype was planned for',
    lambda p: Volume.host.is_not_distinct_from(p['planned_host']),
    bound=('planned_host',), applies=lambda p: 'planned_host' in p)

# DELETE /attachments chose attachment_remove, with no connection to
# terminate, on the connector it loaded (``unconnected``): none was given
# to the attachment since.
NOT_CONNECTED = Criterion(
    'must have no connector (a connection to terminate)',
    lambda p: Attachment.connector.is_(None),
    applies=lambda p: bool(p.get('unconnected')))

# A clone is made at a size chosen against the source's size as the
# request read it (``clone_size``): the source must not have grown since.
NO_BIGGER_THAN_CLONE = Criterion(
    'must be no bigger than the volume made from it (%(clone_size)sGB)',
    lambda p: Volume.size <= p['clone_size'],
    bound=('clone_size',), applies=lambda p: 'clone_size' in p)

# A migration's destination was chosen for the type the volume had when
# the request read it (``planned_type_id``; the API always gives it).
OF_PLANNED_TYPE = Criterion(
    'must still have the type the move was planned for',
    lambda p: Volume.volume_type_id.is_not_distinct_from(
        p['planned_type_id']),
    bound=('planned_type_id',), applies=lambda p: 'planned_type_id' in p)

WHEN_MULTIATTACH = 'if the volume is multiattach'

ELSEWHERE = Criterion(
    'must be on another host than the destination',
    lambda p: Volume.host != p['dest_host'], bound=('dest_host',))


def since(version_tuple):
    def when(params, version):
        return version is None or version >= version_tuple
    return when


def forced(params, version):
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
        else_='available'))
STATUS_AFTER_DETACH = Computed(
    "'in-use' if other attached attachments remain, else 'available'",
    _status_after_detach, bound=('attachment_id',))
ATTACH_STATUS_AFTER_DETACH = Computed(
    "'attached' if other attached attachments remain, else 'detached'",
    _attach_status_after_detach, bound=('attachment_id',))
STATUS_AFTER_ATTACHMENT_DELETE = Computed(
    "from the other attachments: 'in-use' if one is attached, else "
    "'attaching', 'detaching', 'reserved' likewise, else 'available'",
    _status_after_attachment_delete, bound=('attachment_id',))
PREVIOUS_ATTACHED_STATUS = Computed(
    "'in-use' if previous_status is 'in-use', else 'available'",
    _previous_attached_status)
OLD_STATUS = Computed('the status it had', lambda p: Volume.status)
TYPE_MULTIATTACH = Computed(
    "whether the new type's extra spec multiattach is '<is> True'",
    _type_is_multiattach, bound=('volume_type_id',))


# A source of a new volume is held, not changed: the swap writes its
# updated_at as it was, which is enough to conflict with a concurrent delete.
SNAPSHOT_HELD = Computed('unchanged (the row is held)',
                         lambda p: Snapshot.updated_at)
VOLUME_HELD = Computed('unchanged (the row is held)',
                       lambda p: Volume.updated_at)
NAME_VALUES = {
    'display_name': Param('display_name', optional=True),
    'display_description': Param('display_description', optional=True)}


# Holds nobody finished (volapi.volume.holds): the row has not changed
# since the cutoff, decided in the compare-and-swap's WHERE, so a hold
# touched or completed meanwhile is left alone.
VOLUME_HOLD_EXPIRED = Criterion(
    'must not have changed since %(hold_cutoff)s',
    lambda p: cond.changed_before(Volume, p['hold_cutoff']),
    bound=('hold_cutoff',))
ATTACHMENT_HOLD_EXPIRED = Criterion(
    'must not have changed since %(hold_cutoff)s',
    lambda p: cond.changed_before(Attachment, p['hold_cutoff']),
    bound=('hold_cutoff',))
NO_ATTACHMENT_BEING_MADE = Criterion(
    "must have no attachment 'reserved' or 'attaching' (each expires on "
    "its own)",
    lambda p: ~_attachments_of_volume(
        Attachment.attach_status.in_(('reserved', 'attaching'))))

# A volume is offered with its snapshots unless the transfer says
# no_snapshots: then they must all be 'available' (Cinder's check, here in
# the compare-and-swap's WHERE).
SNAPSHOTS_AVAILABLE = Criterion(
    "must have only 'available' snapshots to be transferred with them",
    lambda p: ~_snapshots_of_volume(Snapshot.status != 'available'),
    applies=lambda p: not p.get('no_snapshots'))


def _volumes_restored():
    """A volume made from the backup still 'creating': its restore is in
    flight."""
    return sa.exists().where(Volume.backup_id == Backup.id,
                             Volume.status == 'creating',
                             Volume.deleted == sa.false())


def _restored():
    """The backup's own restore (POST /backups/{id}/restore) is in flight:
    its workers row says so."""
    return sa.exists().where(Worker.resource_type == 'Backup',
                             Worker.resource_id == Backup.id,
                             Worker.status == 'restoring')


# Several restores of one backup may be in flight (volumes made from it,
# and one restore of its own): the one that ends last makes it available.
# Decided on the rows the ending transaction sees, its own changes
# included.
AFTER_OWN_RESTORE = Computed(
    "'restoring' while a volume made from it is still 'creating', else "
    "'available'",
    lambda p: sa.case((_volumes_restored(), 'restoring'),
                      else_='available'))
AFTER_RESTORE = Computed(
    "'restoring' while another restore of it is in flight (a volume made "
    "from it still 'creating', or its own restore), else 'available'",
    lambda p: sa.case((sa.or_(_volumes_restored(), _restored()),
                       'restoring'), else_='available'))


# An incremental backup counts in its parent's row (Cinder's
# num_dependent_backups): the parent's delete requires none, decided on
# the row the UPDATE changes, which the child's insert wrote.
NO_DEPENDENTS = Criterion(
    'must have no incremental backups depending on it',
    lambda p: Backup.num_dependent_backups == 0)
ONE_MORE_DEPENDENT = Computed('one more',
                              lambda p: Backup.num_dependent_backups + 1)
ONE_DEPENDENT_LESS = Computed('one less',
                              lambda p: Backup.num_dependent_backups - 1)


# A frozen backend (os-services/freeze): Cinder's assert_not_frozen, here
# a condition on the services rows in the swap's WHERE, so a freeze that
# commits first refuses the operation.
FROZEN_REFUSAL = ('Invalid input received: Modification operations are '
                  'not allowed on frozen storage backends.')


def _is_on(location, server):
    """SQL: ``location`` (``host@backend#pool``, or a cluster's) is on
    ``server`` (``host@backend``), compared exactly (no LIKE: a name may
    hold '_')."""
    return sa.or_(location == server, sa.func.substr(
        location, 1, sa.func.char_length(server) + 1) == server + '#')


def _backend_frozen():
    """SQL: a live volume service of ``Volume``'s backend (its cluster's
    where it has one, else its host's) is frozen (Cinder's
    is_backend_frozen). The services rows are read with a share lock, so
    the swap sees a freeze committed after its transaction began: on
    PostgreSQL, whose snapshot would hide it, the lock fails as a
    serialization failure and the transaction runs again; on MySQL the
    explanation's read sees what the UPDATE saw."""
    backend_services = sa.select(Service.frozen).where(
        Service.deleted == sa.false(),
        Service.binary == service_obj.VOLUME_BINARY,
        sa.or_(sa.and_(Volume.cluster_name.is_not(None),
                       _is_on(Volume.cluster_name, Service.cluster_name)),
               sa.and_(Volume.cluster_name.is_(None),
                       _is_on(Volume.host, Service.host))))
    # Every service of the backend is locked, frozen or not: a lock only
    # takes the rows the subquery returns.
    return sa.true().in_(backend_services.with_for_update(read=True))


NOT_FROZEN = Criterion(
    'must not be on a frozen backend',
    lambda p: ~_backend_frozen(), refusal=FROZEN_REFUSAL,
    # A snapshot being managed is not made (Cinder checks no freeze).
    applies=lambda p: not p.get('manage'))
# A snapshot's backend is its volume's.
SNAPSHOT_NOT_FROZEN = Criterion(
    'must not be on a frozen backend',
    lambda p: ~sa.exists().where(Volume.id == Snapshot.volume_id,
                                 _backend_frozen()).correlate(Snapshot),
    refusal=FROZEN_REFUSAL)
