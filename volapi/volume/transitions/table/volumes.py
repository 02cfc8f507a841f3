"""Volumes: created, described and acted on through /volumes and their
actions (and the hold a new snapshot puts on its volume)."""
from db import conditions as cond
from volapi.api import microversion as mv
from volapi.policies import volume_actions as volume_action_policies
from volapi.policies import volumes as volume_policies
from volapi.volume.transitions.blocks import ATTACH_STATUS_AFTER_DETACH
from volapi.volume.transitions.blocks import AVAILABLE_TO_CHANGE_MULTIATTACH
from volapi.volume.transitions.blocks import ELSEWHERE
from volapi.volume.transitions.blocks import HAS_ATTACHMENT
from volapi.volume.transitions.blocks import NAME_VALUES
from volapi.volume.transitions.blocks import NOT_READONLY_FOR_RW
from volapi.volume.transitions.blocks import NO_ATTACHMENTS
from volapi.volume.transitions.blocks import NO_BIGGER_THAN_CLONE
from volapi.volume.transitions.blocks import NO_SNAPSHOTS
from volapi.volume.transitions.blocks import NOT_FROZEN
from volapi.volume.transitions.blocks import OF_PLANNED_TYPE
from volapi.volume.transitions.blocks import ON_PLANNED_POOL
from volapi.volume.transitions.blocks import OLD_STATUS
from volapi.volume.transitions.blocks import SNAPSHOT_HELD
from volapi.volume.transitions.blocks import STATUS_AFTER_ATTACHMENT_DELETE
from volapi.volume.transitions.blocks import STATUS_AFTER_DETACH
from volapi.volume.transitions.blocks import STATUS_AFTER_UNRESERVE
from volapi.volume.transitions.blocks import VOLUME_HELD
from volapi.volume.transitions.blocks import WHEN_MULTIATTACH
from volapi.volume.transitions.blocks import forced
from volapi.volume.transitions.blocks import since
from volapi.volume.transitions.vocabulary import Also
from volapi.volume.transitions.vocabulary import Bound
from volapi.volume.transitions.vocabulary import NOW
from volapi.volume.transitions.vocabulary import Param
from volapi.volume.transitions.vocabulary import Transition
from volapi.volume.transitions.vocabulary import Unchanged
from volapi.volume.transitions.table.shared import DELETE_EXPECT
from volapi.volume.transitions.table.shared import FROM_BACKUP
from volapi.volume.transitions.table.shared import NOT_MIGRATING


DELETE_VALUES = {'status': 'deleting', 'terminated_at': NOW}

# What an attach or detach may leave a volume in: os-force_detach takes it
# back from any of them (not in maintenance, as Cinder's detach).
FORCE_DETACH_STATUSES = ('available', 'reserved', 'attaching', 'in-use',
                         'detaching', 'error_attaching', 'error_detaching')

# A migration starts from an available volume that no snapshot, group or
# migration ties to its pool; its size is the one the claim moved.
MIGRATE_EXPECT = {'migration_status': NOT_MIGRATING,
                  'consistencygroup_id': None, 'group_id': None,
                  'host': cond.Not(None)}
MIGRATE_REQUIRES = (NO_SNAPSHOTS, ELSEWHERE, Unchanged('size'))
MIGRATE_VALUES = {'previous_status': OLD_STATUS,
                  'migration_status': 'migrating',
                  'migration_id': Param('migration_id')}


TABLE = [
    Transition(
        'create', 'volume',
        'POST /volumes: insert the volume and its metadata (with '
        'create_from_snapshot or create_from_volume for a source, and a '
        "write of the volume type's row that a concurrent type delete "
        'conflicts with, in the same transaction)',
        values={'status': 'creating', 'attach_status': 'detached'},
        creates=True, workers_row='track'),
    Transition(
        'create_no_pool', 'volume',
        'POST /volumes when no pool can hold the volume: insert it in '
        "'error', holding no pool, with a user message saying why",
        values={'status': 'error', 'attach_status': 'detached'},
        creates=True),
    Transition(
        'create_from_snapshot', 'snapshot',
        'POST /volumes from a snapshot: the snapshot is held while the '
        'volume is inserted, so a concurrent snapshot delete cannot pass',
        source=('available',),
        values={'updated_at': SNAPSHOT_HELD}),
    Transition(
        'create_from_volume', 'volume',
        'POST /volumes from a volume: the source volume is held while the '
        'clone is inserted, so a concurrent delete cannot pass',
        source=('available', 'in-use'),
        requires=(NO_BIGGER_THAN_CLONE,),
        values={'updated_at': VOLUME_HELD}),
    Transition(
        'update', 'volume', 'PUT /volumes/{id} without metadata: rename',
        values=NAME_VALUES),
    Transition(
        'set_bootable', 'volume', 'os-set_bootable: the bootable flag',
        expect={'status': cond.Not('maintenance')},
        values={'bootable': Param('bootable')}),
    Transition(
        'update_metadata', 'volume',
        'the metadata API and PUT /volumes/{id} with metadata: the '
        'metadata rows are set, replaced or deleted in the same transaction',
        expect={'status': cond.Not('maintenance')},
        values=NAME_VALUES),
    # Volumes: tenant/admin actions -------------------------------------------
    Transition(
        'delete', 'volume', 'DELETE /volumes/{id}: start deleting',
        source=('available', 'error', 'error_restoring', 'error_extending',
                'error_managing'),
        expect=DELETE_EXPECT,
        requires=(NOT_FROZEN, NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=DELETE_VALUES,
        workers_row='track'),
    Transition(
        'force_delete', 'volume',
        'os-force_delete, and DELETE /volumes/{id}?force=true (3.23): start '
        'deleting from any status',
        expect=dict({'status': cond.Not('deleting')}, **DELETE_EXPECT),
        requires=(NOT_FROZEN, NO_SNAPSHOTS, NO_ATTACHMENTS),
        values=DELETE_VALUES,
        policy=volume_policies.FORCE_DELETE,
        workers_row='track', linked=FROM_BACKUP),
    Transition(
        'extend', 'volume', 'os-extend: start growing the volume',
        source=('available',),
        also=(Also(('in-use',), 'from microversion %d.%d' % mv.VOLUME_EXTEND_INUSE,
                   since(mv.VOLUME_EXTEND_INUSE)),),
        # The status too: the API chose the policy (extend, or extend an
        # attached volume) by the status it read.
        requires=(Bound('size', Param('new_size')), Unchanged('size'),
                  Unchanged('status')),
        expect={'migration_status': NOT_MIGRATING},
        values={'status': 'extending', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'reserve', 'volume', 'os-reserve: hold the volume for an attach',
        source=('available',),
        also=(Also(('in-use',), WHEN_MULTIATTACH, flag='multiattach'),),
        expect={'migration_status': NOT_MIGRATING},
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
        expect={'migration_status': NOT_MIGRATING},
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
        'force_detach', 'volume',
        "os-force_detach (admin): remove an attachment whatever the "
        'attach or detach in progress (attachment_disconnect or '
        'attachment_remove in the same transaction); the statuses follow '
        'the attachments that remain',
        source=FORCE_DETACH_STATUSES,
        requires=(HAS_ATTACHMENT,),
        values={'status': STATUS_AFTER_ATTACHMENT_DELETE,
                'attach_status': ATTACH_STATUS_AFTER_DETACH},
        policy=volume_action_policies.FORCE_DETACH),
    Transition(
        'force_detach_settle', 'volume',
        'os-force_detach (admin) of an attachment the volume does not '
        'have: the statuses follow the attachments it has (as Cinder sets '
        'them for a volume found not attached)',
        source=FORCE_DETACH_STATUSES,
        values={'status': STATUS_AFTER_ATTACHMENT_DELETE,
                'attach_status': ATTACH_STATUS_AFTER_DETACH},
        policy=volume_action_policies.FORCE_DETACH),
    Transition(
        'reset_status', 'volume',
        'os-reset_status: set the statuses given, whatever they are',
        values={'status': Param('status', optional=True),
                'attach_status': Param('attach_status', optional=True),
                'migration_status': Param('migration_status', optional=True)},
        policy=volume_action_policies.RESET_STATUS,
        workers_row='finish', linked=FROM_BACKUP),
    Transition(
        'retype', 'volume', 'os-retype: change the type on the same backend',
        source=('available', 'in-use'),
        expect={'migration_status': NOT_MIGRATING,
                'consistencygroup_id': None,
                'group_id': None,
                'volume_type_id': cond.Not(Param('new_type_id'))},
        # The claim moves the counts from the type the request loaded; the
        # pool was found to have what the new type requires.
        requires=(AVAILABLE_TO_CHANGE_MULTIATTACH, Unchanged('volume_type_id'),
                  ON_PLANNED_POOL),
        values={'status': 'retyping', 'previous_status': OLD_STATUS},
        workers_row='track'),
    Transition(
        'migrate', 'volume',
        'os-migrate_volume: start moving the volume to another pool; its '
        'allocation moves to the destination and the migration consumer '
        '(migration_id) holds the source, in the same transaction',
        source=('available',),
        expect=MIGRATE_EXPECT,
        requires=MIGRATE_REQUIRES + (OF_PLANNED_TYPE,),
        values=dict(MIGRATE_VALUES, status=Param('status', optional=True)),
        policy=volume_action_policies.MIGRATE,
        workers_row='track', workers_status='migrating'),
    Transition(
        'retype_migrate', 'volume',
        'os-retype with migration_policy on-demand when the new type rules '
        "the volume's pool out: a migration (as migrate) whose end also "
        'changes the type',
        source=('available',),
        expect=dict(MIGRATE_EXPECT,
                    volume_type_id=cond.Not(Param('new_type_id'))),
        requires=MIGRATE_REQUIRES + (AVAILABLE_TO_CHANGE_MULTIATTACH,
                                     Unchanged('volume_type_id')),
        values=dict(MIGRATE_VALUES, status='retyping'),
        workers_row='track', workers_status='migrating'),
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
        also=(Also(('in-use',), 'with force', forced),),
        expect={'migration_status': NOT_MIGRATING,
                'host': cond.Not(None)},
        # The snapshot row copies them from the volume the request loaded.
        requires=(NOT_FROZEN, Unchanged('size'),
                  Unchanged('volume_type_id')),
        values={}),
    Transition(
        'snapshot_new', 'snapshot',
        'POST /snapshots: insert the snapshot and its metadata (in the '
        'transaction of snapshot_create)',
        values={'status': 'creating', 'progress': '0%'},
        creates=True, workers_row='track'),
]
