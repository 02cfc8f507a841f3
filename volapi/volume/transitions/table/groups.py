"""Generic volume groups (/groups, 3.13+): a group and the volumes it
holds. A volume joins or leaves a group by one compare-and-swap of its
``group_id``, in the transaction that also holds the group's row (so a
group delete, which swaps that row, conflicts with it instead of missing
the volume); the group's volumes share one pool, the group's ``host``,
set by its first volume."""
import sqlalchemy as sa

from db import conditions as cond
from db import models
from volapi.api import microversion as mv
from volapi.policies import groups as group_policies
from volapi.volume.transitions.blocks import NO_ATTACHMENTS
from volapi.volume.transitions.blocks import NO_SNAPSHOTS
from volapi.volume.transitions.vocabulary import Computed
from volapi.volume.transitions.vocabulary import Criterion
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition

Group = models.Group
Volume = models.Volume
Mapping = models.GroupVolumeTypeMapping
Snapshot = models.Snapshot
GroupSnapshot = models.GroupSnapshot
Attachment = models.VolumeAttachment

# Cinder's VALID_REMOVE_VOL_FROM_GROUP_STATUS.
REMOVE_STATUSES = ('available', 'in-use', 'error', 'error_deleting')
# A group may be deleted from these (Cinder's, without delete-volumes).
DELETE_STATUSES = ('available', 'error')
# A group's volume its delete takes along: none that an operation is
# using (an attach reserving it, an extend ...).
VOLUME_DELETE_STATUSES = ('available', 'error', 'error_restoring',
                          'error_extending', 'error_managing',
                          'error_deleting')


def _volumes_of_group(*criteria):
    return sa.exists().where(Volume.group_id == Group.id,
                             Volume.deleted == sa.false(), *criteria)


ON_GROUP_POOL = Criterion(
    'must have no pool yet or the pool %(host)s',
    lambda p: sa.or_(Group.host.is_(None), Group.host == p['host']),
    bound=('host',))

SERVES_VOLUME_TYPE = Criterion(
    'must allow the volume type %(volume_type_id)s',
    lambda p: sa.exists().where(Mapping.group_id == Group.id,
                                Mapping.volume_type_id ==
                                p['volume_type_id']),
    bound=('volume_type_id',))

# The group's pool: the first volume's.
POOL_OF_FIRST_VOLUME = Computed(
    "the group's pool, else the volume's",
    lambda p: sa.func.coalesce(Group.host, p['host']), bound=('host',))

# Cinder's "Group has existing snapshots": its group snapshots go first.
NO_GROUP_SNAPSHOTS = Criterion(
    'must have no group snapshots',
    lambda p: ~sa.exists().where(GroupSnapshot.group_id == Group.id,
                                 GroupSnapshot.deleted == sa.false()))

NO_VOLUMES = Criterion(
    'must have no volumes (delete-volumes deletes them)',
    lambda p: ~_volumes_of_group())

# As many live volumes as the delete moves to deleting in its transaction
# (each of those swaps requires the volume in the group): so none but
# them, in one statement shape whatever the volumes.
ONLY_LISTED_VOLUMES = Criterion(
    'must have no volumes but those being deleted with it',
    lambda p: sa.select(sa.func.count()).where(
        Volume.group_id == Group.id,
        Volume.deleted == sa.false()).scalar_subquery() ==
    p['volume_count'],
    bound=('volume_count',))

NO_VOLUME_ATTACHED_OR_WITH_SNAPSHOTS = Criterion(
    'must have no attached volume and no volume with snapshots',
    lambda p: ~_volumes_of_group(sa.or_(
        Volume.attach_status == 'attached',
        sa.exists().where(Attachment.volume_id == Volume.id,
                          Attachment.deleted == sa.false()),
        sa.exists().where(Snapshot.volume_id == Volume.id,
                          Snapshot.deleted == sa.false()))))

# The volume's side: the group it joins is live and available.
GROUP_LIVE_AND_AVAILABLE = Criterion(
    'must join a live, available group allowing its type',
    lambda p: sa.exists().where(
        Group.id == p['group_id'], Group.deleted == sa.false(),
        Group.status == 'available',
        sa.exists().where(Mapping.group_id == Group.id,
                          Mapping.volume_type_id == Volume.volume_type_id)),
    bound=('group_id',))

DELETED_VALUES = {'status': 'deleted', 'deleted': True, 'deleted_at': NOW}

TABLE = [
    Transition(
        'group_create', 'group',
        'POST /groups: insert the group (available at once: the file '
        'driver has nothing to make) with its volume types, its quota and '
        'a write of its group type that a type delete conflicts with',
        values={'status': 'available'},
        min_version=mv.GROUP_VOLUME, creates=True),
    Transition(
        'group_update', 'group',
        'PUT /groups/{id}: rename, describe',
        values={'name': Param('group_name', optional=True),
                'description': Param('group_description', optional=True),
                'updated_at': NOW},
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_hold', 'group',
        'a volume joins the group (created in it, or added): the group is '
        'held in the same transaction and takes the pool of its first '
        'volume',
        source=('available',),
        requires=(ON_GROUP_POOL, SERVES_VOLUME_TYPE),
        values={'host': POOL_OF_FIRST_VOLUME, 'updated_at': NOW},
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_touch', 'group',
        'a volume leaves the group, or is inserted in it without a pool '
        "(in 'error'): the group is held in the same transaction",
        source=('available',),
        values={'updated_at': NOW},
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_add_volume', 'volume',
        'PUT /groups/{id} add_volumes: the volume joins the group',
        source=('available',),
        expect={'group_id': None, 'consistencygroup_id': None,
                'host': Param('host')},
        requires=(GROUP_LIVE_AND_AVAILABLE,),
        values={'group_id': Param('group_id')},
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_remove_volume', 'volume',
        'PUT /groups/{id} remove_volumes: the volume leaves the group',
        source=REMOVE_STATUSES,
        expect={'group_id': Param('group_id')},
        values={'group_id': None},
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_reset_status', 'group',
        'reset_status (3.20, admin): set the status given, whatever it is',
        values={'status': Param('status'), 'updated_at': NOW},
        min_version=mv.GROUP_VOLUME_RESET_STATUS,
        policy=group_policies.RESET_STATUS),
    Transition(
        'group_delete', 'group',
        'POST /groups/{id}/action delete: the group goes (nothing to '
        'remove on the file driver) and its quota is released',
        source=DELETE_STATUSES,
        requires=(NO_GROUP_SNAPSHOTS, NO_VOLUMES),
        values=DELETED_VALUES,
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_delete_with_volumes', 'group',
        'delete with delete-volumes: the group goes, in the transaction '
        'that moves each of its volumes to deleting (group_delete_volume)',
        source=DELETE_STATUSES,
        requires=(NO_GROUP_SNAPSHOTS, ONLY_LISTED_VOLUMES,
                  NO_VOLUME_ATTACHED_OR_WITH_SNAPSHOTS),
        values=DELETED_VALUES,
        min_version=mv.GROUP_VOLUME),
    Transition(
        'group_delete_volume', 'volume',
        'delete with delete-volumes: each volume of the group starts '
        'deleting',
        source=VOLUME_DELETE_STATUSES,
        expect={'attach_status': cond.Not('attached'),
                'group_id': Param('group_id')},
        requires=(NO_SNAPSHOTS, NO_ATTACHMENTS),
        values={'status': 'deleting', 'terminated_at': NOW},
        min_version=mv.GROUP_VOLUME,
        workers_row='track'),
]
